package format

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// catalogueParts is the test's 3x3 blank-last catalogue material: tables
// a (tiles 1-4), b (5-8), c (5,6) and z (zero-aware, tiles 1-4), and the
// part helpers.
type catalogueParts struct {
	t          *testing.T
	a, b, c, z *Table
}

func newCatalogueParts(t *testing.T) *catalogueParts {
	bl := func(tiles ...uint8) *puzzle.Pattern { return pdbtest.Pattern(t, 3, 3, "blank-last", tiles...) }
	return &catalogueParts{t: t,
		a: mkTable(t, bl(1, 2, 3, 4), 0, 1),
		b: mkTable(t, bl(5, 6, 7, 8), 0, 2),
		c: mkTable(t, bl(5, 6), 0, 3),
		z: builtZeroAware(t, bl(1, 2, 3, 4)),
	}
}

// part is tiles looked up in tb through sym.
func (cp *catalogueParts) part(tb *Table, sym puzzle.Symmetry, tiles ...uint8) Part {
	return Part{Pattern: pdbtest.Pattern(cp.t, 3, 3, "blank-last", tiles...), Table: tb, Sym: sym}
}

// TestCatalogueHeuristic checks Set.Heuristic of catalogues against a
// brute force: the maximum over the partitions of the heuristic of the
// partition alone as an additive set (NewSetParts), on random solvable
// boards, and the grouping of Parts and Tables.
func TestCatalogueHeuristic(t *testing.T) {
	cp := newCatalogueParts(t)
	id, tr := puzzle.Identity, puzzle.Transpose
	// Under the transpose of the 3x3 blank-last goal, tiles 1,2,4,7 go
	// to the goal cells of 1,2,3,4 (cells 0,1,3,6 -> 0,3,1,2) and
	// 3,5,6,8 to those of 5,6,7,8.
	tests := []struct {
		name       string
		partitions [][]Part
		parts      int // distinct parts expected in Set.Parts
		tables     int
	}{
		{"one partition", [][]Part{{cp.part(cp.a, id, 1, 2, 3, 4), cp.part(cp.b, id, 5, 6, 7, 8)}}, 2, 2},
		{"identity and transposed", [][]Part{
			{cp.part(cp.a, id, 1, 2, 3, 4), cp.part(cp.b, id, 5, 6, 7, 8)},
			{cp.part(cp.a, tr, 1, 2, 4, 7), cp.part(cp.b, tr, 3, 5, 6, 8)},
		}, 4, 2},
		{"shared part", [][]Part{
			{cp.part(cp.a, id, 1, 2, 3, 4), cp.part(cp.b, id, 5, 6, 7, 8)},
			{cp.part(cp.c, id, 5, 6), cp.part(cp.a, id, 1, 2, 3, 4)},
			{cp.part(cp.c, id, 5, 6)},
		}, 3, 3},
		{"zero-aware and plain", [][]Part{
			{cp.part(cp.z, id, 1, 2, 3, 4), cp.part(cp.b, id, 5, 6, 7, 8)},
			{cp.part(cp.z, tr, 1, 2, 4, 7), cp.part(cp.b, tr, 3, 5, 6, 8)},
			{cp.part(cp.a, id, 1, 2, 3, 4)},
		}, 5, 3},
	}
	g := puzzle.Geometry{W: 3, H: 3}
	goal := puzzle.BlankLastGoal(g)
	rng := rand.New(rand.NewPCG(18, 2))
	boards := []puzzle.Board{goal}
	for range 3000 {
		boards = append(boards, pdbtest.RandomSolvable(rng, g, goal))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewCatalogue(tt.partitions)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Catalogue() || s.Exact() || len(s.Partitions) != len(tt.partitions) || len(s.Parts) != tt.parts || len(s.Tables) != tt.tables {
				t.Fatalf("catalogue: %d partitions, %d parts, %d tables; want %d, %d, %d", len(s.Partitions), len(s.Parts), len(s.Tables), len(tt.partitions), tt.parts, tt.tables)
			}
			var alone []*Set
			for i, ps := range tt.partitions {
				if len(s.Partitions[i]) != len(ps) {
					t.Fatalf("partition %d has %d parts, want %d", i+1, len(s.Partitions[i]), len(ps))
				}
				for j, k := range s.Partitions[i] {
					if p := s.Parts[k]; p.Table != ps[j].Table || p.Sym != ps[j].Sym || !p.Pattern.Goal.Equal(goal) || string(p.Pattern.Tiles) != string(ps[j].Pattern.Tiles) {
						t.Errorf("partition %d part %d is Parts[%d] = %s, want %s", i+1, j+1, k, p.Pattern, ps[j].Pattern)
					}
				}
				a, err := NewSetParts(ps)
				if err != nil {
					t.Fatal(err)
				}
				alone = append(alone, a)
			}
			differ := 0 // boards where the partitions' sums are not all equal
			for _, b := range boards {
				pos := b.Positions()
				want, low := 0, 1<<30
				for _, a := range alone {
					h := a.Heuristic(pos)
					want, low = max(want, h), min(low, h)
				}
				if low != want {
					differ++
				}
				if got := s.Heuristic(pos); got != want {
					t.Fatalf("%s: Heuristic %d, want %d", b, got, want)
				}
				if got, err := s.Lookup(b); err != nil || got != want {
					t.Fatalf("%s: Lookup %d, %v; want %d", b, got, err, want)
				}
			}
			if len(alone) > 1 && differ == 0 {
				t.Errorf("the partitions' sums agree on every board: the maximum is not tested")
			}
		})
	}
}

