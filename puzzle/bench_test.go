package puzzle_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// rankBenchPatterns are the patterns of the rank/unrank micro-benchmarks:
// both schemes, on the boards the shipped presets use.
var rankBenchPatterns = []struct {
	name  string
	w, h  int
	tiles []uint8 // nil: exact (lehmer-half)
}{
	{"lehmer-half/3x3", 3, 3, nil},
	{"lehmer-half/4x3", 4, 3, nil},
	{"cellset-order/4x4-k3", 4, 4, []uint8{2, 3, 4}},
	{"cellset-order/4x4-k6", 4, 4, []uint8{1, 5, 6, 9, 10, 13}},
	{"cellset-order/5x5-k6", 5, 5, []uint8{1, 2, 6, 7, 11, 12}},
}

// benchStates returns 1024 random solvable position vectors for p.
func benchStates(p *puzzle.Pattern) [][]uint8 {
	rng := rand.New(rand.NewPCG(1, 1))
	out := make([][]uint8, 1024)
	for i := range out {
		out[i] = pdbtest.RandomSolvable(rng, p.Geom, p.Goal).Positions()
	}
	return out
}

// BenchmarkRank measures Pattern.Rank of a full position vector, per rank.
func BenchmarkRank(b *testing.B) {
	for _, c := range rankBenchPatterns {
		b.Run(c.name, func(b *testing.B) {
			p := pdbtest.Pattern(b, c.w, c.h, "blank-last", c.tiles...)
			states := benchStates(p)
			var sink uint64
			i := 0
			for b.Loop() {
				sink += p.Rank(states[i&1023])
				i++
			}
			if sink == 1 {
				b.Log(sink) // keep sink alive
			}
		})
	}
}

// BenchmarkUnrank measures Pattern.Unrank, per index.
func BenchmarkUnrank(b *testing.B) {
	for _, c := range rankBenchPatterns {
		b.Run(c.name, func(b *testing.B) {
			p := pdbtest.Pattern(b, c.w, c.h, "blank-last", c.tiles...)
			idx := make([]uint64, 1024)
			for i, pos := range benchStates(p) {
				idx[i] = p.Rank(pos)
			}
			cells := make([]uint8, p.CellsLen())
			i := 0
			for b.Loop() {
				p.Unrank(idx[i&1023], cells)
				i++
			}
		})
	}
}

// BenchmarkCombinationRank measures the two halves of the cellset-order
// rank on their own (what the solver's incremental update calls).
func BenchmarkCombinationRank(b *testing.B) {
	p := pdbtest.Pattern(b, 4, 4, "blank-last", 1, 5, 6, 9, 10, 13)
	states := benchStates(p)
	cells := make([][]uint8, len(states))
	masks := make([]uint64, len(states))
	for i, pos := range states {
		for _, t := range p.Tiles {
			cells[i] = append(cells[i], pos[t])
			masks[i] |= 1 << pos[t]
		}
	}
	b.Run("combination", func(b *testing.B) {
		var sink uint64
		i := 0
		for b.Loop() {
			sink += puzzle.CombinationRank(masks[i&1023])
			i++
		}
		if sink == 1 {
			b.Log(sink)
		}
	})
	b.Run("order", func(b *testing.B) {
		var sink uint64
		i := 0
		for b.Loop() {
			j := i & 1023
			sink += puzzle.OrderRank(masks[j], cells[j])
			i++
		}
		if sink == 1 {
			b.Log(sink)
		}
	})
}
