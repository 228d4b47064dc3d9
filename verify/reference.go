package verify

import (
	"context"
	"fmt"
	"math"

	"github.com/tilepdb/tilepdb/puzzle"
)

// cancelEvery is how many states Reference expands between checks of its
// context.
const cancelEvery = 1 << 16

// Reference builds the table of p a second time, by the most direct method
// available and without sharing any code with the fast builder beyond the
// ranking functions of package puzzle (which CheckRanking verifies
// separately). It exists to be obviously correct, not fast.
//
// Exact pattern (all tiles): a plain breadth-first search from the goal
// with a FIFO queue. A state is its position vector; its index is
// p.Rank(pos); unreached marks a state not yet seen. The result is the
// true distance of every solvable state.
//
// Additive pattern: a 0-1 breadth-first search over abstract states
// (placement of the pattern tiles, blank cell), state = rank*N + blank,
// with one uint8 distance per state (p.Size()*N bytes). The blank moves to
// a neighbouring cell; when that cell holds a pattern tile the tile moves
// and the move costs 1, otherwise it swaps with an indistinguishable
// non-pattern tile and costs 0. The search starts from the goal placement
// with the blank on its goal cell (distance 0). The deque of the textbook
// 0-1 BFS is kept as two FIFO queues, one for the level being expanded
// (0-cost moves append to it) and one for the next level (1-cost moves), so
// states leave in order of distance; a state queued with a distance it has
// since improved on is skipped when popped. The value of a placement is
// the minimum over its blank cells.
//
// Reference returns an error when ctx is cancelled, when a distance would
// exceed 254 (255 is reserved), or when some entry is never reached. The
// last means a broken ranking, with one exception: an additive pattern of
// N-2 tiles, where the single non-pattern tile and the blank can trade
// cells only by moves, so that the placements whose two free cells are at
// odd distance are reachable either with both or with neither assignment
// of blank and tile, and some are unreachable. Such a table cannot be
// complete (puzzle.NewPattern refuses these patterns).
func Reference(ctx context.Context, p *puzzle.Pattern) ([]uint8, error) {
	if p.Exact {
		return referenceExact(ctx, p)
	}
	return referenceAdditive(ctx, p)
}

// referenceExact is the breadth-first search of an exact table.
func referenceExact(ctx context.Context, p *puzzle.Pattern) ([]uint8, error) {
	size := p.Size()
	if size > math.MaxUint32 {
		return nil, fmt.Errorf("verify: reference: %d states do not fit the uint32 queue", size)
	}
	n := p.Geom.N()
	nbrs := p.Geom.Neighbors()
	dist := make([]uint8, size)
	for i := range dist {
		dist[i] = puzzle.Unreached
	}
	// Every state enters the queue exactly once, so a slice of Size
	// entries read from the front is the whole FIFO.
	queue := make([]uint32, 0, size)
	goal := p.Rank(p.GoalPositions())
	dist[goal] = 0
	queue = append(queue, uint32(goal))

	pos := make([]uint8, n)
	var board [puzzle.MaxCells]uint8 // tile in each cell
	for head := 0; head < len(queue); head++ {
		if head%cancelEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		idx := uint64(queue[head])
		d := dist[idx]
		if d >= puzzle.Unreached-1 {
			return nil, fmt.Errorf("verify: reference: distance exceeds %d", puzzle.Unreached-1)
		}
		p.Unrank(idx, pos)
		for t, c := range pos {
			board[c] = uint8(t)
		}
		blank := pos[0]
		for _, c := range nbrs[blank] {
			t := board[c] // the tile that slides into the blank
			pos[0], pos[t] = c, blank
			r := p.Rank(pos)
			pos[0], pos[t] = blank, c
			if dist[r] == puzzle.Unreached {
				dist[r] = d + 1
				queue = append(queue, uint32(r))
			}
		}
	}
	if uint64(len(queue)) != size {
		return nil, fmt.Errorf("verify: reference: reached %d of %d states", len(queue), size)
	}
	return dist, nil
}

