package builder

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

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

// TestWindowMask checks that the windows of a block cover its states
// once: for every block size S up to 70, every block of the first few and
// every window width up to 40, the masks of the windows [lo, lo+width) of
// the block, run one after the other, must hold every state of the block
// exactly once and no other state.
func TestWindowMask(t *testing.T) {
	const orders = 4
	for S := uint64(1); S <= 70; S++ {
		s := &additiveSearch{
			sp:     &space{slotsPerBlock: S, cellSets: 1, orders: orders},
			codes:  newStateCodes(orders * S),
			values: make([]uint8, orders),
		}
		for order := 0; order < orders; order++ {
			first, end := uint64(order)*S, uint64(order+1)*S
			for width := uint64(1); width <= 40; width++ {
				seen := make([]int, len(s.codes)*32)
				for lo := uint64(0); lo < S; lo += width {
					b := s.block(order, 0, nil).window(lo, min(lo+width, S))
					for w := b.firstWord; w <= b.lastWord; w++ {
						mask := b.wordMask(w)
						if mask&^lowBits != 0 {
							t.Fatalf("S=%d order %d window %d+%d word %d: mask %#x has odd bits", S, order, lo, width, w, mask)
						}
						for j := uint64(0); j < 32; j++ {
							if mask>>(2*j)&1 == 1 {
								seen[w*32+j]++
							}
						}
					}
				}
				for state, n := range seen {
					want := 0
					if uint64(state) >= first && uint64(state) < end {
						want = 1
					}
					if n != want {
						t.Fatalf("S=%d order %d width %d: state %d in %d windows, want %d", S, order, width, state, n, want)
					}
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

// TestEachStateExpandedOnce runs the additive search level by level and
// checks the state codes against the four-state invariant (stateCodes):
// after each level, every state is unseen, done, or at the next level's
// frontier code, and those are exactly the states marked so far; at the
// end every state is done; after a push level the seen bits match the
// codes; with push-only levels, the push kernel has
// expanded every state exactly once (the 2-bit codes of old, which
// repeated every three levels, expanded some states again).
func TestEachStateExpandedOnce(t *testing.T) {
	rules := []struct {
		name string
		rule func(level int, frontier, unvisited uint64) bool
	}{
		{"push-only", func(int, uint64, uint64) bool { return false }},
		{"default", defaultUsePull},
		{"alternating", func(level int, _, _ uint64) bool { return level%2 == 1 }},
	}
	for _, c := range []struct {
		w, h  int
		tiles []uint8
	}{
		{3, 3, []uint8{1, 2, 3, 4}},
		{4, 4, []uint8{1, 2, 5, 6}},
		{4, 4, []uint8{2, 3, 4}},
		{5, 2, []uint8{1, 2, 6, 7}},
	} {
		p := newTestPattern(t, c.w, c.h, "blank-last", c.tiles)
		for _, r := range rules {
			t.Run(p.String()+"/"+r.name, func(t *testing.T) {
				s, err := newAdditiveSearch(p, Options{Workers: 2, usePull: r.rule, ProgressInterval: time.Hour})
				if err != nil {
					t.Fatal(err)
				}
				total := s.run.total
				for level := 0; !s.done(); level++ {
					if _, err := s.level(context.Background(), level); err != nil {
						t.Fatal(err)
					}
					var count [4]uint64
					for i := uint64(0); i < total; i++ {
						count[s.codes.load(i)]++
					}
					next := levelCode(level + 1)
					if count[3-next] != 0 {
						t.Fatalf("level %d: %d states still hold the frontier code %d", level, count[3-next], 3-next)
					}
					if count[next] != s.frontier {
						t.Fatalf("level %d: %d states hold the next code, %d were marked", level, count[next], s.frontier)
					}
					if got := count[next] + count[codeDone]; got != s.run.reached.Load() {
						t.Fatalf("level %d: %d states seen, %d reached", level, got, s.run.reached.Load())
					}
					// After a push level the seen bits are exactly the
					// states not unseen (the push kernel trusts them).
					if s.bitsMode == bitsSeen {
						for i := uint64(0); i < total; i++ {
							if bit, seen := s.stateBits[i>>6]>>(i&63)&1 == 1, s.codes.load(i) != codeUnseen; bit != seen {
								t.Fatalf("level %d: state %d: seen bit %v, code %d", level, i, bit, s.codes.load(i))
							}
						}
					}
				}
				for i := uint64(0); i < total; i++ {
					if code := s.codes.load(i); code != codeDone {
						t.Fatalf("state %d ends with code %d", i, code)
					}
				}
				if r.name == "push-only" && s.expanded.Load() != total {
					t.Errorf("push kernel expanded %d states, want each of the %d once", s.expanded.Load(), total)
				}
			})
		}
	}
}
