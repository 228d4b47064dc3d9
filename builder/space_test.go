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

// TestSlotParity: every move of a space leads to a slot of the other
// parity (which the pull kernel's parity filter relies on), and
// slotParities agrees with slotOdd bit by bit for every alignment,
// including windows that start before slot 0 or run past the last slot.
func TestSlotParity(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{3, 3, "blank-last", []uint8{1, 2, 3}},
		{4, 4, "blank-first", []uint8{1, 4, 5, 8}},
		{5, 5, "blank-last", []uint8{1, 2, 3}},
		{2, 8, "blank-first", []uint8{1, 2, 3, 4}},
		{8, 2, "blank-last", []uint8{1, 9, 10}},
	}
	for _, c := range cases {
		p := newTestPattern(t, c.w, c.h, c.goal, c.tiles)
		sp, err := newSpace(p)
		if err != nil {
			t.Fatal(err)
		}
		odd := 0
		for s := uint64(0); s < sp.slotsPerBlock; s++ {
			if sp.slotOdd(s) {
				odd++
			}
			for _, mv := range sp.moves[sp.moveStart[s]:sp.moveStart[s+1]] {
				if sp.slotOdd(mv.slot()) == sp.slotOdd(s) {
					t.Fatalf("%s: move from slot %d to slot %d keeps the parity", p, s, mv.slot())
				}
			}
		}
		if odd == 0 || uint64(odd) == sp.slotsPerBlock {
			t.Errorf("%s: %d of %d slots odd, want both parities", p, odd, sp.slotsPerBlock)
		}
		for from := int64(-40); from < int64(sp.slotsPerBlock)+40; from++ {
			got := sp.slotParities(from)
			for j := int64(0); j < 32; j++ {
				s := from + j
				want := s >= 0 && s < int64(sp.slotsPerBlock) && sp.slotOdd(uint64(s))
				if (got>>(2*j)&1 != 0) != want || got>>(2*j+1)&1 != 0 {
					t.Fatalf("%s: slotParities(%d) = %#x: bit for slot %d wrong (want odd=%v)", p, from, got, s, want)
				}
			}
		}
	}
}

// TestPackEvenBits: packEvenBits gathers bits 0, 2, ..., 62 into bits
// 0..31, checked against a bit-by-bit loop on single bits, all ones and
// a few mixed words.
func TestPackEvenBits(t *testing.T) {
	xs := []uint64{0, lowBits, 0x1, 1 << 62, 0x4000000000000001, 0x1111111111111111, 0x0505050505050505, 0x5500550055005500}
	for j := 0; j < 32; j++ {
		xs = append(xs, 1<<(2*j))
	}
	for _, x := range xs {
		var want uint64
		for j := 0; j < 32; j++ {
			want |= x >> (2 * j) & 1 << j
		}
		if got := packEvenBits(x); got != want {
			t.Errorf("packEvenBits(%#x) = %#x, want %#x", x, got, want)
		}
	}
}
