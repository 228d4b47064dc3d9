package solver

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// bidirSide is one direction of the bidirectional search: the states
// reached, numbered in breadth-first order, so that the states at the
// current depth are the ids [lo, hi).
type bidirSide struct {
	store  stateStore
	move   []uint8 // blank move that reached each state; noMove for the root
	lo, hi int
	depth  int
}

// bidir is one bidirectional breadth-first search.
type bidir struct {
	g     puzzle.Geometry
	n     int
	pk    packer
	nbr   [puzzle.MaxCells]moves
	guard guard
	side  [2]bidirSide // 0: from the start, 1: from the goal
	board [puzzle.MaxCells]uint8
	stats Stats
}

// Bidirectional returns an optimal solution of start on geometry g (moves
// of the blank, applied to start, reach goal) by breadth-first search from
// both ends (Pohl 1971, "Bi-directional search", Machine Intelligence 6):
// it expands, one whole level at a time, the direction whose current level
// is smaller, and stops in the first level that produces a state the other
// direction has stored; that level's depth plus the other's is then the
// optimal length (every shorter path would have met a level earlier). No
// table is needed, so it is an independent check of the other searches; its
// cost grows with the branching factor (about 2.13 on the 15-puzzle) to
// the power of half the length: on the 15-puzzle about 10^7 states for 40
// moves.
//
// Result.Nodes counts the states generated (children of expanded states,
// never the move back). start and goal must be valid boards of g; an
// unsolvable start gives Solvable false without search. lim.MaxNodes
// bounds the states stored in both directions together: past it (or past
// lim.MaxBytes; measured 22-25 bytes per state on the 15-puzzle) the search
// refuses with an error wrapping ErrNodeLimit (ErrMemoryLimit) that says
// which length it has ruled out. ctx and lim.TimeLimit stop it as for
// solveWeighted.
func bidirectional(ctx context.Context, g puzzle.Geometry, start, goal puzzle.Board, lim Limits) (Result, Stats, error) {
	s, err := NewBoard(g, goal)
	if err != nil {
		return Result{}, Stats{}, err
	}
	res, st, _, err := s.solveBidirectional(ctx, start, lim)
	return res, st, err
}

// solveBidir is Bidirectional on the solver's board and goal: b is
// converted first with Options.FromBlankFirst (and the moves translated
// back), like Solve. The tables are not used.
func (s *Solver) solveBidir(ctx context.Context, b puzzle.Board, lim Limits) (Result, Stats, error) {
	res, st, _, err := s.solveBidirectional(ctx, b, lim)
	return res, st, err
}

// solveBidirectional is solveBidir, also returning, when a limit
// or ctx stopped the search, the proven lower bound on the optimal length:
// one more than the length ruled out, raised to the parity of every
// solution (that of the blank's taxicab distance to its goal cell).
func (s *Solver) solveBidirectional(ctx context.Context, b puzzle.Board, lim Limits) (Result, Stats, int, error) {
	if err := b.Validate(s.n); err != nil {
		return Result{}, Stats{}, -1, err
	}
	if err := lim.validate(); err != nil {
		return Result{}, Stats{}, -1, err
	}
	res := Result{Board: append(puzzle.Board(nil), b...), Length: -1, Converted: s.opt.FromBlankFirst}
	work := res.Board
	if s.opt.FromBlankFirst {
		work = puzzle.BlankFirstToLast(b)
	}
	res.Searched = append(puzzle.Board(nil), work...)
	if !puzzle.Solvable(s.geom, work, s.goal) {
		return res, Stats{}, -1, nil
	}
	res.Solvable = true
	x := &bidir{g: s.geom, n: s.n, pk: newPacker(s.n), guard: newGuard(ctx, lim), nbr: s.nbr}
	path, err := x.run(work, s.goal)
	x.stats.Stored = uint64(x.side[0].store.len() + x.side[1].store.len())
	x.stats.PeakBytes = x.guard.bud.peak
	x.stats.Elapsed = time.Since(x.guard.start)
	res.Nodes = x.stats.Generated
	if err != nil {
		lower := x.side[0].depth + x.side[1].depth + 1
		if blank := slices.Index(work, 0); (lower-s.geom.Manhattan(blank, int(s.goalPos[0])))%2 != 0 {
			lower++
		}
		return res, x.stats, lower, fmt.Errorf("bidirectional search: %w", err)
	}
	res.Length = len(path)
	res.Moves = s.moveString(path)
	return res, x.stats, -1, nil
}

