package builder

import (
	"math/rand/v2"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// newTestPattern is mustPattern of the external tests, for the internal
// tests and benchmarks of this file and kernel_bench_test.go.
func newTestPattern(tb testing.TB, w, h int, goal string, tiles []uint8) *puzzle.Pattern {
	tb.Helper()
	g, err := puzzle.NewGeometry(w, h)
	if err != nil {
		tb.Fatal(err)
	}
	gb, err := puzzle.ParseGoal(goal, g)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := puzzle.NewPattern(g, gb, tiles)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestWordMask checks the word-boundary filter exhaustively for every
// block size S up to 70 and every block of the first few: the masks of a
// block's words must cover exactly its states [order·S, (order+1)·S).
func TestWordMask(t *testing.T) {
	const orders = 6
	for S := uint64(1); S <= 70; S++ {
		s := &additiveSearch{
			sp:     &space{slotsPerBlock: S, cellSets: 1, orders: orders},
			codes:  newStateCodes(orders * S),
			values: make([]uint8, orders),
		}
		for order := 0; order < orders; order++ {
			b := s.block(order, 0, nil)
			first, end := uint64(order)*S, uint64(order+1)*S
			for w := uint64(0); w < uint64(len(s.codes)); w++ {
				var mask uint64
				if w >= b.firstWord && w <= b.lastWord {
					mask = b.wordMask(w)
				}
				for j := uint64(0); j < 32; j++ {
					state := w*32 + j
					in := mask>>(2*j)&1 == 1
					if in != (state >= first && state < end) {
						t.Fatalf("S=%d order %d: state %d in mask %v", S, order, state, in)
					}
				}
				if mask&^lowBits != 0 {
					t.Fatalf("S=%d order %d word %d: mask %#x has odd bits", S, order, w, mask)
				}
			}
		}
	}
}

// TestMatchCodes compares matchCodes with a state-by-state loop on random
// words.
func TestMatchCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		x := rng.Uint64()
		for code := uint64(0); code < 4; code++ {
			var want uint64
			for j := 0; j < 32; j++ {
				if x>>(2*j)&3 == code {
					want |= 1 << (2 * j)
				}
			}
			if got := matchCodes(x, code); got != want {
				t.Fatalf("matchCodes(%#x, %d) = %#x, want %#x", x, code, got, want)
			}
		}
	}
}
