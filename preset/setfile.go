package preset

import (
	"fmt"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// SetFile returns the set file (format/SPEC.md section 10) of a preset
// whose parts are looked up through shared tables: parts as Plan returns
// them, and for each table (by Part.Table) its file name and the raw
// SHA-256 of its entries. An error names the part that format.NewSetPart
// refuses; parts must not be empty.
func SetFile(parts []Part, tables []*puzzle.Pattern, files, rawSHA256 []string) (*format.SetFile, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("preset: a set file of no parts")
	}
	first := parts[0].Pattern
	sf := &format.SetFile{Version: format.SetVersion, Width: first.Geom.W, Height: first.Geom.H}
	for _, t := range first.Goal {
		sf.Goal = append(sf.Goal, int(t))
	}
	for _, part := range parts {
		sp, err := format.NewSetPart(part.Pattern, tables[part.Table], part.Sym, files[part.Table], rawSHA256[part.Table])
		if err != nil {
			return nil, err
		}
		sf.Parts = append(sf.Parts, sp)
	}
	return sf, nil
}

// CatalogueFile returns the set file of a catalogue preset (format/SPEC.md
// section 12, version format.CatalogueVersion): its partitions as
// PlanCatalogue returns them, each part naming its table's file and raw
// SHA-256 (files and rawSHA256 by Part.Table). An error names the
// partition and part that format.NewSetPart refuses; there must be at
// least one partition and no partition may be empty.
func CatalogueFile(partitions [][]Part, tables []*puzzle.Pattern, files, rawSHA256 []string) (*format.SetFile, error) {
	if len(partitions) == 0 {
		return nil, fmt.Errorf("preset: a catalogue of no partitions")
	}
	var sf *format.SetFile
	for i, parts := range partitions {
		one, err := SetFile(parts, tables, files, rawSHA256)
		if err != nil {
			return nil, fmt.Errorf("partition %d: %w", i+1, err)
		}
		if sf == nil {
			sf = &format.SetFile{Version: format.CatalogueVersion, Width: one.Width, Height: one.Height, Goal: one.Goal}
		}
		sf.Partitions = append(sf.Partitions, one.Parts)
	}
	return sf, nil
}
