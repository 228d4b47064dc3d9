package solver

import (
	"context"
	"math/bits"
	"runtime"
	"sync"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// maxDirectEntries bounds the direct (positional) copy of one table:
// N^k one-byte entries. 2^28 (256 MiB) admits the 6-tile tables of the
// 24-puzzle (25^6 = 244,140,625) and the 7-tile tables of the 15-puzzle
// (16^7 = 268,435,456).
const maxDirectEntries = 1 << 28

// directIndex is a copy of an additive table indexed by the tiles' cells
// as digits base N: index Σ_i cells[i]·N^i over the k pattern tiles
// (tiles ascending). It trades memory (N^k entries instead of
// N!/(N-k)!: 1.9 times for 6 tiles of the 24-puzzle) for a rank update
// of one addition per move: a tile moving from cell a to cell b changes
// the index by (b-a)·N^i, where the compact rank (puzzle.Pattern.Rank,
// RankingCellsetOrder) must adjust a combination rank and a Lehmer code.
// This is the "sparse mapping" of Felner, Korf & Hanan (2004, "Additive
// pattern database heuristics", JAIR 22), against their "compact mapping".
// Entries whose cells are not distinct are never read and hold 0.
type directIndex struct {
	values []uint8
	pow    [puzzle.MaxCells]uint64 // pow[i] = N^i
}

// directSize returns N^k for a table of k tiles on n cells, or 0 when it
// exceeds maxDirectEntries.
func directSize(n, k int) uint64 {
	size := uint64(1)
	for i := 0; i < k; i++ {
		hi, lo := bits.Mul64(size, uint64(n))
		if hi != 0 || lo > maxDirectEntries {
			return 0
		}
		size = lo
	}
	return size
}

// newDirectIndex copies t (an additive table) into a directIndex, using
// up to GOMAXPROCS goroutines. It returns nil when N^k exceeds
// maxDirectEntries, and ctx's error when ctx ends during the copy (checked
// between blocks of C(N,k) entries: a fraction of a millisecond for the
// 24-puzzle's 6-tile tables).
func newDirectIndex(ctx context.Context, t *format.Table) (*directIndex, error) {
	p := t.Pattern
	n, k := p.Geom.N(), len(p.Tiles)
	size := directSize(n, k)
	if size == 0 || p.Exact {
		return nil, nil
	}
	d := &directIndex{values: make([]uint8, size)}
	d.pow[0] = 1
	for i := 1; i < k; i++ {
		d.pow[i] = d.pow[i-1] * uint64(n)
	}
	// The compact index is ord·C(N,k) + m (RankingCellsetOrder): order
	// ord places tile i on the perm[i]-th cell of combination m. The
	// compact table is read in order (ord outer, m inner) and the direct
	// one written at random, on huge pages (sysmem.AdviseHugePages before the
	// first write); the writes' cache misses dominate (about 1.5 s for a
	// 6-tile table of the 24-puzzle on 2 cores).
	sysmem.AdviseHugePages(d.values, true)
	kf := int(puzzle.Factorial(k))
	comb := p.Combinations()
	// sorted[m*k+j] is the j-th smallest cell of combination m.
	sorted := make([]uint8, comb*uint64(k))
	for m := uint64(0); m < comb; m++ {
		mask := puzzle.CombinationUnrank(m, n, k)
		for j := uint64(0); mask != 0; j++ {
			sorted[m*uint64(k)+j] = uint8(bits.TrailingZeros64(mask))
			mask &= mask - 1
		}
	}
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var perm [puzzle.MaxCells]uint8
			var weight [puzzle.MaxCells]uint64
			for ord := w; ord < kf && ctx.Err() == nil; ord += workers {
				// weight[j]: the place value of the j-th cell of m.
				puzzle.LehmerUnrank(uint64(ord), k, k, perm[:])
				for i := 0; i < k; i++ {
					weight[perm[i]] = d.pow[i]
				}
				src := t.Values[uint64(ord)*comb : uint64(ord+1)*comb]
				for m, v := range src {
					sc := sorted[m*k : m*k+k]
					var idx uint64
					for j := 0; j < k; j++ {
						idx += uint64(sc[j]) * weight[j]
					}
					d.values[idx] = v
				}
			}
		}(w)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return d, nil
}

// DirectIndexBytes is the memory, in bytes, that New adds for the direct
// indexes of set's tables without Options.Compact: N^k bytes for each
// distinct additive table of k tiles on N cells with N^k at most 2^28, 0
// for an exact table and for a zero-aware table of a catalogue of several
// partitions (searched through its compact index: catalogue.go) or held
// as codes (format.ReadCodesFile: compact index only). It lets
// a caller check its memory budget first.
func DirectIndexBytes(set *format.Set) uint64 {
	seen := map[*format.Table]bool{}
	cat := set.Catalogue() && len(set.Partitions) > 1
	var total uint64
	for _, p := range set.Parts {
		t := p.Table
		if t == nil || t.Pattern == nil || t.Pattern.Exact || t.Codes != nil || seen[t] || cat && t.Regions != nil {
			continue
		}
		seen[t] = true
		total += directSize(t.Pattern.Geom.N(), len(t.Pattern.Tiles))
	}
	return total
}

// DirectBytes is the memory, in bytes, of the direct indexes New built for
// s: DirectIndexBytes of its set when all of them were, less when
// Options.Compact or Options.MaxDirectBytes left tables out.
func (s *Solver) DirectBytes() uint64 { return s.directBytes }
