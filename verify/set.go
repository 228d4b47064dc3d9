package verify

import (
	"context"
	"fmt"

	"github.com/tilepdb/tilepdb/format"
)

// SetFile checks the set file at path (format/SPEC.md section 10): it opens
// the set with format.OpenSet, which reads and verifies the integrity of
// every table it names and checks that they hold together: the same board
// and goal, the recorded tiles and raw SHA-256, valid symmetries that map
// each part's goal cells exactly onto its table's (and the blank's goal
// region onto the table's), the recorded tile maps, disjoint parts, no
// exact table. It does not run the entry checks of File on the tables;
// verify them as files.
//
// With opts.Deep, every part looked up through a symmetry is also built
// directly by Reference and compared entry by entry with its table read
// through the symmetry: an independent check of the symmetric use (memory
// as for a deep check of a table of the part's size).
//
// It returns the opened set on success. A set that does not hold together
// gives an error wrapping format.ErrSet (bad data; format.IsBadData); a
// missing or unreadable file, or ctx ending, gives another error.
func SetFile(ctx context.Context, path string, opts Options) (*format.Set, error) {
	s, err := format.OpenSet(path)
	if err != nil {
		return nil, err
	}
	if !opts.Deep {
		return s, nil
	}
	for i, part := range s.Parts {
		m := part.Mapping()
		if m == nil {
			continue
		}
		ref, err := Reference(ctx, part.Pattern)
		if err != nil {
			return nil, err
		}
		p := part.Pattern
		cells := make([]uint8, p.K())
		pos := make([]uint8, p.Geom.N())
		bad, first := 0, int64(-1)
		for idx := uint64(0); idx < p.Size(); idx++ {
			p.Unrank(idx, cells)
			for j, t := range p.Tiles {
				pos[t] = cells[j]
			}
			if ref[idx] != part.Table.Values[m.Rank(pos)] {
				if bad == 0 {
					first = int64(idx)
				}
				bad++
			}
		}
		if bad > 0 {
			return nil, fmt.Errorf("%s: %w: part %d (%s) through %s of table %s: %d entries differ from a direct build, first at rank %d", path, format.ErrSet, i+1, p, m.Sym, part.Table.Pattern, bad, first)
		}
	}
	return s, nil
}
