package main

import (
	"fmt"

	"github.com/tilepdb/tilepdb/manifest"
	"github.com/tilepdb/tilepdb/preset"
)

// manifestTargets is the build list a manifest implies when neither
// --preset nor --board is given: the table each line names, in manifest
// order. A name that no preset or board produces is bad data (exit 1)
// named by manifest file and line.
func manifestTargets(m *manifest.Manifest) ([]preset.Table, error) {
	var out []preset.Table
	for _, e := range m.Entries {
		p, err := preset.ParseFileName(e.Name)
		if err != nil {
			return nil, dataErr(fmt.Errorf("manifest %s: %w", m.Where(e), err))
		}
		out = append(out, preset.Table{Pattern: p, File: e.Name, Kind: preset.PlainKind(p)})
	}
	return out, nil
}