// run searches and returns the blank moves from start to goal.
func (x *bidir) run(start, goal puzzle.Board) ([]uint8, error) {
	var kb [2]key
	x.side[0].store = newStateStore(x.pk.words)
	x.side[1].store = newStateStore(x.pk.words)
	for i, b := range []puzzle.Board{start, goal} {
		copy(x.board[:], b)
		kb[i] = x.pk.pack(&x.board)
		if _, err := x.insert(i, kb[i], noMove); err != nil {
			return nil, err
		}
		x.side[i].hi = 1
	}
	if kb[0] == kb[1] {
		return nil, nil
	}
	for {
		// Expand the smaller level (ties: from the start).
		d := 0
		if x.side[1].hi-x.side[1].lo < x.side[0].hi-x.side[0].lo {
			d = 1
		}
		path, err := x.level(d)
		if path != nil || err != nil {
			return path, err
		}
	}
}

// insert stores k on side d, reached by move.
func (x *bidir) insert(d int, k key, move uint8) (bool, error) {
	sd := &x.side[d]
	id, slot := sd.store.find(k)
	if id >= 0 {
		return false, nil
	}
	if err := x.guard.room(uint64(x.side[0].store.len() + x.side[1].store.len())); err != nil {
		return false, x.refuse(err)
	}
	rebuilt, err := sd.store.reserve(&x.guard.bud)
	if err != nil {
		return false, x.refuse(err)
	}
	if rebuilt {
		_, slot = sd.store.find(k)
	}
	if sd.move, err = growFor(&x.guard.bud, sd.move, 1, 1); err != nil {
		return false, x.refuse(err)
	}
	sd.store.insert(k, slot)
	sd.move = append(sd.move, move)
	return true, nil
}

// refuse adds to a limit error the length the search has ruled out.
func (x *bidir) refuse(err error) error {
	return fmt.Errorf("%w after ruling out every solution of %d moves or fewer (depths %d from the start and %d from the goal)",
		err, x.side[0].depth+x.side[1].depth, x.side[0].depth, x.side[1].depth)
}

// level expands the current level of side d. It returns the path when the
// two sides meet.
func (x *bidir) level(d int) ([]uint8, error) {
	sd, other := &x.side[d], &x.side[1-d]
	if sd.lo == sd.hi {
		return nil, fmt.Errorf("the %s side ran out of states without meeting the other", [2]string{"start", "goal"}[d])
	}
	for id := sd.lo; id < sd.hi; id++ {
		if err := x.guard.tick(); err != nil {
			return nil, err
		}
		x.stats.Expanded++
		k := sd.store.key(uint32(id))
		blank := x.pk.unpack(k, &x.board)
		m := &x.nbr[blank]
		skip := undo[sd.move[id]]
		for i := uint8(0); i < m.n; i++ {
			dir := m.dir[i]
			if dir == skip {
				continue
			}
			to := m.to[i]
			ck := x.pk.slide(k, blank, to, x.board[to])
			x.stats.Generated++
			if oid, _ := other.store.find(ck); oid >= 0 {
				return x.join(d, k, dir, ck), nil
			}
			if _, err := x.insert(d, ck, dir); err != nil {
				return nil, err
			}
		}
	}
	sd.lo, sd.hi = sd.hi, sd.store.len()
	sd.depth++
	return nil, nil
}

// join builds the solution when state k of side d, moving the blank dir,
// reaches state ck stored by the other side.
func (x *bidir) join(d int, k key, dir uint8, ck key) []uint8 {
	if d == 0 {
		// start -> k, dir, then ck -> goal.
		p := append(x.trace(0, k), dir)
		return append(p, reverseMoves(x.trace(1, ck))...)
	}
	// start -> ck, then ck -> k (undoing dir), then k -> goal.
	p := x.trace(0, ck)
	return append(p, reverseMoves(append(x.trace(1, k), dir))...)
}

// trace returns the blank moves from side d's root to its stored state k.
func (x *bidir) trace(d int, k key) []uint8 {
	sd := &x.side[d]
	var rev []uint8
	for {
		id, _ := sd.store.find(k)
		mv := sd.move[id]
		if mv == noMove {
			break
		}
		rev = append(rev, mv)
		// The parent: the blank moves back.
		blank := x.pk.unpack(k, &x.board)
		to, _ := x.g.Step(int(blank), puzzle.Direction(undo[mv]))
		k = x.pk.slide(k, blank, uint8(to), x.board[to])
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// reverseMoves returns the moves that undo p, in order: p reversed, each
// move replaced by its opposite.
func reverseMoves(p []uint8) []uint8 {
	out := make([]uint8, len(p))
	for i, mv := range p {
		out[len(p)-1-i] = undo[mv]
	}
	return out
}
