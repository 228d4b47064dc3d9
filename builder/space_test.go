package builder

import (
	"strings"
	"testing"
)

// TestSpaceSize: spaceSize, which the memory estimate uses, counts the
// slots and moves that newSpace builds, and newSpace allocates no more
// moves than it fills.
func TestSpaceSize(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{3, 3, "blank-last", []uint8{1, 2, 3}},
		{4, 4, "blank-last", []uint8{1, 2, 5, 6}},
		{4, 4, "blank-first", []uint8{1, 4, 5, 8, 9, 12}},
		{5, 5, "blank-last", []uint8{1, 2, 3}},
		{6, 6, "blank-last", []uint8{8, 14, 15}},
		{8, 8, "blank-last", []uint8{55, 62, 63}},
		{2, 8, "blank-first", []uint8{1, 2, 3, 4, 5, 6}},
	}
	for _, c := range cases {
		p := newTestPattern(t, c.w, c.h, c.goal, c.tiles)
		sp, err := newSpace(p)
		if err != nil {
			t.Fatal(err)
		}
		slots, moves, err := spaceSize(p)
		if err != nil {
			t.Fatal(err)
		}
		if slots != sp.slotsPerBlock || moves != uint64(len(sp.moves)) || cap(sp.moves) != len(sp.moves) {
			t.Errorf("%s: spaceSize = %d slots, %d moves; newSpace has %d slots, %d moves (cap %d)", p, slots, moves, sp.slotsPerBlock, len(sp.moves), cap(sp.moves))
		}
	}
}

// TestSpaceLimit: a pattern with 2^24 cell sets or more (6 tiles on 8x8:
// C(64,6) = 74,974,368) is refused at once by newSpace, spaceSize and
// Build, with one line naming the limit.
func TestSpaceLimit(t *testing.T) {
	p := newTestPattern(t, 8, 8, "blank-last", []uint8{1, 2, 3, 4, 5, 6})
	for name, f := range map[string]func() error{
		"newSpace":  func() error { _, err := newSpace(p); return err },
		"spaceSize": func() error { _, _, err := spaceSize(p); return err },
	} {
		err := f()
		if err == nil || !strings.Contains(err.Error(), "74974368 cell sets") || !strings.Contains(err.Error(), "2^24") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line naming 74974368 cell sets and the 2^24 limit", name, err)
		}
	}
	if got := MemoryEstimate(p); got < p.Size() {
		t.Errorf("MemoryEstimate = %d, below the table's %d bytes", got, p.Size())
	}
}
