package main

import (
	"strings"

	"github.com/tilepdb/tilepdb/preset"
)

// zeroAwareHelp is the help of build --zero-aware. A zero-aware table is
// planned by preset.ZeroAware and built by buildTable (kindBuildOf).
const zeroAwareHelp = "write zero-aware tables (one value per placement and region of the blank, format/SPEC.md section 11; file names end in _za.pdb, set files in _za.set.json): at least the additive table's value on every board; built in memory, not with --manifest, --if-needed or the out-of-core flags"

// zeroAwarePreset returns the first of the comma-separated preset names
// that names a zero-aware preset (preset.Preset.ZeroAware), or "".
func zeroAwarePreset(presets string) string {
	for _, name := range strings.Split(presets, ",") {
		if pr, err := preset.Find(strings.TrimSpace(name)); err == nil && pr.ZeroAware {
			return pr.Name
		}
	}
	return ""
}
