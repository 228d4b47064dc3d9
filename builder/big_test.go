package builder_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/verify"
)

// TestBuildBigBoards compares the builder entry by entry with
// verify.Reference (a plain 0-1 BFS over (placement, blank cell)) on
// boards of 6x6 to 8x8 and the long 2x8 and 8x2, where cell sets need
// more than 32 bits, with small patterns so that the test stays quick
// (2 or 3 tiles; the 3-tile pattern on 6x6 takes most of its time):
// corner and edge tiles, tiles next to cell 63, both goal conventions.
func TestBuildBigBoards(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{6, 6, "blank-last", []uint8{1, 2, 3}},
		{6, 6, "blank-first", []uint8{34, 35}},
		{7, 7, "blank-last", []uint8{1, 2}},
		{7, 7, "blank-first", []uint8{47, 48}},
		{8, 8, "blank-last", []uint8{1, 9}},
		{8, 8, "blank-last", []uint8{62, 63}},
		{8, 8, "blank-first", []uint8{63, 7}},
		{2, 8, "blank-last", []uint8{1, 2, 3}},
		{8, 2, "blank-first", []uint8{1, 9, 10}},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		p := mustPattern(t, c.w, c.h, c.goal, c.tiles)
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			want, err := verify.Reference(context.Background(), p)
			if err != nil {
				t.Fatalf("reference: %v", err)
			}
			got, err := builder.Build(context.Background(), p, builder.Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			compareTables(t, got, want)
		})
	}
}