func TestCatalogueErrors(t *testing.T) {
	cp := newCatalogueParts(t)
	id, tr := puzzle.Identity, puzzle.Transpose
	a := cp.part(cp.a, id, 1, 2, 3, 4)
	b := cp.part(cp.b, id, 5, 6, 7, 8)
	tooMany := make([][]Part, MaxPartitions+1)
	for i := range tooMany {
		tooMany[i] = []Part{a}
	}
	other := Part{Pattern: pdbtest.Pattern(t, 3, 3, "blank-first", 1, 2), Table: mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-first", 1, 2), 0, 4)}
	exact := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last"), 0, 5)
	tests := []struct {
		name       string
		partitions [][]Part
		want       string
	}{
		{"none", nil, "0 partitions, want 1 to 64"},
		{"too many", tooMany, "65 partitions, want 1 to 64"},
		{"empty partition", [][]Part{{a}, {}}, "partition 2: no parts"},
		{"overlap in partition 2", [][]Part{{a, b}, {b, cp.part(cp.c, id, 5, 6)}}, "partition 2 part 2 (3x3 blank-last tiles 5,6) and partition 2 part 1 (3x3 blank-last tiles 5,6,7,8) are not disjoint: both hold tile(s) 5,6"},
		{"bad symmetry", [][]Part{{a}, {cp.part(cp.a, tr, 1, 2, 3, 4)}}, "partition 2 part 1 (3x3 blank-last tiles 1,2,3,4) through table"},
		{"other goal", [][]Part{{a}, {other}}, "partition 2 part 1 (3x3 blank-first tiles 1,2) has goal"},
		{"exact", [][]Part{{a}, {{Pattern: exact.Pattern, Table: exact}}}, "partition 2 part 1 (3x3 blank-last exact (all tiles)) is an exact table"},
		{"incomplete table", [][]Part{{a, {Pattern: b.Pattern}}}, "partition 1 part 2: not a complete table"},
	}
	for _, tt := range tests {
		if _, err := NewCatalogue(tt.partitions); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// TestCatalogueHeuristicAllocs: Heuristic of a catalogue does not
// allocate (the solver calls it at every node).
func TestCatalogueHeuristicAllocs(t *testing.T) {
	cp := newCatalogueParts(t)
	s, err := NewCatalogue([][]Part{
		{cp.part(cp.a, puzzle.Identity, 1, 2, 3, 4), cp.part(cp.b, puzzle.Identity, 5, 6, 7, 8)},
		{cp.part(cp.a, puzzle.Transpose, 1, 2, 4, 7), cp.part(cp.b, puzzle.Transpose, 3, 5, 6, 8)},
	})
	if err != nil {
		t.Fatal(err)
	}
	pos := puzzle.Board{8, 6, 7, 2, 5, 4, 3, 0, 1}.Positions()
	if n := testing.AllocsPerRun(100, func() { s.Heuristic(pos) }); n != 0 {
		t.Errorf("Heuristic allocates %v times", n)
	}
}
