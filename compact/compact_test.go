package compact

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// cases are small zero-aware patterns: corners cut off (cell sets of
// several regions), both goals and a scrambled one, 3x3, 4x4 and a
// non-square board.
var cases = []struct {
	w, h  int
	goal  string
	tiles []uint8
}{
	{3, 3, "blank-last", []uint8{1, 2}},
	{3, 3, "blank-last", []uint8{1, 2, 3}},
	{3, 3, "blank-first", []uint8{1, 3, 5, 7}},
	{3, 3, "8 7 6 5 4 3 2 1 0", []uint8{1, 5, 8}},
	{3, 3, "blank-last", []uint8{5, 6, 7, 8}},
	{4, 4, "blank-first", []uint8{1, 2, 3}},
	{4, 4, "blank-last", []uint8{11, 12, 15}},
	{4, 4, "blank-first", []uint8{1, 2, 5, 6}},
	{4, 4, "blank-last", []uint8{1, 2, 3, 4, 7}},
	{5, 2, "blank-last", []uint8{1, 2, 6, 7}},
	{6, 6, "blank-last", []uint8{1, 2}},   // records of 16 words
	{8, 8, "blank-first", []uint8{1, 9}},  // records of 32 words
	{7, 7, "blank-last", []uint8{24, 25}}, // 16 words, tiles in the middle
}

