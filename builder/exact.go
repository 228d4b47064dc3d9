package builder

import (
	"context"
	"fmt"

	"github.com/tilepdb/tilepdb/puzzle"
)

// buildExact is a level-synchronous BFS over all N!/2 solvable states,
// indexed by the lehmer-half rank (puzzle.RankingLehmerHalf). The table is
// its own state array: one byte per state, puzzle.Unreached until reached. Each
// level scans the table in chunks for the states at that level, unranks
// them, and sets their unvisited neighbours (the blank swaps with an
// adjacent tile) to level+1. Writers of a level all write the same value,
// so the table does not depend on the worker count.
func buildExact(ctx context.Context, p *puzzle.Pattern, opt Options) ([]uint8, error) {
	size := p.Size()
	n := p.Geom.N()
	neighbors := p.Geom.Neighbors()
	dist := newAtomicBytes(size)
	dist.visit(p.RankCells(p.GoalPositions()), 0)
	run := &levelRunner{opt: opt, total: size}
	run.reached.Store(1)

	const perChunk = 1 << 14
	nChunks := int((size + perChunk - 1) / perChunk)
	for level := 0; ; level++ {
		if level >= MaxLevel {
			return nil, fmt.Errorf("builder: %s: distances exceed %d", p, MaxLevel)
		}
		cur := uint8(level)
		added, err := run.run(ctx, level, nChunks, func(chunk int) uint64 {
			lo := uint64(chunk) * perChunk
			hi := min(lo+perChunk, size)
			// pos[t] is the cell of tile t (0 = blank), tileAt its inverse.
			var pos, tileAt [puzzle.MaxCells]uint8
			var added uint64
			for state := lo; state < hi; state++ {
				if dist.load(state) != cur {
					continue
				}
				p.Unrank(state, pos[:n])
				for t := 0; t < n; t++ {
					tileAt[pos[t]] = uint8(t)
				}
				blank := pos[0]
				for _, cell := range neighbors[blank] {
					t := tileAt[cell] // slides into the blank
					pos[0], pos[t] = cell, blank
					if dist.visit(p.RankCells(pos[:n]), cur+1) {
						added++
					}
					pos[0], pos[t] = blank, cell
				}
			}
			return added
		})
		if err != nil {
			return nil, err
		}
		if added == 0 {
			break
		}
	}
	if got := run.reached.Load(); got != size {
		return nil, fmt.Errorf("builder: %s: %d of %d states unreached", p, size-got, size)
	}
	out := make([]uint8, size)
	for i := range out {
		out[i] = dist.load(uint64(i))
	}
	return out, nil
}
