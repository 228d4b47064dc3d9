package puzzle

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestRegions: the slot counts of known patterns (the 4x4 example of
// builder/additive.go's index anatomy: S = 632, 3792 states; the 3x3
// example of format/SPEC.md section 11: S = 124), labels numbered by
// smallest cell, and Index inverted by Placement over every placement
// and region of a pattern.
func TestRegions(t *testing.T) {
	for _, c := range []struct {
		w, h  int
		tiles []uint8
		slots uint64
	}{
		{4, 4, []uint8{1, 2, 3}, 632},
		{3, 3, []uint8{1, 2, 3}, 124},
		{2, 3, []uint8{1}, 6},
	} {
		g, _ := NewGeometry(c.w, c.h)
		p, err := NewPattern(g, BlankLastGoal(g), c.tiles)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewRegions(p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Slots() != c.slots || r.Size() != Factorial(len(c.tiles))*c.slots {
			t.Errorf("%s: S = %d, size %d; want S = %d", p, r.Slots(), r.Size(), c.slots)
		}
		n := g.N()
		cells := make([]uint8, p.K())
		pos := make([]uint8, n)
		seen := make([]bool, r.Size())
		for rank := uint64(0); rank < p.Size(); rank++ {
			p.Unrank(rank, cells)
			for i, tile := range p.Tiles {
				pos[tile] = cells[i]
			}
			m := rank % p.Combinations()
			labels := r.RegionsOf(m)
			// Numbered by smallest cell: the first cell of each label
			// comes in increasing label order.
			next := uint8(0)
			for _, l := range labels {
				if l == OccupiedRegion {
					continue
				}
				if l > next {
					t.Fatalf("%s: cell set %d labels %v not numbered by smallest cell", p, m, labels)
				}
				if l == next {
					next++
				}
			}
			if int(next) != r.Count(m) {
				t.Fatalf("%s: cell set %d: %d labels, Count %d", p, m, next, r.Count(m))
			}
			for c := 0; c < n; c++ {
				if labels[c] == OccupiedRegion {
					continue
				}
				pos[0] = uint8(c)
				idx := r.Index(pos)
				gotRank, region := r.Placement(idx)
				if gotRank != rank || region != int(labels[c]) {
					t.Fatalf("%s: placement %d blank %d: index %d splits into %d, %d", p, rank, c, idx, gotRank, region)
				}
				seen[idx] = true
			}
		}
		if i := slices.Index(seen, false); i >= 0 {
			t.Errorf("%s: index %d is no state's", p, i)
		}
	}
	g, _ := NewGeometry(3, 3)
	exact, _ := NewPattern(g, BlankLastGoal(g), []uint8{1, 2, 3, 4, 5, 6, 7, 8})
	if _, err := NewRegions(exact); err == nil {
		t.Error("NewRegions accepted an exact pattern")
	}
}

// TestNewRegionsTooManyCellSets checks that a pattern of 2^24 cell sets or
// more is refused before its region maps are allocated (6 tiles of 8x8
// would take 5.1 GB), and that the largest pattern below the limit on the
// 7x7 board is not refused by the check itself.
func TestNewRegionsTooManyCellSets(t *testing.T) {
	g, err := NewGeometry(8, 8)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPattern(g, BlankLastGoal(g), []uint8{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := NewRegions(p)
	runtime.ReadMemStats(&after)
	if err == nil || r != nil {
		t.Fatalf("NewRegions(%s) = %v, %v; want an error", p, r, err)
	}
	if !errors.Is(err, ErrPattern) || !strings.Contains(err.Error(), "74974368 cell sets") {
		t.Errorf("error %q: want ErrPattern naming the 74974368 cell sets", err)
	}
	if b := after.TotalAlloc - before.TotalAlloc; b > 1<<20 {
		t.Errorf("%d bytes allocated before the refusal", b)
	}
}

// TestRegionsShared: Regions of one board and number of tiles share their
// maps while they live (the maps depend on nothing else), each keeps its
// own pattern, and another board or tile count gets its own maps, equal
// to a fresh labelling.
func TestRegionsShared(t *testing.T) {
	g, _ := NewGeometry(4, 4)
	g43, _ := NewGeometry(4, 3)
	mk := func(g Geometry, goal Board, tiles ...uint8) *Regions {
		t.Helper()
		p, err := NewPattern(g, goal, tiles)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewRegions(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a := mk(g, BlankLastGoal(g), 1, 2, 3)
	b := mk(g, BlankFirstGoal(g), 9, 14, 15)
	c := mk(g, BlankLastGoal(g), 1, 2, 3, 4)
	d := mk(g43, BlankLastGoal(g43), 1, 2, 3)
	if &a.regionOf[0] != &b.regionOf[0] || &a.slotStart[0] != &b.slotStart[0] {
		t.Errorf("%s and %s: maps not shared", a.Pattern(), b.Pattern())
	}
	if b.Pattern().String() == a.Pattern().String() {
		t.Errorf("shared Regions lost their own pattern: %s", b.Pattern())
	}
	for _, o := range []*Regions{c, d} {
		if &a.regionOf[0] == &o.regionOf[0] {
			t.Errorf("%s and %s: maps shared across shapes", a.Pattern(), o.Pattern())
		}
		fresh, err := labelAll(o.Pattern())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fresh.slotStart, o.slotStart) || !slices.Equal(fresh.regionOf, o.regionOf) {
			t.Errorf("%s: maps differ from a fresh labelling", o.Pattern())
		}
	}
	runtime.KeepAlive(a)
}
