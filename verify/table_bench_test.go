package verify

import (
	"context"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

// benchTable runs Table on the reference table of the pattern (the
// passes over the entries, without Deep) on one worker.
func benchTable(b *testing.B, w, h int, tiles ...uint8) {
	p := pdbtest.Pattern(b, w, h, "blank-last", tiles...)
	vals, err := Reference(context.Background(), p)
	if err != nil {
		b.Fatal(err)
	}
	t, err := format.NewTable(p, vals, "bench")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r, err := Table(context.Background(), t, Options{Workers: 1})
		if err != nil || !r.OK() {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkTableExact8 verifies the exact 3x3 table (181,440 entries).
func BenchmarkTableExact8(b *testing.B) { benchTable(b, 3, 3) }

// BenchmarkTableAdditive15x5 verifies a 5-tile 15-puzzle table (524,160
// entries).
func BenchmarkTableAdditive15x5(b *testing.B) { benchTable(b, 4, 4, 1, 2, 3, 4, 5) }
