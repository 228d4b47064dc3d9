package builder

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// BenchmarkNewSpace measures the region-map setup (labelling the regions of
// every cell set and packing the moves of every slot) for a 7-tile
// 15-puzzle pattern and a 6-tile 24-puzzle pattern.
func BenchmarkNewSpace(b *testing.B) {
	for _, c := range []struct {
		w, h  int
		tiles []uint8
	}{
		{4, 4, []uint8{1, 2, 3, 4, 5, 6, 7}},
		{5, 5, []uint8{1, 2, 5, 6, 7, 12}},
	} {
		p := newTestPattern(b, c.w, c.h, "blank-last", c.tiles)
		b.Run(p.String(), func(b *testing.B) {
			var sp *space
			for b.Loop() {
				var err error
				if sp, err = newSpace(p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sp.slotsPerBlock), "slots")
		})
	}
}

// BenchmarkLevel measures one BFS level of the 6-tile 15-puzzle pattern
// 1,5,6,9,10,13 (blank-last) with one worker: the push kernel at level 15
// (where the default rule pushes), the pull kernel at level 20 (where it
// pulls), and both at level 19, the first level the default rule pulls.
// The search state before the level is restored before every iteration,
// outside the timer.
func BenchmarkLevel(b *testing.B) {
	p := newTestPattern(b, 4, 4, "blank-last", []uint8{1, 5, 6, 9, 10, 13})
	for _, c := range []struct {
		level int
		pull  bool
	}{
		{15, false},
		{19, false},
		{19, true},
		{20, true},
	} {
		kernel := "push"
		if c.pull {
			kernel = "pull"
		}
		b.Run(fmt.Sprintf("%s/level=%d", kernel, c.level), func(b *testing.B) {
			s, err := newAdditiveSearch(p, Options{Workers: 1})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for level := 0; level < c.level; level++ {
				if _, err := s.level(ctx, level); err != nil {
					b.Fatal(err)
				}
			}
			snap := snapshot(s)
			s.usePull = func(int, uint64, uint64) bool { return c.pull }
			var added uint64
			for b.Loop() {
				b.StopTimer()
				snap.restore(s)
				b.StartTimer()
				if added, err = s.level(ctx, c.level); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.run.total), "states")
			b.ReportMetric(float64(added), "marked")
		})
	}
}

// searchSnapshot is a copy of the mutable state of an additiveSearch
// between levels.
type searchSnapshot struct {
	codes          stateCodes
	stateBits      []uint64 // without them a push level finds every successor seen and marks nothing
	bitsMode       int
	values         []uint8
	active, next   bitset
	reached, front uint64
}

func snapshot(s *additiveSearch) searchSnapshot {
	return searchSnapshot{
		codes:     slices.Clone(s.codes),
		stateBits: slices.Clone(s.stateBits),
		bitsMode:  s.bitsMode,
		values:    slices.Clone(s.values),
		active:    slices.Clone(s.active),
		next:      slices.Clone(s.next),
		reached:   s.run.reached.Load(),
		front:     s.frontier,
	}
}

func (snap searchSnapshot) restore(s *additiveSearch) {
	copy(s.codes, snap.codes)
	copy(s.stateBits, snap.stateBits)
	s.bitsMode = snap.bitsMode
	copy(s.values, snap.values)
	copy(s.active, snap.active)
	copy(s.next, snap.next)
	s.run.reached.Store(snap.reached)
	s.frontier = snap.front
}
