package solver

import (
	"context"
	"slices"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Path improvement after a suboptimal search (the anytime beam search):
// windows of the path, each between two of its states a few dozen moves
// apart, are solved again by IDA* between those two states, and a shorter
// sub-path replaces the window's; a state the path visits twice has the
// loop between its visits cut. Every step keeps a legal path from the
// start to the goal, so the answer still replays, and the proven lower
// bound (from the tables, at the start) is not touched.
//
// The heuristic between two arbitrary states s and t. Relabel every tile x
// with the goal tile whose goal cell is x's cell in t (its label); then t
// is the goal up to where the blank is, and the fewest moves of a group of
// labels to bring them to their goal cells is a pattern database lookup of
// the labels' cells (the cells of the tiles they relabel). A blank-abstracted
// additive table (the minimum over the blank's regions, or a plain one)
// does not depend on where the goal's blank is: its value is the fewest
// pattern moves to the goal placement, whatever the blank's cell. So the
// sum of the tables over disjoint groups of labels is a lower bound on the
// moves from s to t (Korf & Felner 2002's additivity argument, unchanged by
// the relabelling), and it is consistent. The tile whose cell in t is the
// goal's blank cell has no label: it is counted by its Manhattan distance
// to its cell in t, as is every tile whose label no table holds. Zero-aware
// tables, tables held at one bit and catalogues depend on the goal's blank
// (or on the search carrying values from the goal's side), so with them
// the windows use Manhattan distance alone.

// windowNodes is the node budget of one window's IDA*: a window that
// would need more is left as it is. With windowWidths, a 48-puzzle path
// of about 300 moves takes 4 to 8 s (a window of 128 moves rarely
// finishes; the shorter ones mostly do).
const windowNodes = 1 << 23

// windowWidths are the window lengths of the improvement passes, in moves:
// each is used until a pass over the whole path gains nothing, then the
// next. Measured on DeepCubeA's 48-puzzle instances 0-5 (40 s each, the
// 5-tile tables of preset 48-5tile): windows up to 48 moves (2^20 nodes each) cut 24 of
// the beams' 1,925 moves; up to 128 (2^23 nodes each) 40 of 1,929.
var windowWidths = []int{16, 24, 32, 40, 48, 64, 80, 100, 128}

// improver improves one path (Solver.improvePath).
type improver struct {
	s      *Solver
	tables bool // the heuristic uses the tables, relabelled (else Manhattan distance alone)
	// split[i]: part i's tiles on their goal cells cut the free cells in
	// two or more regions, so its table's value is a distance to the
	// region of the goal's blank: not a bound towards another blank
	// cell, and its tiles are counted by Manhattan distance.
	split    [maxTables]bool
	dist     [puzzle.MaxCells][puzzle.MaxCells]uint8
	nodes    uint64    // generated, over all windows
	deadline time.Time // of improvePath (zero: none); a window past it stops
	w        window
}

// window is one window's IDA* from its first state to its last (target).
type window struct {
	board  [puzzle.MaxCells]uint8
	blank  uint8
	label  [puzzle.MaxCells]uint8 // tile -> its label (tables only)
	free   [puzzle.MaxCells]bool  // tile counted by Manhattan distance to tcell
	tcell  [puzzle.MaxCells]uint8 // tile -> its cell in the target
	sd     side                   // the tables' state of the labels' cells
	md     int                    // Σ Manhattan distance of the free tiles
	bound  int
	next   int
	path   []uint8
	nodes  uint64
	budget uint64
	stop   bool      // out of budget, or (with ball) past the deadline
	clock  uint64    // with ball: the node count at which to look at the clock next
	ball   *goalBall // the exact tail's goal ball (the target is the goal), or nil
}

// windowClock is the number of nodes between two looks at the clock in
// a window of the exact tail (about a millisecond): its windows start far
// back and are the ones that run out of budget. The other windows finish
// once begun (at most windowNodes), as they did before the tail.
const windowClock = 1 << 14

// newImprover prepares the improvement of paths of s's boards.
func (s *Solver) newImprover() *improver {
	im := &improver{s: s, tables: s.exact == nil && s.cat == nil}
	for i := range s.tabs {
		if s.tabs[i].za != nil || !s.tabs[i].hasValues() {
			im.tables = false
		}
		im.split[i] = !s.goalFreeConnected(int8(i))
	}
	for a := 0; a < s.n; a++ {
		for b := 0; b < s.n; b++ {
			im.dist[a][b] = uint8(s.geom.Manhattan(a, b))
		}
	}
	return im
}

// improvePath shortens path (blank moves, puzzle.Direction values, from
// work to the goal, in the tables' convention) until deadline (zero: no
// deadline) or ctx ends, and returns the shorter path (a copy of path
// when nothing was gained; path is not modified) and the nodes generated. The path returned leads
// from work to the goal and is at most as long as path.
func (s *Solver) improvePath(ctx context.Context, work puzzle.Board, path []uint8, deadline time.Time) ([]uint8, uint64) {
	if s.exact != nil || len(path) < 2 {
		return path, 0
	}
	im := s.newImprover()
	im.deadline = deadline
	path = slices.Clone(path)
	if s.opt.Polish.Runs(PolishWindows) {
		path, _ = im.cutCycles(work, path)
		for _, w := range windowWidths {
			for {
				before := len(path)
				var done bool
				path, done = im.pass(ctx, work, path, w, deadline)
				if done {
					return path, im.nodes
				}
				if len(path) == before {
					break
				}
			}
		}
	}
	if s.opt.Polish.Runs(PolishTail) {
		path = im.tail(ctx, work, path)
	}
	return path, im.nodes
}

// tailWidths are the exact tail's windows (improver.tail), in moves
// beyond the goal ball's radius: each from the state of the path that
// many moves (and the radius) before the goal, until one runs out of
// windowNodes.
var tailWidths = []int{16, 32, 48, 64, 96, 128, 160, 192, 256}

// tail finishes path (from work to the goal) with an exact tail: from
// the state radius+x moves before the goal, for each x of tailWidths, a
// shortest path to the goal by IDA* meeting the goal ball (solveWindow
// with the ball) replaces the path's rest when it is shorter. It waits
// for the goal ball (Solver.waitBall) no longer than the improvement's
// deadline or ctx allow, and returns path as it is without the ball. It
// stops at the start of the path, at the first window out of budget, at
// the deadline (zero: none) or when ctx ends. The path returned leads from work to the
// goal, at most as long as path, and its last min(len, radius+x) moves are
// a shortest path for the last x tried.
func (im *improver) tail(ctx context.Context, work puzzle.Board, path []uint8) []uint8 {
	s := im.s
	ball := s.waitBall(ctx, im.deadline)
	if ball == nil {
		return path // the deadline or ctx came before the ball
	}
	var goal [puzzle.MaxCells]uint8
	copy(goal[:], s.goal)
	for _, x := range tailWidths {
		if ctx.Err() != nil || (!im.deadline.IsZero() && time.Now().After(im.deadline)) {
			break
		}
		i := max(len(path)-ball.radius-x, 0)
		var board [puzzle.MaxCells]uint8
		copy(board[:], work)
		blank := uint8(slices.Index(work, 0))
		for _, d := range path[:i] {
			blank = s.step(&board, blank, d)
		}
		if sub, ok := im.solveWindow(&board, blank, &goal, len(path)-i, ball); ok {
			path = slices.Concat(path[:i], sub)
		} else if im.w.stop {
			break
		}
		if i == 0 {
			break
		}
	}
	return path
}

// pass runs one window of length w (shorter at the end of the path) every
// w/2 moves along path and returns the path with every gain spliced in;
// done is true when the deadline or ctx ended it.
func (im *improver) pass(ctx context.Context, work puzzle.Board, path []uint8, w int, deadline time.Time) ([]uint8, bool) {
	s := im.s
	var board [puzzle.MaxCells]uint8
	copy(board[:], work)
	blank := uint8(slices.Index(work, 0))
	for i := 0; i+2 < len(path); {
		if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
			return path, true
		}
		j := min(i+w, len(path))
		target := board
		tb := blank
		for _, d := range path[i:j] {
			tb = s.step(&target, tb, d)
		}
		if sub, ok := im.solveWindow(&board, blank, &target, j-i, nil); ok {
			path = slices.Concat(path[:i], sub, path[j:])
			var lo int
			path, lo = im.cutCycles(work, path)
			// Stay at i (the window from here now reaches further), unless
			// a loop was cut before it: then start again from the start.
			if lo < i {
				copy(board[:], work)
				blank = uint8(slices.Index(work, 0))
				i = 0
			}
			continue
		}
		if j == len(path) {
			break
		}
		step := max(w/2, 1)
		for _, d := range path[i : i+step] {
			blank = s.step(&board, blank, d)
		}
		i += step
	}
	return path, false
}

