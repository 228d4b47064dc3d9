package main

import (
	"fmt"

	"github.com/tilepdb/tilepdb/preset"
)

// presetsCmd is "pdbgen presets": its usage line, summary and help (the flags are
// defined where it parses them).
var presetsCmd = &command{name: "presets", usage: "", short: "list the presets", run: runPresets}

// runPresets lists preset.All: name, board, description, default mark.
func runPresets(e *env, args []string) error {
	if err := noArgs(newFlags(e, "presets"), args); err != nil {
		return err
	}
	for _, p := range preset.All {
		def := ""
		if p.Default {
			def = " (default)"
		}
		fmt.Fprintf(e.stdout, "%-17s %dx%d  %s%s\n", p.Name, p.W, p.H, p.Description, def)
	}
	return nil
}
