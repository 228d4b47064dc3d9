package puzzle

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestIndexLimits checks the index arithmetic at the size limits: on every
// platform a pattern of more than math.MaxInt entries is refused with
// ErrPattern (a 32-bit build cannot hold the table in a slice), and the
// biggest patterns below MaxEntries = 2^36 rank and unrank their first,
// last and random indexes (above 2^32 included) without overflow.
func TestIndexLimits(t *testing.T) {
	g5 := Geometry{W: 5, H: 5}
	tests := []struct {
		name  string
		g     Geometry
		tiles []uint8
		size  uint64 // N!/(N-k)!, worked out by hand
	}{
		{"5x5 7 tiles", g5, []uint8{1, 2, 3, 4, 5, 6, 7}, 25 * 24 * 23 * 22 * 21 * 20 * 19},
		{"5x5 8 tiles", g5, []uint8{1, 2, 3, 4, 5, 6, 7, 8}, 25 * 24 * 23 * 22 * 21 * 20 * 19 * 18},
		{"5x5 8 other tiles", g5, []uint8{17, 18, 19, 20, 21, 22, 23, 24}, 25 * 24 * 23 * 22 * 21 * 20 * 19 * 18},
		{"8x8 6 tiles", Geometry{W: 8, H: 8}, []uint8{1, 2, 3, 4, 5, 6}, 64 * 63 * 62 * 61 * 60 * 59},
		{"8x8 6 tiles at cell 63", Geometry{W: 8, H: 8}, []uint8{55, 56, 59, 61, 62, 63}, 64 * 63 * 62 * 61 * 60 * 59},
		{"6x6 7 tiles", Geometry{W: 6, H: 6}, []uint8{1, 2, 3, 4, 5, 6, 7}, 36 * 35 * 34 * 33 * 32 * 31 * 30},
	}
	rng := rand.New(rand.NewPCG(7, 36))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPattern(tt.g, BlankLastGoal(tt.g), tt.tiles)
			if tt.size > math.MaxInt {
				if !errors.Is(err, ErrPattern) {
					t.Fatalf("%d entries on a %d-bit build: err = %v, want ErrPattern", tt.size, strconv.IntSize, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Size() != tt.size || p.Size() > MaxEntries {
				t.Fatalf("Size = %d, want %d (<= 2^36)", p.Size(), tt.size)
			}
			idxs := []uint64{0, 1, p.Combinations() - 1, p.Combinations(), p.Size() - 1, p.Size() - 2}
			for _, b := range []uint{31, 32, 33, 35} {
				if 1<<b < p.Size() {
					idxs = append(idxs, 1<<b-1, 1<<b, 1<<b+1)
				}
			}
			for range 200 {
				idxs = append(idxs, rng.Uint64N(p.Size()))
			}
			cells := make([]uint8, p.CellsLen())
			for _, idx := range idxs {
				p.Unrank(idx, cells)
				seen := map[uint8]bool{}
				for _, c := range cells {
					if int(c) >= tt.g.N() || seen[c] {
						t.Fatalf("Unrank(%d) = %v: not %d distinct cells", idx, cells, len(cells))
					}
					seen[c] = true
				}
				if got := p.RankCells(cells); got != idx {
					t.Fatalf("RankCells(Unrank(%d)) = %d", idx, got)
				}
			}
		})
	}
	// More than MaxEntries is refused on every platform.
	if _, err := NewPattern(g5, BlankLastGoal(g5), []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9}); !errors.Is(err, ErrPattern) {
		t.Errorf("9 tiles on 5x5 (> 2^36 entries): err = %v, want ErrPattern", err)
	}
	g8 := Geometry{W: 8, H: 8}
	if _, err := NewPattern(g8, BlankLastGoal(g8), []uint8{1, 2, 3, 4, 5, 6, 7}); !errors.Is(err, ErrPattern) {
		t.Errorf("7 tiles on 8x8 (> 2^36 entries): err = %v, want ErrPattern", err)
	}
}