// step makes the blank move d on board (blank: the blank's cell) and
// returns the blank's new cell.
func (s *Solver) step(board *[puzzle.MaxCells]uint8, blank uint8, d uint8) uint8 {
	m := &s.nbr[blank]
	for k := uint8(0); k < m.n; k++ {
		if m.dir[k] == d {
			to := m.to[k]
			board[blank], board[to] = board[to], 0
			return to
		}
	}
	panic("solver: illegal move in a path") // paths come from the solver's own searches
}

// cutCycles removes from path every loop between two visits of one state
// (the earliest visit and the last), and returns it and the first index
// where it changed (len(path) when it did not).
func (im *improver) cutCycles(work puzzle.Board, path []uint8) ([]uint8, int) {
	s := im.s
	lo := len(path)
	for {
		var board [puzzle.MaxCells]uint8
		copy(board[:], work)
		blank := uint8(slices.Index(work, 0))
		seen := map[[puzzle.MaxCells]uint8]int{board: 0}
		cut := false
		for k, d := range path {
			blank = s.step(&board, blank, d)
			if first, ok := seen[board]; ok {
				path = slices.Delete(path, first, k+1)
				lo = min(lo, first)
				cut = true
				break
			}
			seen[board] = k + 1
		}
		if !cut {
			return path, min(lo, len(path))
		}
	}
}

