package verify

import (
	"context"
	"fmt"

	"github.com/tilepdb/tilepdb/puzzle"
)

// ReferenceZeroAware computes the zero-aware table of the additive pattern
// p (puzzle.RankingCellsetOrderRegion) the slow, simple way, as an oracle
// for the builder: the 0-1 breadth-first search of Reference over
// (placement, blank cell), then, for every placement and every region of
// free cells (labelled here by its own flood fill, numbered by smallest
// cell, slots counted cell set by cell set in colexicographic order), the
// minimum over the region's cells. It needs p.Size()·N bytes: small
// boards only. It fails for an exact pattern, when ctx ends, or when a
// state is never reached.
func ReferenceZeroAware(ctx context.Context, p *puzzle.Pattern) ([]uint8, error) {
	if p.Exact {
		return nil, fmt.Errorf("verify: reference: %s is exact, not additive", p)
	}
	n := p.Geom.N()
	k := p.K()
	dist, err := referenceBlankCells(ctx, p)
	if err != nil {
		return nil, err
	}
	comb := p.Combinations()
	// Regions of every cell set, by flood fill from each unlabelled free
	// cell in ascending order.
	label := make([][]int, comb) // label[m][c]: region of free cell c, -1 if occupied
	start := make([]uint64, comb+1)
	cells := make([]uint8, k)
	for m := uint64(0); m < comb; m++ {
		p.Unrank(m, cells) // order 0: the cells of the set, ascending
		lab := make([]int, n)
		for c := range lab {
			lab[c] = -2
		}
		for _, c := range cells {
			lab[c] = -1
		}
		regions := 0
		for c := 0; c < n; c++ {
			if lab[c] != -2 {
				continue
			}
			todo := []int{c}
			lab[c] = regions
			for len(todo) > 0 {
				x := todo[0]
				todo = todo[1:]
				for _, d := range puzzle.Directions {
					if y, ok := p.Geom.Step(x, d); ok && lab[y] == -2 {
						lab[y] = regions
						todo = append(todo, y)
					}
				}
			}
			regions++
		}
		label[m] = lab
		start[m+1] = start[m] + uint64(regions)
	}
	slots := start[comb]
	orders := p.Size() / comb
	out := make([]uint8, orders*slots)
	for i := range out {
		out[i] = puzzle.Unreached
	}
	for rank := uint64(0); rank < p.Size(); rank++ {
		ord, m := rank/comb, rank%comb
		for c, r := range label[m] {
			if r < 0 {
				continue
			}
			i := ord*slots + start[m] + uint64(r)
			out[i] = min(out[i], dist[rank*uint64(n)+uint64(c)])
		}
	}
	for i, v := range out {
		if v == puzzle.Unreached {
			return nil, fmt.Errorf("verify: reference: zero-aware state %d of %d never reached", i, len(out))
		}
	}
	return out, nil
}
