package solver

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestZeroAwareBits: a catalogue's zero-aware tables held at one bit
// (Options.ZeroAwareBits) give the same moves and node counts as the byte
// form, with and without reflection, one and two threads, on the small
// zero-aware catalogues and a 15-puzzle catalogue of 3-tile zero-aware
// tables with its transposed partition. (TestCatalogueIncremental checks
// the heuristic at every state against format.Set.Heuristic.)
func TestZeroAwareBits(t *testing.T) {
	type tc struct {
		name string
		s    *format.Set
		walk int
	}
	var cases []tc
	for _, c := range catSmall {
		if c.za {
			cases = append(cases, tc{c.name, catalogueSet(t, true, c.w, c.h, c.goal, c.partitions...), 0})
		}
	}
	parts := append(slices.Clone(catLarger), transposed(t, 4, 4, puzzle.GoalBlankLast, catLarger[0]))
	cases = append(cases, tc{"15-puzzle 3-tile", catalogueSet(t, true, 4, 4, puzzle.GoalBlankLast, parts...), 45})
	rng := rand.New(rand.NewPCG(30, 5))
	n := 12
	if raceEnabled {
		n = 3
	}
	for _, c := range cases {
		s := c.s
		for _, opt := range []Options{{}, {Reflect: true}, {Threads: 2}, {Reflect: true, Threads: 2}} {
			if opt.Reflect && (s.Geom.W != s.Geom.H || !s.Goal.Equal(puzzle.BlankLastGoal(s.Geom))) {
				continue
			}
			bytesSv := newSolver(t, s, opt)
			bopt := opt
			bopt.ZeroAwareBits = true
			bitsSv := newSolver(t, s, bopt)
			if bitsSv.CompactBytes() == 0 || len(bitsSv.CompactErrors()) != 0 || bytesSv.CompactBytes() != 0 {
				t.Fatalf("%s %+v: %d bytes at 1 bit (byte form: %d), errors %v", c.name, opt, bitsSv.CompactBytes(), bytesSv.CompactBytes(), bitsSv.CompactErrors())
			}
			for range n {
				b := pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
				if c.walk > 0 {
					b = pdbtest.RandomWalk(rng, s.Geom, s.Goal, c.walk)
				}
				want, err := bytesSv.solve(b)
				if err != nil {
					t.Fatal(err)
				}
				got, err := bitsSv.solve(b)
				if err != nil {
					t.Fatal(err)
				}
				if got.Nodes != want.Nodes || got.Moves != want.Moves {
					t.Fatalf("%s %+v: %v: 1 bit: %d nodes, moves %v; bytes: %d nodes, moves %v", c.name, opt, b, got.Nodes, got.Moves, want.Nodes, want.Moves)
				}
			}
		}
	}
}

// TestZeroAwareBitsFallback: a zero-aware table that fails compact's
// check (one entry raised by 2, so not consistent) keeps its byte form,
// with the reason in CompactErrors; Options.Packed tables are used as
// given; plain catalogues are untouched.
func TestZeroAwareBitsFallback(t *testing.T) {
	c := catSmall[2] // 3x3 zero-aware
	s := catalogueSet(t, true, c.w, c.h, c.goal, c.partitions...)
	bad := *s.Parts[0].Table
	bad.Values = slices.Clone(bad.Values)
	bad.Values[len(bad.Values)/2] += 2
	orig := s.Parts[0].Table
	for i := range s.Parts {
		if s.Parts[i].Table == orig {
			s.Parts[i].Table = &bad
		}
	}
	sv := newSolver(t, s, Options{ZeroAwareBits: true})
	errs := sv.CompactErrors()
	if len(errs) != 1 || !errors.Is(errs[0], compact.ErrNotCompactable) {
		t.Fatalf("CompactErrors = %v, want one ErrNotCompactable", errs)
	}
	if sv.CompactBytes() == 0 {
		t.Fatal("the other tables were not packed")
	}

	s = catalogueSet(t, true, c.w, c.h, c.goal, c.partitions...)
	packed := map[*format.Table]*compact.Table{}
	for _, p := range s.Parts {
		if packed[p.Table] == nil {
			cz, err := compact.Pack(p.Table, compact.Options{})
			if err != nil {
				t.Fatal(err)
			}
			packed[p.Table] = cz
		}
	}
	var want uint64
	for _, cz := range packed {
		want += cz.Bytes()
	}
	ref := newSolver(t, catalogueSet(t, true, c.w, c.h, c.goal, c.partitions...), Options{})
	// The tables released (copies, one per table: the test tables are
	// shared).
	released := map[*format.Table]*compact.Table{}
	copies := map[*format.Table]*format.Table{}
	for i, p := range s.Parts {
		cz := packed[p.Table]
		if cz == nil {
			continue
		}
		if copies[p.Table] == nil {
			cp := *p.Table
			cp.ReleaseValues()
			copies[p.Table] = &cp
			released[&cp] = cz
		}
		s.Parts[i].Table = copies[p.Table]
	}
	sv = newSolver(t, s, Options{ZeroAwareBits: true, Packed: released})
	if sv.CompactBytes() != want {
		t.Fatalf("CompactBytes = %d, want %d", sv.CompactBytes(), want)
	}
	rng := rand.New(rand.NewPCG(30, 6))
	for range 20 {
		b := pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
		if got, want := sv.Heuristic(b), ref.Heuristic(b); got != want {
			t.Fatalf("%v: Heuristic %d with the bytes released, %d with them", b, got, want)
		}
		got, err := sv.solve(b)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := ref.solve(b); got.Nodes != want.Nodes || got.Moves != want.Moves {
			t.Fatalf("%v: released: %d nodes %s; bytes: %d nodes %s", b, got.Nodes, got.Moves, want.Nodes, want.Moves)
		}
	}

	c = catSmall[0] // plain
	sv = newSolver(t, catalogueSet(t, false, c.w, c.h, c.goal, c.partitions...), Options{ZeroAwareBits: true})
	if sv.CompactBytes() != 0 || len(sv.CompactErrors()) != 0 {
		t.Fatalf("a plain catalogue: %d bytes at 1 bit, errors %v", sv.CompactBytes(), sv.CompactErrors())
	}
}
