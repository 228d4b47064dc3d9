package builder_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

// TestBuildZeroAware checks BuildZeroAware two ways on small patterns:
// entry by entry against verify.ReferenceZeroAware (a 0-1 BFS over real
// blank cells, minimised over each region, with its own region labelling
// and slot numbering), and, reduced to the minimum over each placement's
// regions (puzzle.Regions.Minimum), against Build's plain table. Patterns
// include ones whose cell sets cut a corner off (more regions than cell
// sets), and both kernels are forced in turn.
func TestBuildZeroAware(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{2, 2, "blank-last", []uint8{1}},
		{3, 2, "blank-first", []uint8{1, 2, 3}},
		{2, 3, "blank-last", []uint8{1, 3}},
		{3, 3, "blank-last", []uint8{1, 2}},
		{3, 3, "blank-last", []uint8{1, 2, 3}},
		{3, 3, "blank-last", []uint8{5, 6, 7, 8}},
		{3, 3, "blank-first", []uint8{1, 3, 5, 7}},
		{3, 3, "8 7 6 5 4 3 2 1 0", []uint8{1, 5, 8}},
		{4, 4, "blank-last", []uint8{2, 3, 4}},
		{4, 4, "blank-first", []uint8{1, 2, 3}},
		{4, 4, "blank-last", []uint8{11, 12, 15}},
		{4, 4, "blank-first", []uint8{1, 2, 5, 6}},
		{4, 4, "blank-last", []uint8{1, 2, 3, 4, 7}},
		{5, 2, "blank-last", []uint8{1, 2, 6, 7}},
	}
	if testing.Short() {
		cases = cases[:9]
	}
	rules := map[string]func(int, uint64, uint64) bool{
		"push":    func(int, uint64, uint64) bool { return false },
		"pull":    func(int, uint64, uint64) bool { return true },
		"default": builder.DefaultUsePull,
	}
	split := 0 // patterns with more states than placements
	for _, c := range cases {
		p := mustPattern(t, c.w, c.h, c.goal, c.tiles)
		want, err := verify.ReferenceZeroAware(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: reference: %v", p, err)
		}
		plain, err := builder.Build(context.Background(), p, builder.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		r, err := puzzle.NewRegions(p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Size() > p.Size() {
			split++
		}
		for name, rule := range rules {
			for _, workers := range []int{1, 3} {
				t.Run(fmt.Sprintf("%s/%s/j=%d", p, name, workers), func(t *testing.T) {
					got, err := builder.BuildZeroAware(context.Background(), p, builder.WithUsePull(builder.Options{Workers: workers}, rule))
					if err != nil {
						t.Fatal(err)
					}
					if uint64(len(got)) != r.Size() {
						t.Fatalf("%d entries, puzzle.Regions says %d", len(got), r.Size())
					}
					compareTables(t, got, want)
					compareTables(t, r.Minimum(got), plain)
				})
			}
		}
	}
	if split == 0 {
		t.Error("no pattern has a cell set with two regions")
	}
}

// TestBuildZeroAwareExact: an exact pattern has no zero-aware table.
func TestBuildZeroAwareExact(t *testing.T) {
	p := mustPattern(t, 2, 2, "blank-last", []uint8{1, 2, 3})
	if _, err := builder.BuildZeroAware(context.Background(), p, builder.Options{}); err == nil {
		t.Fatal("no error for an exact pattern")
	}
}