// zeroAware builds the zero-aware table of the pattern with the
// project's builder.
func zeroAware(tb testing.TB, p *puzzle.Pattern) *format.Table {
	tb.Helper()
	vals, err := builder.BuildZeroAware(context.Background(), p, builder.Options{Workers: 2})
	if err != nil {
		tb.Fatal(err)
	}
	r, err := puzzle.NewRegions(p)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := format.NewZeroAwareTable(r, vals, "compact test")
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// packed is the zero-aware table of p (zeroAware) and its 1-bit form.
func packed(tb testing.TB, p *puzzle.Pattern) (*format.Table, *Table) {
	tb.Helper()
	zt := zeroAware(tb, p)
	c, err := Pack(zt, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return zt, c
}

// stateOf is a state of zero-aware index idx: the cells of the pattern
// tiles and the lowest cell of the blank's region.
func stateOf(tb testing.TB, r *puzzle.Regions, idx uint64) ([]uint8, uint8) {
	tb.Helper()
	p := r.Pattern()
	rank, reg := r.Placement(idx)
	cells := make([]uint8, p.K())
	p.Unrank(rank, cells)
	m := rank % p.Combinations()
	free := ^puzzle.CombinationUnrank(m, p.Geom.N(), p.K()) & puzzle.FullMask(p.Geom.N())
	for ; free != 0; free &= free - 1 {
		if x := bits.TrailingZeros64(free); int(r.Region(m, x)) == reg {
			if got := r.IndexCells(cells, uint8(x)); got != idx {
				tb.Fatalf("state of index %d has index %d", idx, got)
			}
			return cells, uint8(x)
		}
	}
	tb.Fatalf("index %d: no cell in region %d", idx, reg)
	return nil, 0
}

// TestChild checks Child against its definition: the one of old±1 whose
// bit 1 is the stored bit, for every old.
func TestChild(t *testing.T) {
	for old := range 255 {
		for _, child := range []int{old - 1, old + 1} {
			if child < 0 || child > 254 {
				continue
			}
			bit := uint8(child >> 1 & 1)
			if got := Child(uint8(old), bit); int(got) != child {
				t.Errorf("Child(%d, %d) = %d, want %d", old, bit, got, child)
			}
		}
	}
}

// TestValueEveryState checks the root walk on every state of each small
// table (every 7th above 10^5 entries with -short): Value equals the
// byte table, and Parity and the stored bit give the value mod 4.
func TestValueEveryState(t *testing.T) {
	for _, tc := range cases {
		p := pdbtest.Pattern(t, tc.w, tc.h, tc.goal, tc.tiles...)
		t.Run(p.String(), func(t *testing.T) {
			zt, c := packed(t, p)
			// The bits, and a record (slot start and a region byte per
			// cell) of a power of two of at least 16 bytes per cell set.
			n := p.Geom.N()
			rec := uint64(16)
			for rec < 4*uint64(1+(n+3)/4) {
				rec *= 2
			}
			want := (c.Entries()+63)/64*8 + p.Combinations()*rec
			if got := c.Bytes(); got != want {
				t.Errorf("Bytes = %d, want %d", got, want)
			}
			if got := Memory(n, len(p.Tiles), c.Entries()); got != want {
				t.Errorf("Memory = %d, want %d", got, want)
			}
			step := uint64(1)
			if testing.Short() && c.Entries() > 1e5 {
				step = 7
			}
			for idx := uint64(0); idx < c.Entries(); idx += step {
				cells, blank := stateOf(t, zt.Regions, idx)
				want := zt.Values[idx]
				if mod := c.Parity(maskOf(cells)) | c.Bit(idx)<<1; mod != want&3 {
					t.Fatalf("index %d: value %d, parity and bit give %d mod 4", idx, want, mod)
				}
				got, err := c.Value(cells, blank)
				if err != nil {
					t.Fatalf("index %d: %v", idx, err)
				}
				if got != want {
					t.Fatalf("index %d (cells %v, blank %d): Value = %d, table holds %d", idx, cells, blank, got, want)
				}
			}
		})
	}
}

// TestRandomWalks follows random walks of the whole puzzle from random
// boards: the root's value comes from Value, each later one from the
// parent's by Next on a pattern-tile move and unchanged on any other
// move, and each equals the byte table.
func TestRandomWalks(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	for _, tc := range cases {
		p := pdbtest.Pattern(t, tc.w, tc.h, tc.goal, tc.tiles...)
		t.Run(p.String(), func(t *testing.T) {
			zt, c := packed(t, p)
			inPattern := map[uint8]int{}
			for i, tile := range p.Tiles {
				inPattern[tile] = i
			}
			g := p.Geom
			for range 20 {
				b := pdbtest.RandomSolvable(rng, g, p.Goal)
				pos := b.Positions()
				cells := make([]uint8, p.K())
				for i, tile := range p.Tiles {
					cells[i] = pos[tile]
				}
				h, err := c.Value(cells, pos[0])
				if err != nil {
					t.Fatal(err)
				}
				for step := range 500 {
					idx := c.Index(cells, pos[0])
					mask := maskOf(cells)
					if at := c.At(puzzle.OrderRank(mask, cells), puzzle.CombinationRank(mask), pos[0]); at != idx {
						t.Fatalf("At = %d, Index = %d", at, idx)
					}
					if want := zt.Values[idx]; h != want {
						t.Fatalf("board %v, step %d: carried value %d, table holds %d", b, step, h, want)
					}
					blank := int(pos[0])
					to, ok := g.Step(blank, puzzle.Directions[rng.IntN(4)])
					if !ok {
						continue
					}
					tile := b[to]
					b[blank], b[to] = tile, 0
					pos[tile], pos[0] = uint8(blank), uint8(to)
					if i, ok := inPattern[tile]; ok {
						cells[i] = uint8(blank)
						h = c.Next(h, c.Index(cells, pos[0]))
					}
				}
			}
		})
	}
}

// TestRefusals checks that Pack refuses a plain additive table (not
// consistent) and zero-aware tables damaged so that they break the goal,
// parity or consistency, each with an error that says which.
func TestRefusals(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3)
	plain, err := builder.Build(context.Background(), p, builder.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	pt, err := format.NewTable(p, plain, "compact test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Pack(pt, Options{}); !errors.Is(err, ErrNotZeroAware) {
		t.Errorf("Pack of a plain additive table: %v, want ErrNotZeroAware", err)
	}
	if _, err := Pack(nil, Options{}); !errors.Is(err, ErrNotZeroAware) {
		t.Errorf("Pack(nil): %v, want ErrNotZeroAware", err)
	}
	zt := zeroAware(t, p)
	goal := zt.Regions.IndexCells(p.GoalCells(), p.GoalPositions()[0])
	// an entry neither the goal nor next to it, value below 250
	mid := uint64(len(zt.Values)) / 2
	for mid == goal || zt.Values[mid] < 3 {
		mid++
	}
	damage := []struct {
		name string
		idx  uint64
		add  uint8
		want string
	}{
		{"goal", goal, 2, "the goal's entry"},
		{"parity", mid, 1, "parity"},
		{"consistency", mid, 2, "not consistent"},
		{"consistency-down", mid, 254, "not consistent"}, // −2
	}
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			bad := *zt
			bad.Values = slices.Clone(zt.Values)
			bad.Values[d.idx] += d.add
			_, err := Pack(&bad, Options{})
			if !errors.Is(err, ErrNotCompactable) || !strings.Contains(err.Error(), d.want) {
				t.Fatalf("Pack: %v, want ErrNotCompactable saying %q", err, d.want)
			}
			if err := Check(&bad, Options{}); !errors.Is(err, ErrNotCompactable) {
				t.Fatalf("Check: %v, want ErrNotCompactable", err)
			}
		})
	}
	// Two entries of bad parity in different runs of checkParity's
	// goroutines: the error names the first.
	two := *zt
	two.Values = slices.Clone(zt.Values)
	last := uint64(len(two.Values)) - 1
	for last == goal || last == mid {
		last--
	}
	two.Values[mid]++
	two.Values[last]++
	if _, err := Pack(&two, Options{}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("entry %d holds", mid)) {
		t.Errorf("Pack with bad parity at %d and %d: %v, want entry %d named", mid, last, err, mid)
	}
	short := *zt
	short.Values = zt.Values[:len(zt.Values)-1]
	if _, err := Pack(&short, Options{}); err == nil || errors.Is(err, ErrNotCompactable) {
		t.Errorf("Pack of a short table: %v, want a length error", err)
	}
}

