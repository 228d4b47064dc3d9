package solver

import (
	"context"
	"slices"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// The goal ball: every state within a few moves of the goal with its
// exact distance, found once per Solver by breadth-first search from the
// goal. A search that meets the ball knows the rest of its way: the exact
// tail of the path improvement (improver.tail) runs IDA* from a state of
// the path towards the goal and stops at the first state of the ball it
// reaches within the bound, then follows the ball's distances down to the
// goal. Outside the ball a state is more than radius moves from the goal,
// so max(h, radius+1) is still admissible there, and the ball's distance
// is exact inside: a weaker, cheaper form of the front-to-perimeter
// heuristic of perimeter search (the least h(s, p) + d(p) over the states
// p on the ball's edge; Dillenburg & Nelson 1994, "Perimeter search",
// Artificial Intelligence 65:165-178; Manzini 1995, "BIDA*", Artificial
// Intelligence 75:347-360). It is consistent: a state of the ball next to
// one outside is at distance radius.

// ballStates bounds the states of the goal ball: it holds every level of
// the breadth-first search from the goal that fits whole: radius 15 on
// 6x6 (1,012,943 states) and 14 on 7x7 (591,669), built in 1.3 and 1.7 s.
const ballStates = 1 << 20

// GoalBallBytes bounds the memory of the goal ball of the exact tail
// (PolishTail) while it is built and after: its map of up to ballStates
// states takes 144 MiB of heap on 6x6 (a 56-byte key, a distance and the
// map's slot per state), and while it is built the last two levels'
// boards and the map's growth take more: the 48-puzzle's peak RSS rose by
// 209 MiB with it (DeepCubeA's instances 0-3, docs/big-boards.md). The
// anytime beam search builds one per Solver.
const GoalBallBytes = 256 << 20

// goalBall is every state at most radius moves from the goal, with its
// distance, by the state's key (packer). It is read-only once built.
type goalBall struct {
	radius int
	pk     packer
	dist   map[key]uint8
}

// startBall starts building s's goal ball in a goroutine on the first
// call (at most ballStates states; 1.3 s on the 35-puzzle, 1.7 s on the
// 48-puzzle) and returns a channel closed once s.ball is set.
func (s *Solver) startBall() <-chan struct{} {
	s.ballOnce.Do(func() {
		s.ballReady = make(chan struct{})
		go func() {
			s.ball = s.buildGoalBall(ballStates)
			close(s.ballReady)
		}()
	})
	return s.ballReady
}

// waitBall returns s's goal ball (startBall), waiting for its build until
// deadline (zero: no deadline) or until ctx ends; nil when either comes
// first.
func (s *Solver) waitBall(ctx context.Context, deadline time.Time) *goalBall {
	ready := s.startBall()
	var late <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		late = t.C
	}
	select {
	case <-ready:
		return s.ball
	case <-ctx.Done():
	case <-late:
	}
	return nil
}

// GoalBallBytes is the memory the exact tail's goal ball may take
// (GoalBallBytes, the constant) when s runs the tail after an anytime beam
// search (Options.Polish has PolishTail, tables that are not exact), else 0.
func (s *Solver) GoalBallBytes() uint64 {
	if !s.opt.Polish.Runs(PolishTail) || s.exact != nil || s.set == nil {
		return 0
	}
	return GoalBallBytes
}

// buildGoalBall finds every state within radius moves of the goal by
// breadth-first search, for the largest radius whose states number at
// most maxStates (at least the goal itself: radius 0). On a board whose
// states all fit, radius is the largest distance (every state is inside).
func (s *Solver) buildGoalBall(maxStates int) *goalBall {
	n := s.n
	var g [puzzle.MaxCells]uint8
	copy(g[:], s.goal)
	gb := &goalBall{pk: newPacker(n)}
	gb.dist = map[key]uint8{gb.pk.pack(&g): 0}
	front := slices.Clone(s.goal[:n]) // the last level's boards, n cells each
	for d := 0; d < 254; d++ {
		var next []uint8
		for off := 0; off < len(front); off += n {
			var b [puzzle.MaxCells]uint8
			copy(b[:], front[off:off+n])
			blank := uint8(slices.Index(b[:n], 0))
			m := &s.nbr[blank]
			for i := uint8(0); i < m.n; i++ {
				c := b
				s.step(&c, blank, m.dir[i])
				k := gb.pk.pack(&c)
				if _, ok := gb.dist[k]; ok {
					continue
				}
				if len(gb.dist) >= maxStates {
					// Level d+1 does not fit whole: leave it out.
					for o := 0; o < len(next); o += n {
						copy(c[:], next[o:o+n])
						delete(gb.dist, gb.pk.pack(&c))
					}
					gb.radius = d
					return gb
				}
				gb.dist[k] = uint8(d + 1)
				next = append(next, c[:n]...)
			}
		}
		if len(next) == 0 {
			break // every state is inside
		}
		front = next
		gb.radius = d + 1
	}
	return gb
}

// lookup returns b's distance to the goal and true when b is in the ball
// (false: b is more than radius moves away).
func (gb *goalBall) lookup(b *[puzzle.MaxCells]uint8) (int, bool) {
	d, ok := gb.dist[gb.pk.pack(b)]
	return int(d), ok
}

// descend appends to path the moves of a shortest path from b (blank at
// blank) to the goal, b being in the ball at distance d: each move goes to
// a neighbour one move closer, which the ball holds.
func (gb *goalBall) descend(s *Solver, b [puzzle.MaxCells]uint8, blank uint8, d int, path []uint8) []uint8 {
	for ; d > 0; d-- {
		m := &s.nbr[blank]
		i := uint8(0)
		for ; i < m.n; i++ {
			c := b
			to := s.step(&c, blank, m.dir[i])
			if e, ok := gb.lookup(&c); ok && e == d-1 {
				b, blank = c, to
				path = append(path, m.dir[i])
				break
			}
		}
		if i == m.n {
			panic("solver: a state of the goal ball has no neighbour closer to the goal") // the ball is a breadth-first search's
		}
	}
	return path
}
