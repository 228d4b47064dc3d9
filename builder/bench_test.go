package builder_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// mustPattern is pdbtest.Pattern with the tiles as a slice.
func mustPattern(tb testing.TB, w, h int, goal string, tiles []uint8) *puzzle.Pattern {
	tb.Helper()
	return pdbtest.Pattern(tb, w, h, goal, tiles...)
}

// BenchmarkBuild builds representative tables of the default set with 1
// and 2 workers; compare the two with benchstat or by ratio within a run.
func BenchmarkBuild(b *testing.B) {
	cases := []struct {
		name  string
		w, h  int
		tiles []uint8
	}{
		{"8puzzle", 3, 3, []uint8{1, 2, 3, 4, 5, 6, 7, 8}},
		{"15-5tile-1.2.3.4.7", 4, 4, []uint8{1, 2, 3, 4, 7}},
		{"15-6tile-1.5.6.9.10.13", 4, 4, []uint8{1, 5, 6, 9, 10, 13}},
	}
	for _, c := range cases {
		p := mustPattern(b, c.w, c.h, puzzle.GoalBlankLast, c.tiles)
		for _, j := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/j=%d", c.name, j), func(b *testing.B) {
				for b.Loop() {
					if _, err := builder.Build(context.Background(), p, builder.Options{Workers: j}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(p.Size())*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
			})
		}
	}
}