// referenceAdditive is the 0-1 breadth-first search of an additive pattern
// database.
func referenceAdditive(ctx context.Context, p *puzzle.Pattern) ([]uint8, error) {
	size := p.Size()
	n := uint64(p.Geom.N())
	dist, err := referenceBlankCells(ctx, p)
	if err != nil {
		return nil, err
	}

	// Value of a placement = minimum over its blank cells. Entry i is
	// written to dist[i] after its block dist[i*n:(i+1)*n] has been read;
	// i <= i*n, so no block is overwritten before it is read.
	missing := uint64(0)
	for i := uint64(0); i < size; i++ {
		m := uint8(puzzle.Unreached)
		for _, v := range dist[i*n : (i+1)*n] {
			m = min(m, v)
		}
		if m == puzzle.Unreached {
			missing++
		}
		dist[i] = m
	}
	if missing > 0 {
		return nil, fmt.Errorf("verify: reference: %d of %d placements never reached", missing, size)
	}
	values := make([]uint8, size)
	copy(values, dist[:size])
	return values, nil
}

// referenceBlankCells is the 0-1 breadth-first search over (placement,
// blank cell): entry rank·N + blank is the fewest pattern-tile moves from
// that state to the goal (moves of other tiles are free), puzzle.Unreached
// for a blank cell that holds a pattern tile.
func referenceBlankCells(ctx context.Context, p *puzzle.Pattern) ([]uint8, error) {
	size := p.Size()
	n := uint64(p.Geom.N())
	k := p.K()
	nbrs := p.Geom.Neighbors()
	dist := make([]uint8, size*n)
	for i := range dist {
		dist[i] = puzzle.Unreached
	}
	goalPos := p.GoalPositions()
	start := p.RankCells(p.GoalCells())*n + uint64(goalPos[0])
	dist[start] = 0
	var cur, next fifo
	cur.push(start)

	cells := make([]uint8, k)
	var owner [puzzle.MaxCells]int8 // index of the pattern tile in a cell, or -1
	popped := 0
	for d := uint8(0); !cur.empty(); d++ {
		if d >= puzzle.Unreached-1 {
			return nil, fmt.Errorf("verify: reference: distance exceeds %d", puzzle.Unreached-1)
		}
		for !cur.empty() {
			s := cur.pop()
			if popped++; popped%cancelEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			if dist[s] != d {
				continue // queued before a shorter way was found
			}
			rank, blank := s/n, uint8(s%n)
			p.Unrank(rank, cells)
			for c := range owner[:n] {
				owner[c] = -1
			}
			for i, c := range cells {
				owner[c] = int8(i)
			}
			for _, c := range nbrs[blank] {
				i := owner[c]
				if i < 0 {
					// A non-pattern tile slides into the blank: free.
					t := rank*n + uint64(c)
					if dist[t] > d {
						dist[t] = d
						cur.push(t)
					}
					continue
				}
				// Pattern tile i slides from c into the blank: one move.
				cells[i] = blank
				r := p.RankCells(cells)
				cells[i] = c
				t := r*n + uint64(c)
				if dist[t] > d+1 {
					dist[t] = d + 1
					next.push(t)
				}
			}
		}
		cur, next = next, cur
	}
	return dist, nil
}

// fifo is a first-in first-out queue of uint64 kept in fixed-size blocks,
// so that memory is returned as the queue drains.
type fifo struct {
	blocks [][]uint64
	head   int // next to pop in blocks[0]
}

const fifoBlock = 1 << 20

func (q *fifo) push(v uint64) {
	if len(q.blocks) == 0 || len(q.blocks[len(q.blocks)-1]) == fifoBlock {
		q.blocks = append(q.blocks, make([]uint64, 0, fifoBlock))
	}
	last := &q.blocks[len(q.blocks)-1]
	*last = append(*last, v)
}

func (q *fifo) empty() bool {
	return len(q.blocks) == 0 || (len(q.blocks) == 1 && q.head == len(q.blocks[0]))
}

// pop removes the oldest value; the queue must not be empty.
func (q *fifo) pop() uint64 {
	v := q.blocks[0][q.head]
	q.head++
	if q.head == fifoBlock {
		q.blocks[0] = nil
		q.blocks = q.blocks[1:]
		q.head = 0
	}
	return v
}
