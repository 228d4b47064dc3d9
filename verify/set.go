package verify

import (
	"context"
	"fmt"

	"github.com/tilepdb/tilepdb/format"
)

// SetFile checks the set file at path (format/SPEC.md section 10; a
// catalogue, section 12, partition by partition) with
// format.CheckSetFile, which reads and verifies the integrity of every
// table it names and checks that they hold together: the same board and
// goal, the recorded tiles and raw SHA-256, valid symmetries that map each
// part's goal cells exactly onto its table's (and the blank's goal region
// onto the table's), the recorded tile maps, disjoint parts, no exact
// table. Like table verification it does not stop at the first problem:
// it returns every problem found (bbolt's checker style). It does not run
// the entry checks of File on the tables; verify them as files.
//
// With opts.Deep, every part looked up through a symmetry is also built
// directly by Reference and compared entry by entry with its table read
// through the symmetry: an independent check of the symmetric use (memory
// as for a deep check of a table of the part's size).
//
// It returns the opened set when there is no problem. Problems about the
// set file wrap format.ErrSet (bad data; format.IsBadData), as do a
// table's own verification errors; a missing or unreadable file gives a
// problem that is not bad data. The error is ctx's when it ended.
func SetFile(ctx context.Context, path string, opts Options) (*format.Set, []error, error) {
	s, probs := format.CheckSetFile(path)
	if len(probs) > 0 || !opts.Deep {
		return s, probs, nil
	}
	for i, part := range s.Parts {
		m := part.Mapping()
		if m == nil {
			continue
		}
		if part.Table.Regions != nil {
			prob, err := zaSetPart(ctx, path, s.PartName(i), part)
			if err != nil {
				return nil, probs, err
			}
			if prob != nil {
				probs = append(probs, prob)
			}
			continue
		}
		ref, err := Reference(ctx, part.Pattern)
		if err != nil {
			return nil, probs, err
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
			probs = append(probs, fmt.Errorf("%s: %w: %s (%s) through %s of table %s: %d entries differ from a direct build, first at rank %d", path, format.ErrSet, s.PartName(i), p, m.Sym, part.Table.Pattern, bad, first))
		}
	}
	if len(probs) > 0 {
		return nil, probs, nil
	}
	return s, nil, nil
}
