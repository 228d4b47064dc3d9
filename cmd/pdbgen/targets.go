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
func manifestTargets(m *manifest.Manifest) ([]plannedTable, error) {
	var out []plannedTable
	for _, e := range m.Entries {
		p, err := preset.ParseFileName(e.Name)
		if err != nil {
			return nil, dataErr(fmt.Errorf("manifest %s: %v", m.Where(e), err))
		}
		out = append(out, plannedTable{pattern: p, file: e.Name})
	}
	return out, nil
}
