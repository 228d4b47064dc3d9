package verify

import (
	"context"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

// BenchmarkReference15Puzzle6 builds a 6-tile 15-puzzle PDB (5,765,760
// entries) with Reference.
func BenchmarkReference15Puzzle6(b *testing.B) {
	p := pdbtest.Pattern(b, 4, 4, "blank-last", 1, 2, 3, 4, 5, 6)
	for b.Loop() {
		if _, err := Reference(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReferenceEightPuzzle builds the exact 3x3 table with Reference.
func BenchmarkReferenceEightPuzzle(b *testing.B) {
	p := pdbtest.Pattern(b, 3, 3, "blank-last")
	for b.Loop() {
		if _, err := Reference(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}
