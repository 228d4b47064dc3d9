package builder

import (
	"context"
	"fmt"

	"github.com/tilepdb/tilepdb/puzzle"
)

// buildExact is a level-synchronous BFS over all solvable states, indexed by
// the lehmer-half rank. Each level scans the table for entries at that
// level, unranks them and sets their unvisited neighbours.
func buildExact(ctx context.Context, p *puzzle.Pattern, opt Options) ([]uint8, error) {
	size := p.Size()
	n := p.Geom.N()
	nbr := p.Geom.Neighbors()
	v := newAtomicBytes(size)
	v.visit(p.RankCells(p.GoalPositions()), 0)
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
			var pos, board [puzzle.MaxCells]uint8
			var added uint64
			for i := lo; i < hi; i++ {
				if v.load(i) != cur {
					continue
				}
				p.Unrank(i, pos[:n])
				for t := 0; t < n; t++ {
					board[pos[t]] = uint8(t)
				}
				b := pos[0]
				for _, c := range nbr[b] {
					t := board[c]
					pos[0], pos[t] = c, b
					if v.visit(p.RankCells(pos[:n]), cur+1) {
						added++
					}
					pos[0], pos[t] = b, c
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
		out[i] = v.load(uint64(i))
	}
	return out, nil
}