// solveWindow looks for a path from board (blank at blank) to target
// shorter than limit moves, by IDA* within windowNodes nodes (and, with
// ball, the improvement's deadline); ok is true when one is found (sub, a
// shortest one).
//
// With ball (not nil; target must then be the goal) the search meets
// the goal ball: a state of the ball within the bound ends it, the ball's
// shortest path from there to the goal completing the path, and every
// state outside the ball is more than ball.radius moves from the goal
// (perimeter search; goalball.go).
func (im *improver) solveWindow(board *[puzzle.MaxCells]uint8, blank uint8, target *[puzzle.MaxCells]uint8, limit int, ball *goalBall) (sub []uint8, ok bool) {
	w := &im.w
	w.board, w.blank = *board, blank
	w.path, w.nodes, w.budget, w.stop, w.ball = w.path[:0], 0, windowNodes, false, ball
	w.clock = windowClock
	h := im.load(target)
	defer func() { im.nodes += w.nodes }()
	if ball != nil && h <= ball.radius {
		if d, in := ball.lookup(board); in {
			if d < limit {
				return ball.descend(im.s, *board, blank, d, nil), true
			}
			return nil, false
		}
		h = ball.radius + 1
	}
	for w.bound = h; w.bound < limit; w.bound = w.next {
		w.next = inf
		w.path = w.path[:0]
		if im.dfs(0, 0) {
			if w.stop {
				return nil, false
			}
			return slices.Clone(w.path), true
		}
		if w.next == inf { // (dfs returns true when the budget is spent)
			return nil, false
		}
	}
	return nil, false
}

// load sets the window's labels and heuristic state for target and
// returns the heuristic of the window's first state.
func (im *improver) load(target *[puzzle.MaxCells]uint8) int {
	s, w := im.s, &im.w
	n := s.n
	// The label of the target's blank cell is held by no tile: its table
	// is left out, and its labels' tiles counted by Manhattan distance.
	skip := int8(-1)
	cb := slices.Index(target[:n], 0)
	if l := s.goal[cb]; l != 0 && im.tables {
		skip = s.tileTab[l]
	}
	for c := 0; c < n; c++ {
		t := target[c]
		if t == 0 {
			continue
		}
		l := s.goal[c] // the goal tile whose goal cell is c (0: the goal's blank cell)
		w.tcell[t], w.label[t] = uint8(c), l
		ti := s.tileTab[l]
		w.free[t] = !im.tables || l == 0 || ti < 0 || ti == skip || im.split[ti]
	}
	w.md = 0
	for c := 0; c < n; c++ {
		t := w.board[c]
		if t == 0 {
			continue
		}
		if w.free[t] {
			w.md += int(im.dist[c][w.tcell[t]])
			continue
		}
		l := w.label[t]
		ti := s.tileTab[l]
		w.sd.cells[ti][s.tileIdx[l]] = s.partCell[ti][c]
	}
	w.sd.sum = 0
	if im.tables {
		for i := range s.tabs {
			if int8(i) == skip || im.split[i] {
				w.sd.h[i] = 0
				continue
			}
			w.sd.rank(&s.tabs[i], i, 0) // blank-abstracted: the blank's cell is not used
		}
	}
	return w.sd.sum + w.md
}

