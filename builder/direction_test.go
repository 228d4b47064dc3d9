package builder

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

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

// directionLog records the kernel of every level a build runs; usePull is
// called by the coordinating goroutine only, but tests run in parallel
// subtests, so it locks anyway.
type directionLog struct {
	mu    sync.Mutex
	pulls []bool // by level
}

func (d *directionLog) wrap(rule func(int, uint64, uint64) bool) func(int, uint64, uint64) bool {
	return func(level int, frontier, unvisited uint64) bool {
		pull := rule(level, frontier, unvisited)
		d.mu.Lock()
		defer d.mu.Unlock()
		if level != len(d.pulls) {
			panic(fmt.Sprintf("direction asked for level %d after %d levels", level, len(d.pulls)))
		}
		d.pulls = append(d.pulls, pull)
		return pull
	}
}

func (d *directionLog) count() (push, pull int) {
	for _, p := range d.pulls {
		if p {
			pull++
		} else {
			push++
		}
	}
	return push, pull
}

// TestDirectionsMatchReference forces every level of the additive search
// to the push kernel, then to the pull kernel, and also runs the default
// rule; each table must equal verify.Reference (a 0-1 BFS over
// (placement, blank cell) that shares no code with this package) for 1, 2
// and 3 workers. The default rule must use both kernels on some pattern,
// so that the mixed case is tested too.
func TestDirectionsMatchReference(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{2, 2, "blank-last", []uint8{1}},
		{3, 3, "blank-last", []uint8{1, 2, 3, 4}},
		{2, 4, "blank-first", []uint8{2, 4, 6}},
		{3, 2, "blank-last", []uint8{1, 2, 3}},
		{5, 2, "blank-last", []uint8{1, 2, 6, 7}},
		{3, 4, "blank-last", []uint8{1, 4, 7, 10}},
		{3, 3, "8 7 6 5 4 3 2 1 0", []uint8{1, 5, 8}},
		{4, 4, "blank-last", []uint8{11, 12, 15}},
		{4, 4, "blank-first", []uint8{1, 2, 5, 6}},
		{4, 4, "blank-last", []uint8{1, 2, 3, 4, 7}},
		{5, 3, "blank-last", []uint8{1, 2, 3, 6, 7}},
	}
	if testing.Short() {
		cases = cases[:6]
	}
	rules := []struct {
		name string
		rule func(int, uint64, uint64) bool
	}{
		{"push-only", func(int, uint64, uint64) bool { return false }},
		{"pull-only", func(int, uint64, uint64) bool { return true }},
		{"default", defaultUsePull},
	}
	var mu sync.Mutex
	mixed := 0 // default builds that used both kernels
	for _, c := range cases {
		p := newTestPattern(t, c.w, c.h, c.goal, c.tiles)
		want, err := verify.Reference(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: reference: %v", p, err)
		}
		for _, r := range rules {
			for _, workers := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("%s/%s/j=%d", p, r.name, workers), func(t *testing.T) {
					var log directionLog
					got, err := Build(context.Background(), p, Options{Workers: workers, usePull: log.wrap(r.rule)})
					if err != nil {
						t.Fatal(err)
					}
					compareTables(t, got, want)
					push, pull := log.count()
					switch r.name {
					case "push-only":
						if pull != 0 || push == 0 {
							t.Errorf("%d push and %d pull levels, want push only", push, pull)
						}
					case "pull-only":
						if push != 0 || pull == 0 {
							t.Errorf("%d push and %d pull levels, want pull only", push, pull)
						}
					default:
						if push > 0 && pull > 0 {
							mu.Lock()
							mixed++
							mu.Unlock()
						}
					}
				})
			}
		}
	}
	if mixed == 0 {
		t.Error("the default rule never mixed push and pull levels: the mixed case is untested")
	}
}

func compareTables(t *testing.T, got, want []uint8) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("len %d, want %d", len(got), len(want))
	}
	diff := 0
	for i := range got {
		if got[i] != want[i] {
			if diff < 5 {
				t.Errorf("entry %d: got %d, reference %d", i, got[i], want[i])
			}
			diff++
		}
	}
	if diff > 0 {
		t.Fatalf("%d of %d entries differ", diff, len(got))
	}
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
