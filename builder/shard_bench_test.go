package builder_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/puzzle"
)

// BenchmarkBuildSharded compares the sharded build (in memory) with
// Build on a 15-puzzle 6-tile table, 2 workers: the cost of the shard
// kernel's batches and value handling over the shared-array search.
func BenchmarkBuildSharded(b *testing.B) {
	p := mustPattern(b, 4, 4, puzzle.GoalBlankLast, []uint8{1, 5, 6, 9, 10, 13})
	for _, shards := range []int{0, 1, 4, 16} {
		name := fmt.Sprintf("shards=%d", shards)
		if shards == 0 {
			name = "Build"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var err error
				if shards == 0 {
					_, err = builder.Build(context.Background(), p, builder.Options{Workers: 2})
				} else {
					_, err = builder.BuildSharded(context.Background(), p, shards, builder.Options{Workers: 2})
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Size())*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// BenchmarkBuildOutOfCore is the folder driver on the same table, 8
// shards, 2 resident, 2 workers.
func BenchmarkBuildOutOfCore(b *testing.B) {
	p := mustPattern(b, 4, 4, puzzle.GoalBlankLast, []uint8{1, 5, 6, 9, 10, 13})
	for b.Loop() {
		dir := b.TempDir() + "/shards"
		o, err := builder.BuildOutOfCore(context.Background(), p, builder.OutOfCoreOptions{Dir: dir, Shards: 8, Resident: 2, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		src := o.Source()
		buf := make([]uint8, 1<<20)
		for lo := uint64(0); lo < p.Size(); lo += uint64(len(buf)) {
			if err := src(lo, buf[:min(uint64(len(buf)), p.Size()-lo)]); err != nil {
				b.Fatal(err)
			}
		}
		if err := o.Remove(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.Size())*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
