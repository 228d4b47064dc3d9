package solver

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Bounded is the answer of every search of Solver.Search (and of
// solveWeighted, solveAnytime): a solution, when one was found, and what
// is proven about the optimum.
type Bounded struct {
	// Board is the board as given; Searched the board searched against the
	// tables' goal (converted when Converted, see Options.FromBlankFirst).
	Board, Searched puzzle.Board
	Converted       bool
	// Solvable is false when Board cannot reach the goal (no search; Length
	// and Lower are then -1).
	Solvable bool
	// Length is the number of moves of the solution found, -1 when none was
	// found (a limit ended the search first).
	Length int
	// Moves are the blank's moves of the solution ('u', 'd', 'l', 'r'), as
	// in Result.
	Moves string
	// Lower is a proven lower bound on the optimal length: the smallest
	// g + h over the states still open or inconsistent (Likhachev, Gordon
	// & Thrun 2003), at least the start's h, raised to the parity every
	// solution has (that of the blank's taxicab distance to its goal cell),
	// at most Length. It needs only an admissible heuristic.
	Lower int
	// Bound is Length / Lower (>= 1; 1 when Lower is 0 and Length 0): the
	// proven suboptimality factor of the solution. 0 when Length is -1.
	Bound float64
	// Optimal is true when Length == Lower: the solution is proven optimal.
	Optimal bool
	// Weight is the weight w of the search (f = g + w*h) that found the
	// solution.
	Weight float64
	// Width is the width of the beam search that found the solution
	// (AlgBeamSearch, AlgAnytimeBeamSearch); 0 for the other searches.
	Width int
	// Polished is how many moves the path improvement after the beam
	// searches (AlgAnytimeBeamSearch: windows re-solved by IDA*, loops
	// cut; solver/improve.go) took off the beam's solution; 0 otherwise.
	Polished int
	// Stats are the counts of the whole search up to this answer.
	Stats Stats
	// Algorithm is the search that answered (set by Solver.Search).
	Algorithm Algorithm
	// Stopped is why the search ended early (set by Solver.Search):
	// StopTime, StopNodes, StopMemory or StopInterrupted; "" for a complete
	// answer.
	Stopped string
}

// Stats count the work of a search that stores states.
type Stats struct {
	// Generated counts the children created by expanding states (never the
	// move that undoes the move into the expanded state), as Result.Nodes
	// counts for IDA*.
	Generated uint64
	// Expanded counts the states whose children were generated (a state
	// expanded again after its g fell counts again).
	Expanded uint64
	// Stored is the number of distinct states stored.
	Stored uint64
	// PeakBytes is the largest memory held by the search's arrays at one
	// time (bytes, see Limits.MaxBytes).
	PeakBytes int64
	// Elapsed is the wall time from the start of the search.
	Elapsed time.Duration
}

// anode is one stored state of an A* search (its key is in the state
// store under the same id).
type anode struct {
	parent uint32 // id of the state it was reached from; itself for the root
	heap   int32  // index in the open list, -1 when not open
	g, h   uint16 // moves from the start (best known), heuristic
	epoch  uint16 // iteration of the last expansion (closed when current)
	move   uint8  // blank move from the parent; noMove for the root
	incons bool   // in the INCONS list
}

const anodeBytes = 16

// openEntry is one state of the open list, ordered by f = g + eps*h, then
// larger g first (deeper states first among equal f).
type openEntry struct {
	f  float64
	g  uint32
	id uint32
}

const openEntryBytes = 16

func (a openEntry) less(b openEntry) bool {
	return a.f < b.f || a.f == b.f && a.g > b.g
}

// astar is one weighted A* / ARA* search from a solvable board.
type astar struct {
	s      *Solver
	pk     packer
	store  stateStore
	nodes  []anode
	open   []openEntry
	incons []uint32
	guard  guard
	hc     *hcalc
	board  [puzzle.MaxCells]uint8

	eps     float64 // current weight
	epoch   uint16  // current iteration, from 1
	reopen  bool    // weighted A*: closed states whose g falls go back to open (Pohl)
	goalKey key
	goal    int64 // id of the goal state, -1 until generated
	startH  int
	parity  int // optimal length mod 2
	stats   Stats
}

// newAStar stores the start state. board must be valid and solvable
// against the tables' goal.
func (s *Solver) newAStar(ctx context.Context, b puzzle.Board, lim Limits) (*astar, error) {
	a := &astar{s: s, pk: newPacker(s.n), hc: newHcalc(s), guard: newGuard(ctx, lim), goal: -1}
	a.store = newStateStore(a.pk.words)
	var gb [puzzle.MaxCells]uint8
	copy(gb[:], s.goal)
	a.goalKey = a.pk.pack(&gb)
	copy(a.board[:], b)
	blank := 0
	for c, t := range b {
		if t == 0 {
			blank = c
		}
	}
	a.parity = s.geom.Manhattan(blank, int(s.goalPos[0])) % 2
	a.startH = a.hc.load(&a.board)
	if err := a.add(a.pk.pack(&a.board), 0, anode{heap: -1, h: uint16(a.startH), move: noMove}); err != nil {
		return nil, err
	}
	return a, nil
}

// add stores a new state k with node n (parent, g, h, move set) and puts
// it on the open list.
func (a *astar) add(k key, slot uint64, n anode) error {
	if err := a.guard.room(uint64(a.store.len())); err != nil {
		return err
	}
	rebuilt, err := a.store.reserve(&a.guard.bud)
	if err != nil {
		return err
	}
	if rebuilt || len(a.store.slots) == 0 {
		_, slot = a.store.find(k)
	}
	if a.nodes, err = growFor(&a.guard.bud, a.nodes, 1, anodeBytes); err != nil {
		return err
	}
	if a.open, err = growFor(&a.guard.bud, a.open, 1, openEntryBytes); err != nil {
		return err
	}
	id := a.store.insert(k, slot)
	a.nodes = append(a.nodes, n)
	if k == a.goalKey {
		a.goal = int64(id)
	}
	a.push(id)
	return nil
}

// f is the priority of node id under the current weight.
func (a *astar) f(id uint32) openEntry {
	n := &a.nodes[id]
	return openEntry{f: float64(n.g) + a.eps*float64(n.h), g: uint32(n.g), id: id}
}

// push puts id on the open list (room was made by add or by the caller).
func (a *astar) push(id uint32) {
	i := len(a.open)
	a.open = append(a.open, a.f(id))
	a.nodes[id].heap = int32(i)
	a.up(i)
}

func (a *astar) up(i int) {
	e := a.open[i]
	for i > 0 {
		p := (i - 1) / 2
		if !e.less(a.open[p]) {
			break
		}
		a.open[i] = a.open[p]
		a.nodes[a.open[i].id].heap = int32(i)
		i = p
	}
	a.open[i] = e
	a.nodes[e.id].heap = int32(i)
}

func (a *astar) down(i int) {
	n := len(a.open)
	e := a.open[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a.open[c+1].less(a.open[c]) {
			c++
		}
		if !a.open[c].less(e) {
			break
		}
		a.open[i] = a.open[c]
		a.nodes[a.open[i].id].heap = int32(i)
		i = c
	}
	a.open[i] = e
	a.nodes[e.id].heap = int32(i)
}

// pop removes and returns the open state with the smallest priority.
func (a *astar) pop() uint32 {
	id := a.open[0].id
	last := len(a.open) - 1
	a.open[0] = a.open[last]
	a.open = a.open[:last]
	if last > 0 {
		a.down(0)
	}
	a.nodes[id].heap = -1
	return id
}

// reweigh sets the weight to eps, moves the INCONS states to the open list
// and reorders it (ARA*'s step between weights), and starts a new
// iteration (an empty CLOSED set).
func (a *astar) reweigh(eps float64) error {
	a.eps = eps
	var err error
	if a.open, err = growFor(&a.guard.bud, a.open, len(a.incons), openEntryBytes); err != nil {
		return err
	}
	for _, id := range a.incons {
		a.nodes[id].incons = false
		a.nodes[id].heap = int32(len(a.open))
		a.open = append(a.open, openEntry{id: id})
	}
	a.incons = a.incons[:0]
	for i := range a.open {
		a.open[i] = a.f(a.open[i].id)
	}
	for i := len(a.open)/2 - 1; i >= 0; i-- {
		a.down(i)
	}
	if a.epoch++; a.epoch == math.MaxUint16 {
		for i := range a.nodes {
			a.nodes[i].epoch = 0
		}
		a.epoch = 1
	}
	return nil
}

// improvePath is ARA*'s ImprovePath: expand states in order of priority
// until the goal's priority is at most the smallest on the open list. It
// returns the first limit or context error.
func (a *astar) improvePath() error {
	for len(a.open) > 0 {
		if a.goal >= 0 && float64(a.nodes[a.goal].g) <= a.open[0].f {
			return nil
		}
		if err := a.guard.tick(); err != nil {
			return err
		}
		id := a.pop()
		a.nodes[id].epoch = a.epoch
		if err := a.expand(id); err != nil {
			return err
		}
	}
	if a.goal < 0 {
		return fmt.Errorf("solver: search space exhausted without reaching the goal")
	}
	return nil
}

// expand generates the children of state id.
func (a *astar) expand(id uint32) error {
	a.stats.Expanded++
	n := a.nodes[id] // a copy: add may move the array
	k := a.store.key(id)
	blank := a.pk.unpack(k, &a.board)
	loaded := false
	m := &a.s.nbr[blank]
	skip := undo[n.move]
	if n.g == math.MaxUint16-1 {
		return fmt.Errorf("solver: a path of %d moves is the longest this search can hold", n.g)
	}
	g := n.g + 1
	for i := uint8(0); i < m.n; i++ {
		dir := m.dir[i]
		if dir == skip {
			continue
		}
		to := m.to[i]
		tile := a.board[to]
		ck := a.pk.slide(k, blank, to, tile)
		a.stats.Generated++
		cid, slot := a.store.find(ck)
		if cid < 0 {
			if !loaded {
				a.hc.load(&a.board)
				loaded = true
			}
			h := a.hc.child(tile, blank, to)
			if err := a.add(ck, slot, anode{parent: id, heap: -1, g: g, h: uint16(h), move: dir}); err != nil {
				return err
			}
			continue
		}
		c := &a.nodes[cid]
		if g >= c.g {
			continue
		}
		c.g, c.parent, c.move = g, id, dir
		switch {
		case c.heap >= 0:
			a.open[c.heap] = a.f(uint32(cid))
			a.up(int(c.heap))
		case c.epoch == a.epoch && !a.reopen:
			if !c.incons {
				var err error
				if a.incons, err = growFor(&a.guard.bud, a.incons, 1, 4); err != nil {
					return err
				}
				c = &a.nodes[cid]
				c.incons = true
				a.incons = append(a.incons, uint32(cid))
			}
		default:
			var err error
			if a.open, err = growFor(&a.guard.bud, a.open, 1, openEntryBytes); err != nil {
				return err
			}
			a.push(uint32(cid))
		}
	}
	return nil
}

// lower returns the proven lower bound on the optimal length (see
// Bounded.Lower), capped at length when length >= 0.
func (a *astar) lower(length int) int {
	lb := math.MaxInt
	for _, e := range a.open {
		n := &a.nodes[e.id]
		lb = min(lb, int(n.g)+int(n.h))
	}
	for _, id := range a.incons {
		n := &a.nodes[id]
		lb = min(lb, int(n.g)+int(n.h))
	}
	if lb == math.MaxInt {
		// Nothing open or inconsistent: every g is exact.
		if a.goal >= 0 {
			lb = int(a.nodes[a.goal].g)
		} else {
			lb = a.startH
		}
	}
	lb = max(lb, a.startH)
	if (lb-a.parity)%2 != 0 {
		lb++
	}
	if length >= 0 {
		lb = min(lb, length)
	}
	return lb
}

// path returns the blank moves from the start to the goal along the
// parent links.
func (a *astar) path() []uint8 {
	var rev []uint8
	for id := uint32(a.goal); a.nodes[id].move != noMove; id = a.nodes[id].parent {
		rev = append(rev, a.nodes[id].move)
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// answer fills out from the search's state: the solution along the parent
// links (when the goal was reached and withPath), the bounds and the
// stats.
func (a *astar) answer(out *Bounded, withPath bool) {
	out.Length, out.Moves, out.Bound, out.Optimal = -1, "", 0, false
	if a.goal >= 0 && withPath {
		p := a.path()
		out.Length = len(p)
		out.Moves = a.s.moveString(p)
		out.Weight = a.eps
	}
	out.Lower = a.lower(out.Length)
	if out.Length >= 0 {
		out.Optimal = out.Length == out.Lower
		out.Bound = 1
		if out.Lower > 0 {
			out.Bound = float64(out.Length) / float64(out.Lower)
		}
	}
	a.stats.Stored = uint64(a.store.len())
	a.stats.PeakBytes = a.guard.bud.peak
	a.stats.Elapsed = time.Since(a.guard.start)
	out.Stats = a.stats
}

// start validates lim and b, converts b when Options.FromBlankFirst, and
// fills the board fields of the answer out. It returns the board to
// search, and false when it is unsolvable (out is then complete); out is
// the zero Bounded with an error.
func (s *Solver) start(b puzzle.Board, lim Limits) (out Bounded, work puzzle.Board, ok bool, err error) {
	if err := lim.validate(); err != nil {
		return out, nil, false, err
	}
	if err := b.Validate(s.n); err != nil {
		return out, nil, false, err
	}
	out = Bounded{Board: append(puzzle.Board(nil), b...), Converted: s.opt.FromBlankFirst, Length: -1, Lower: -1}
	work = out.Board
	if s.opt.FromBlankFirst {
		work = puzzle.BlankFirstToLast(b)
	}
	out.Searched = append(puzzle.Board(nil), work...)
	if !puzzle.Solvable(s.geom, work, s.goal) {
		return out, nil, false, nil
	}
	out.Solvable = true
	return out, work, true, nil
}

// pathOf is the inverse of moveString: the blank moves (puzzle.Direction
// values, in the tables' convention) of a move string of the solver's
// own making.
func (s *Solver) pathOf(moves string) []uint8 {
	path := make([]uint8, len(moves))
	for i := 0; i < len(moves); i++ {
		d := puzzle.Direction(strings.IndexByte("udlr", moves[i]))
		if s.opt.FromBlankFirst {
			d = d.Opposite()
		}
		path[i] = uint8(d)
	}
	return path
}

// moveString spells the blank moves of path as letters, translated back to
// the given board's convention with Options.FromBlankFirst.
func (s *Solver) moveString(path []uint8) string {
	var sb strings.Builder
	sb.Grow(len(path))
	for _, d := range path {
		dir := puzzle.Direction(d)
		if s.opt.FromBlankFirst {
			dir = dir.Opposite() // the 180° rotation reverses every direction
		}
		sb.WriteByte(dir.Letter())
	}
	return sb.String()
}
