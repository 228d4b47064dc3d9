package preset

import (
	"github.com/tilepdb/tilepdb/puzzle"
)

// Part is one part of a preset's heuristic: its pattern, the table it is
// looked up through (an index into the tables Plan returns) and the board
// symmetry that maps the part's goal cells onto the table's.
type Part struct {
	Pattern *puzzle.Pattern
	Table   int
	Sym     puzzle.Symmetry
}

// Plan returns the tables the preset builds for a goal convention name
// (see Patterns) and the parts of its heuristic, in partition order. Each
// pattern is looked up through the first earlier table that serves it by a
// board symmetry (puzzle.FindSymmetry, which also requires the blank's
// goal region to correspond), or else gets a table of its own, which is
// then listed in tables. Korf & Felner's 24-6666 needs 2 tables for 4
// parts; the 15-puzzle presets have no symmetric parts and need one table
// per part.
func (pr Preset) Plan(goal string) (tables []*puzzle.Pattern, parts []Part, err error) {
	ps, err := pr.Patterns(goal)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range ps {
		part := Part{Pattern: p, Table: -1}
		for i, t := range tables {
			if m, ok := puzzle.FindSymmetry(p, t); ok {
				part.Table, part.Sym = i, m.Sym
				break
			}
		}
		if part.Table < 0 {
			part.Table = len(tables)
			tables = append(tables, p)
		}
		parts = append(parts, part)
	}
	return tables, parts, nil
}
