package main

import (
	"fmt"

	"github.com/tilepdb/tilepdb/preset"
)

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