// TestMinimumBroadcast is the plain table held in a zero-aware table's
// shape (every region of a placement given the minimum over its regions):
// parity holds, consistency does not, and the check finds it exhaustively
// and, with the limit lowered, by its sample.
func TestMinimumBroadcast(t *testing.T) {
	for _, tc := range cases[1:5] {
		p := pdbtest.Pattern(t, tc.w, tc.h, tc.goal, tc.tiles...)
		t.Run(p.String(), func(t *testing.T) {
			zt := zeroAware(t, p)
			r := zt.Regions
			bad := *zt
			bad.Values = slices.Clone(zt.Values)
			s := r.Slots()
			for ord := range p.Size() / p.Combinations() {
				for m := range p.Combinations() {
					lo, hi := ord*s+r.SlotStart(m), ord*s+r.SlotStart(m+1)
					v := slices.Min(bad.Values[lo:hi])
					for i := lo; i < hi; i++ {
						bad.Values[i] = v
					}
				}
			}
			if slices.Equal(bad.Values, zt.Values) {
				t.Skip("no placement with two regions of different values")
			}
			for _, limit := range []uint64{ExhaustiveLimit, 0} {
				t.Run(fmt.Sprintf("limit=%d", limit), func(t *testing.T) {
					defer func(old uint64) { exhaustiveLimit = old }(exhaustiveLimit)
					exhaustiveLimit = limit
					if _, err := Pack(&bad, Options{Sample: 4096, Seed: 1}); !errors.Is(err, ErrNotCompactable) {
						t.Fatalf("Pack: %v, want ErrNotCompactable", err)
					}
				})
			}
		})
	}
}

// TestValueRefusal checks Value's argument errors.
func TestValueRefusal(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2)
	c, err := Pack(zeroAware(t, p), Options{Exhaustive: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Value([]uint8{0, 1}, 1); err == nil {
		t.Error("blank on a pattern tile's cell accepted")
	}
	if _, err := c.Value([]uint8{0}, 1); err == nil {
		t.Error("one cell for two tiles accepted")
	}
}

// TestSharedRecords: tables of one board and number of pattern tiles
// share one array of records (Table.rec) while they live, tables of
// another shape do not, and At through the shared records gives every
// state's index (the index of puzzle.Regions, which each table labels
// for itself).
func TestSharedRecords(t *testing.T) {
	pa := pdbtest.Pattern(t, 4, 4, "blank-first", 1, 2, 3)
	pb := pdbtest.Pattern(t, 4, 4, "blank-last", 11, 12, 15)
	pc := pdbtest.Pattern(t, 4, 4, "blank-first", 1, 2, 5, 6)
	pd := pdbtest.Pattern(t, 4, 3, "blank-first", 1, 2, 3)
	_, a := packed(t, pa)
	zb, b := packed(t, pb)
	_, c := packed(t, pc)
	_, d := packed(t, pd)
	if &a.rec[0] != &b.rec[0] {
		t.Errorf("%s and %s: records not shared", pa, pb)
	}
	for _, o := range []*Table{c, d} {
		if &a.rec[0] == &o.rec[0] {
			t.Errorf("%s and %s: records shared across shapes", pa, o.Pattern())
		}
	}
	for idx := uint64(0); idx < b.Entries(); idx++ {
		cells, blank := stateOf(t, zb.Regions, idx)
		st := zb.Regions
		m := puzzle.CombinationRank(maskOf(cells))
		ord := puzzle.OrderRank(maskOf(cells), cells)
		if got := b.At(ord, m, blank); got != idx {
			t.Fatalf("%s: At(%d, %d, %d) = %d, want %d", st.Pattern(), ord, m, blank, got, idx)
		}
	}
	runtime.KeepAlive(a)
}