// dfs is the window's IDA* below depth g, in state fs of the solver's
// duplicate-path automaton (which prunes by move sequences alone, whatever
// the start and the target). It returns true when the target is reached
// (w.path then holds the path) or the budget is spent (w.stop).
func (im *improver) dfs(g int, fs dupState) bool {
	s, w := im.s, &im.w
	blank := w.blank
	m := &s.nbr[blank]
	row := s.dup[int(fs)<<2 : int(fs)<<2+4 : int(fs)<<2+4]
	var c, back childStep
	for i := uint8(0); i < m.n; i++ {
		dir := m.dir[i]
		nfs := row[dir&3]
		if nfs == dupDead {
			continue
		}
		to := m.to[i]
		tile := w.board[to]
		w.nodes++
		var h, dmd int
		free := w.free[tile]
		if free {
			tc := w.tcell[tile]
			dmd = int(im.dist[blank][tc]) - int(im.dist[to][tc])
			h = w.sd.sum + w.md + dmd
		} else {
			s.childOf(&c, &w.sd, &s.partCell, w.label[tile], blank, to)
			h = c.sum + w.md
		}
		if w.ball != nil && h <= w.ball.radius {
			// The child may be in the goal ball: h <= its distance.
			w.board[blank], w.board[to] = tile, 0
			d, in := w.ball.lookup(&w.board)
			if in && g+1+d <= w.bound {
				w.path = append(w.path, dir)
				w.path = w.ball.descend(s, w.board, to, d, w.path)
				return true
			}
			w.board[blank], w.board[to] = 0, tile
			if in {
				w.next = min(w.next, g+1+d)
				continue
			}
			h = w.ball.radius + 1
		}
		if f := g + 1 + h; f > w.bound {
			w.next = min(w.next, f)
			continue
		}
		if free {
			w.md += dmd
		} else {
			w.sd.make(&c, &back)
		}
		w.board[blank], w.board[to] = tile, 0
		w.blank = to
		w.path = append(w.path, dir)
		if h == 0 {
			return true // the target: h is 0 only there (every tile on its target cell)
		}
		if w.nodes >= w.budget {
			w.stop = true
			return true
		}
		if w.ball != nil && w.nodes >= w.clock {
			w.clock = w.nodes + windowClock
			if !im.deadline.IsZero() && time.Now().After(im.deadline) {
				w.stop = true
				return true
			}
		}
		if im.dfs(g+1, nfs) {
			return true
		}
		w.path = w.path[:len(w.path)-1]
		w.blank = blank
		w.board[blank], w.board[to] = 0, tile
		if free {
			w.md -= dmd
		} else {
			w.sd.make(&back, &c)
		}
	}
	return false
}

// goalFreeConnected reports whether the cells left free by part i's tiles
// on their goal cells are one region (connected by the blank's moves).
func (s *Solver) goalFreeConnected(i int8) bool {
	var taken [puzzle.MaxCells]bool
	free := 0
	for c := 0; c < s.n; c++ {
		if l := s.goal[c]; l != 0 && s.tileTab[l] == i {
			taken[c] = true
		} else {
			free++
		}
	}
	start := slices.IndexFunc(taken[:s.n], func(t bool) bool { return !t })
	if start < 0 {
		return true
	}
	seen := taken
	seen[start] = true
	queue := []uint8{uint8(start)}
	for k := 0; k < len(queue); k++ {
		m := &s.nbr[queue[k]]
		for j := uint8(0); j < m.n; j++ {
			if to := m.to[j]; !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	return len(queue) == free
}
