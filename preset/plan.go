package preset

import (
	"fmt"

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
// per part. A catalogue preset has several partitions: Plan refuses it
// (PlanCatalogue).
func (pr Preset) Plan(goal string) (tables []*puzzle.Pattern, parts []Part, err error) {
	if pr.IsCatalogue() {
		return nil, nil, fmt.Errorf("preset %s is a catalogue of %d partitions, not one additive set", pr.Name, len(pr.Catalogue))
	}
	tables, partitions, err := pr.PlanCatalogue(goal)
	if err != nil {
		return nil, nil, err
	}
	return tables, partitions[0], nil
}

// PlanCatalogue is Plan for every preset: the tables and, for each
// partition (one for an additive preset, Catalogue's for a catalogue), its
// parts, each looked up through the first table (over all partitions, in
// order) that serves it by a board symmetry. Clausecker & Reinefeld's small
// catalogue (preset 24-best: 14 partitions, 56 parts) needs 11 tables.
func (pr Preset) PlanCatalogue(goal string) (tables []*puzzle.Pattern, partitions [][]Part, err error) {
	sets := pr.Catalogue
	if !pr.IsCatalogue() {
		sets = [][][]uint8{pr.Partition}
	}
	for _, partition := range sets {
		ps, err := pr.partitionPatterns(goal, partition)
		if err != nil {
			return nil, nil, err
		}
		var parts []Part
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
		partitions = append(partitions, parts)
	}
	return tables, partitions, nil
}
