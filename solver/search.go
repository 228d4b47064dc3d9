package solver

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver/fsm"
)

// tableInfo is an additive table prepared for the search.
type tableInfo struct {
	values []uint8
	k      int
	comb   uint64                  // C(N, k)
	weight [puzzle.MaxCells]uint64 // weight[i] = (k-1-i)!, the place value of Lehmer digit i

	// dvals and dpow are the table's directIndex (nil when not used):
	// with them the search keeps rankState.d and looks up dvals[d].
	dvals []uint8
	dpow  [puzzle.MaxCells]uint64

	// za is the zero-aware table of the part (zeroaware.go), nil for a
	// plain one; values and dvals then hold, with the bit zaLazy, the
	// minimum over regions of the placements whose cell set has several.
	za *zeroAware

	// cz is the part held at one bit per entry (compact.go), nil
	// otherwise; values, dvals and za are then nil.
	cz *compact.Table

	// codes is a plain part held as its format 2 codes, 4 bits per entry
	// (format.ReadCodesFile), nil otherwise; values and dvals are then
	// nil. The value of index i with the tiles on cells is
	// Σ_j mdist[j][cells[j]] + 2·code(i) (valueAt): exact, in half the
	// memory of values.
	codes []uint8
	mdist [][puzzle.MaxCells]uint8 // codes: mdist[j][c] = taxicab distance from cell c to tile j's goal cell
}

func newTableInfo(t *format.Table) tableInfo {
	k := len(t.Pattern.Tiles)
	ti := tableInfo{values: t.Values, k: k, comb: t.Pattern.Combinations()}
	for i := 0; i < k; i++ {
		ti.weight[i] = puzzle.Factorial(k - 1 - i)
	}
	if t.Codes != nil {
		p := t.Pattern
		ti.codes = t.Codes
		ti.mdist = make([][puzzle.MaxCells]uint8, k)
		for j, tile := range p.Tiles {
			goal := slices.Index(p.Goal, tile)
			for c := 0; c < p.Geom.N(); c++ {
				ti.mdist[j][c] = uint8(p.Geom.Manhattan(c, goal))
			}
		}
	}
	return ti
}

// hasValues reports whether the part is looked up by index (valueAt):
// held in bytes or as codes, not at 1 bit (cz).
func (ti *tableInfo) hasValues() bool { return ti.values != nil || ti.codes != nil }

// valueAt is the value at index idx of the placement cells (the table's
// cells of its tiles, in order): values[idx], or for a part held as codes
// its tiles' Manhattan distance plus twice the code.
func (ti *tableInfo) valueAt(idx uint64, cells *[puzzle.MaxCells]uint8) uint8 {
	if ti.codes == nil {
		return ti.values[idx]
	}
	var md uint8
	for j := 0; j < ti.k; j++ {
		md += ti.mdist[j][cells[j]]
	}
	return md + ti.code(idx)
}

// code is twice the code of index idx of a part held as codes.
func (ti *tableInfo) code(idx uint64) uint8 {
	return ti.codes[idx>>1] >> (4 * (idx & 1)) & 15 << 1
}

// rankState is the index of one table's pattern tiles, kept in parts so
// that most moves update it in O(1): the set of occupied cells, its
// colexicographic rank m, and the order rank ord of the tiles within the
// occupied cells. The table index is ord*C(N,k) + m.
type rankState struct {
	mask uint64
	m    uint64
	ord  uint64
	d    uint64 // the directIndex index, when the table has one
}

// rank computes the rankState of the placement cells (cells[i] = cell of
// the i-th pattern tile, tiles ascending) with the ranking functions of
// package puzzle: puzzle.RankingCellsetOrder, the same index as
// Pattern.Rank, without allocating.
func (ti *tableInfo) rank(cells *[puzzle.MaxCells]uint8) rankState {
	c := cells[:ti.k]
	var mask uint64
	for _, cell := range c {
		mask |= 1 << cell
	}
	st := rankState{mask: mask, m: puzzle.CombinationRank(mask), ord: puzzle.OrderRank(mask, c)}
	for i, cell := range c {
		st.d += uint64(cell) * ti.dpow[i]
	}
	return st
}

// A move of tile p of a table from cell from to the free cell to (the
// table's cells) gives the table's index state and value (with its zaLazy
// bit) after it: through the direct index (ti.dvals not nil) by one
// multiply-add of the index d (directStep), otherwise by the compact rank
// update (movedValue). The searches branch on ti.dvals themselves, so
// that the direct step is inlined into their inner loops (the compact one
// costs a rank update and a lookup far from the last, beside which its
// extra call is nothing).

// directStep is the move's step through the direct index: the index d
// after it (d before it) and the value there.
func (ti *tableInfo) directStep(d uint64, from, to, p uint8) (uint64, uint8) {
	d += (uint64(to) - uint64(from)) * ti.dpow[p&(puzzle.MaxCells-1)]
	return d, ti.dvals[d]
}

// index is the table index of st.
func (ti *tableInfo) index(st rankState) uint64 { return st.ord*ti.comb + st.m }

// moved returns the rankState after the pattern tile with index p (among
// the table's tiles, ascending) moved from cell a to the free cell b;
// cells must already hold b. Let J be the occupied cells strictly between
// a and b in reading order (none for a horizontal move). The tile goes
// from place ra to place rb in the sorted occupied cells (1-based) and the
// tiles on J shift by one place the other way; nothing else changes. So
// the colexicographic rank m changes by C(b,rb) - C(a,ra) plus, for each
// cell s of J at old place r, C(s,r±1) - C(s,r); and in the order rank
// only the comparisons between tile p and the tiles on J flip: the Lehmer
// digit of p (the later tiles it exceeds) changes by ∓|later tiles on J|
// and that of each earlier tile on J by ±1, each digit i weighing (k-1-i)!
// (puzzle.OrderRank). It does not recompute either rank.
func (ti *tableInfo) moved(st rankState, cells *[puzzle.MaxCells]uint8, a, b uint8, p uint8) rankState {
	lo, hi := a, b
	if lo > hi {
		lo, hi = hi, lo
	}
	between := st.mask & (1<<hi - 1) &^ (1<<(lo+1) - 1)
	ra := bits.OnesCount64(st.mask&(1<<a-1)) + 1
	mask := st.mask&^(1<<a) | 1<<b
	if between == 0 {
		return rankState{
			mask: mask,
			m:    st.m - puzzle.Binomial(int(a), ra) + puzzle.Binomial(int(b), ra),
			ord:  st.ord,
		}
	}
	n := bits.OnesCount64(between)
	m := st.m - puzzle.Binomial(int(a), ra)
	ord := st.ord
	if b < a {
		// Up: the tiles on J move one place up, tile p below them.
		rb := ra - n
		m += puzzle.Binomial(int(b), rb)
		r := rb
		for j := between; j != 0; j &= j - 1 {
			c := bits.TrailingZeros64(j)
			m += puzzle.Binomial(c, r+1) - puzzle.Binomial(c, r)
			r++
		}
		for q := 0; q < ti.k; q++ {
			if between&(1<<cells[q]) == 0 {
				continue
			}
			if q < int(p) {
				ord += ti.weight[q]
			} else {
				ord -= ti.weight[p]
			}
		}
	} else {
		// Down: the tiles on J move one place down, tile p above them.
		rb := ra + n
		m += puzzle.Binomial(int(b), rb)
		r := ra + 1
		for j := between; j != 0; j &= j - 1 {
			c := bits.TrailingZeros64(j)
			m += puzzle.Binomial(c, r-1) - puzzle.Binomial(c, r)
			r++
		}
		for q := 0; q < ti.k; q++ {
			if between&(1<<cells[q]) == 0 {
				continue
			}
			if q < int(p) {
				ord -= ti.weight[q]
			} else {
				ord += ti.weight[p]
			}
		}
	}
	return rankState{mask: mask, m: m, ord: ord}
}

// movedValue is the move's step through the compact index (moved), st and
// cells being the table's state before it: the index state after it and
// the value there.
func (ti *tableInfo) movedValue(st *rankState, cells *[puzzle.MaxCells]uint8, from, to, p uint8) (rankState, uint8) {
	next := ti.moved(*st, cells, from, to, p)
	if ti.codes == nil {
		return next, ti.values[ti.index(next)]
	}
	return next, ti.movedMD(cells, to, p) + ti.code(ti.index(next))
}

// movedMD is, for a part held as codes, its tiles' Manhattan distance
// after tile p moved to cell to (cells: the table's cells before it).
func (ti *tableInfo) movedMD(cells *[puzzle.MaxCells]uint8, to, p uint8) uint8 {
	md := ti.mdist[p][to]
	for j := 0; j < ti.k; j++ {
		if j != int(p) {
			md += ti.mdist[j][cells[j]]
		}
	}
	return md
}

// entry is the stored byte behind index idx (a direct index's when the
// table has one): values[idx], dvals[idx], or twice the code of idx.
func (ti *tableInfo) entry(idx uint64) uint8 {
	switch {
	case ti.dvals != nil:
		return ti.dvals[idx]
	case ti.codes != nil:
		return ti.code(idx)
	}
	return ti.values[idx]
}

// entryByte is the byte of memory that holds entry idx, read only to
// bring it into the cache (beamEval.touch).
func (ti *tableInfo) entryByte(idx uint64) uint8 {
	switch {
	case ti.dvals != nil:
		return ti.dvals[idx]
	case ti.codes != nil:
		return ti.codes[idx>>1]
	}
	return ti.values[idx]
}

// noMove is the "previous move" of the root: it excludes no move.
const noMove = 4

// undo[d] is the move that undoes d (none for noMove).
var undo = [5]uint8{1, 0, 3, 2, 0xFF}

// Duplicate-path pruning (Taylor & Korf 1993, "Pruning duplicate nodes in
// depth-first search", AAAI): IDA* steps the automaton of package fsm once
// per child and skips the child when its move completes a forbidden move
// string (one whose effect a shorter or smaller string has, within the
// cells it visits; the immediate reversals among them), which never cuts
// the smallest of the optimal solutions. dupDepth is the length of the
// longest forbidden strings used: depth 6 is the former 2x2 rule
// (reversals and 1.5 turns round a 2x2 square); see fsm for the others.
// Depth 12 (2,540 strings, 7,794 states) took the least CPU time on
// Korf's 100 15-puzzle instances with 6-6-3 + reflection: 28% fewer nodes
// than depth 6, against 33% for depth 14 (54,923 states), whose larger
// table costs more per node (solver/RESULTS.md).
var dupDepth = 12

// dupDepthCatalogue is dupDepth for a catalogue of several partitions,
// whose children cost a lookup per partition. Depth 14 (54,923 states)
// generated 7% and 9.5% fewer nodes than depth 12 on Korf's 24-puzzle
// instances #38 and #40 with preset 24-best (35,705,238 -> 33,147,381 and
// 4,867,839 -> 4,405,604); depth 16 (395,123 states, a 6.3 MB table)
// 6.6% fewer than depth 14 on Korf's five easiest with 24-best
// (202,732,850 -> 189,412,742) for 0.91 of the CPU time (112.7 -> 102.4
// CPU-s, scripts/korf24.sh -n 5), for the same optimal lengths.
var dupDepthCatalogue = 16

// dupTable returns the transition table of the automaton of depth
// depth (dupDepth or dupDepthCatalogue) as dupState values
// (fsm.Automaton.Table: state st, move m -> table[st*4+m], dupDead for
// fsm.Dead), compiled once per depth (1.4 s for depth 16).
func dupTable(depth int) ([]dupState, error) {
	dupMu.Lock()
	defer dupMu.Unlock()
	if t, ok := dupTables[depth]; ok {
		return t, nil
	}
	a, err := fsm.ForDepth(depth)
	if err != nil {
		return nil, fmt.Errorf("solver: duplicate-path automaton: %w", err)
	}
	if uint64(a.States()) > uint64(dupDead) {
		return nil, fmt.Errorf("solver: duplicate-path automaton of depth %d has %d states, more than the %d of 32-bit states", depth, a.States(), uint64(dupDead))
	}
	t := make([]dupState, len(a.Table()))
	for i, v := range a.Table() {
		t[i] = dupDead
		if v != fsm.Dead {
			t[i] = dupState(v)
		}
	}
	dupTables[depth] = t
	return t, nil
}

// dupDead marks a forbidden move in the table of dupTable.
const dupDead dupState = 1<<32 - 1

// dupState is a state of the duplicate-path automaton (dupTable): 32 bits,
// as depth 16 has 395,123 states (depth 14 fitted 16 bits).
type dupState = uint32

var (
	dupMu     sync.Mutex
	dupTables = map[int][]dupState{}
)

// ctxEvery is the number of moves made between checks of the context: a
// few microseconds of search, so that a time limit or a cancellation
// stops IDA* at once.
const ctxEvery = 1 << 12

// searcher holds the mutable state of one IDA* search. The heuristic is
// kept per table and updated incrementally: a move changes the cell of one
// tile, so only the table holding it (and, with reflection, the table
// holding its reflected image) is looked up again.
type searcher struct {
	s *Solver
	tableState
	n       int
	board   [puzzle.MaxCells]uint8 // tile in each cell
	blank   uint8
	bound   int
	next    int
	nodes   uint64
	path    []uint8
	ctx     context.Context
	ctxLeft int
	err     error

	// Tree splitting (idaParallel): cut > 0 records the nodes at depth cut
	// in frontier instead of searching below them; a search of the subtree
	// of frontier node item gives up when stop drops below item.
	cut      int
	frontier []frontierNode
	stop     *atomic.Int64
	item     int64

	levels []*catLevel // a catalogue's steps per depth (dfs)
}

// newSearcher returns a searcher at the root b (in the tables'
// convention, solvable) with its table indices and values computed.
func (s *Solver) newSearcher(ctx context.Context, b []uint8) *searcher {
	x := &searcher{s: s, tableState: tableState{reflect: s.reflSide}, n: s.n}
	x.reset(ctx, b)
	return x
}

// reset puts x at the root b (as newSearcher) with nothing searched,
// keeping its path buffer, so that idaParallel's threads reuse one
// searcher for all their subtrees instead of leaving one for the garbage
// collector per subtree (which, beside hundreds of MiB of tables, let the
// heap grow by as much again before a collection).
func (x *searcher) reset(ctx context.Context, b []uint8) {
	x.ctx, x.ctxLeft = ctx, ctxEvery
	x.bound, x.next, x.nodes, x.err = 0, 0, 0, nil
	x.path = x.path[:0]
	x.cut, x.frontier, x.stop, x.item = 0, nil, nil, 0
	for c, t := range b {
		x.board[c] = t
		if t == 0 {
			x.blank = uint8(c)
		}
	}
	x.load(x.s, b)
}

// inf is the "no bound yet" value of searcher.next.
const inf = int(^uint(0) >> 1)

// ida runs IDA* from b (in the tables' convention, solvable) and returns
// the blank moves of an optimal solution and the nodes generated. With
// Options.Threads > 1 the tree of every iteration is split among threads
// (idaParallel), with the same result.
func (s *Solver) ida(ctx context.Context, b puzzle.Board) ([]uint8, uint64, error) {
	return s.idaUpTo(ctx, b, inf, nil)
}

// errUpper is the Err of the StoppedError of idaUpTo when the bound has
// reached the length of a known solution.
var errUpper = errors.New("the bound reached the known solution's length")

// idaUpTo is ida that stops, with a StoppedError wrapping errUpper and
// Lower the bound, once the bound of an iteration would be upper or more:
// a solution of length upper being known (same parity as every solution),
// it is then proven optimal. upper = inf never stops. onBound, when not
// nil, is called with each new bound (every shorter one searched to the
// end) and the nodes generated so far.
func (s *Solver) idaUpTo(ctx context.Context, b puzzle.Board, upper int, onBound func(bound int, nodes uint64)) ([]uint8, uint64, error) {
	if s.opt.Threads > 1 {
		return s.idaParallel(ctx, b, upper, onBound)
	}
	x := s.newSearcher(ctx, b)
	if x.isGoal() {
		return nil, 0, nil
	}
	x.bound = x.value()
	for {
		if err := ctx.Err(); err != nil { // a limit shorter than one check interval
			return nil, x.nodes, stopped(err, x.bound, x.nodes)
		}
		if x.bound >= upper {
			return nil, x.nodes, &StoppedError{Lower: x.bound, Nodes: x.nodes, Err: errUpper}
		}
		x.next = inf
		x.path = x.path[:0]
		if x.dfs(0, 0) {
			if x.err != nil {
				return nil, x.nodes, stopped(x.err, x.bound, x.nodes)
			}
			return x.path, x.nodes, nil
		}
		if x.next == inf {
			return nil, x.nodes, fmt.Errorf("solver: search space exhausted without reaching the goal from %q", b)
		}
		x.bound = x.next
		if onBound != nil {
			onBound(x.bound, x.nodes)
		}
	}
}

func (x *searcher) isGoal() bool {
	goal := x.s.goal
	for c := 0; c < x.n; c++ {
		if x.board[c] != goal[c] {
			return false
		}
	}
	return true
}

// dfs expands the current state at depth g, in state fs of the
// duplicate-path automaton (0 at the root). It returns true when the goal
// was found (x.path then holds the solution) or the search must stop
// (x.err set). It is IDA*'s one loop for every kind of heuristic: an
// additive set's (plain or zero-aware tables: the steps of childOf) and a
// catalogue's (Solver.cat: the partitions' sums of catalogue.eval). The
// kind is the Solver's, fixed at New; the branch on it is taken the same
// way at every node, and each kind's steps are written out here, so that
// a child costs the calls it cost in a loop of its own.
func (x *searcher) dfs(g int, fs dupState) bool {
	s := x.s
	blank := x.blank
	m := &s.nbr[blank]
	row := s.dup[int(fs)<<2 : int(fs)<<2+4 : int(fs)<<2+4]
	var c, cR, back, backR childStep // an additive child's steps, and their undoing
	var lv *catLevel                 // a catalogue child's steps
	if s.cat != nil {
		lv = x.level(g)
	}
	for i := uint8(0); i < m.n; i++ {
		dir := m.dir[i]
		nfs := row[dir&3]
		if nfs == dupDead {
			continue // a duplicate path (fsm.Dead)
		}
		to := m.to[i]
		tile := x.board[to]
		x.nodes++
		var h int
		if lv != nil {
			// As for an additive set: the reflected side only for the
			// children the regular side keeps.
			cat := s.cat
			thr := x.bound - g - 1 // a child whose h exceeds thr is cut
			if h, _ = cat.eval(x.creg, &lv.reg, cat.cell, tile, blank, to, thr, x.next-g-1); h > thr {
				x.next = min(x.next, g+1+h)
				continue
			}
			if x.reflect {
				rtile := s.reflTile[tile]
				hr, _ := cat.eval(x.crefl, &lv.refl, cat.cellR, rtile, blank, to, thr, x.next-g-1)
				if hr > thr {
					x.next = min(x.next, g+1+hr)
					continue
				}
				h = max(h, hr)
				cat.make(x.crefl, &lv.refl, len(cat.tile[rtile]))
			}
			cat.make(x.creg, &lv.reg, len(cat.tile[tile]))
		} else {
			// The tile moves from cell to to cell blank. The regular
			// heuristic first; the reflected one only when the regular one
			// does not already cut (Korf's program does the same): a pruned
			// child costs one table lookup. (Same decisions; x.next may come
			// out lower, which can only cost an extra iteration, rare since
			// every f has the parity of the solution.)
			s.childOf(&c, &x.reg, &s.partCell, tile, blank, to)
			h = c.sum
			if c.lazy && g+1+h <= x.bound {
				// A zero-aware part gave a lower bound that does not cut:
				// its exact value. (A cut by the lower bound is a cut by
				// the exact value, so the decisions and node counts are
				// the same; see solver/zeroaware.go on the next bound.)
				s.resolve(&c, &x.reg)
				h = c.sum
			}
			if f := g + 1 + h; f > x.bound {
				x.next = min(x.next, f)
				continue
			}
			if x.reflect {
				s.childOf(&cR, &x.refl, &s.partCellR, s.reflTile[tile], blank, to)
				h = max(h, cR.sum)
				if cR.lazy && g+1+h <= x.bound {
					s.resolve(&cR, &x.refl)
					h = max(h, cR.sum)
				}
				if f := g + 1 + h; f > x.bound {
					x.next = min(x.next, f)
					continue
				}
				x.refl.make(&cR, &backR)
			}
			x.reg.make(&c, &back)
		}
		// Make the move.
		x.board[blank], x.board[to] = tile, 0
		x.blank = to
		x.path = append(x.path, dir)
		if s.nodeHook != nil {
			s.nodeHook(x.board[:x.n], h, x.value())
		}

		if h == 0 && x.isGoal() {
			return true
		}
		if x.ctxLeft--; x.ctxLeft <= 0 && x.interrupted() {
			return true
		}
		if g+1 == x.cut {
			// Splitting the tree (idaParallel): record the subtree root
			// instead of searching it.
			x.frontier = append(x.frontier, frontierNode{path: append([]uint8(nil), x.path...), nodes: x.nodes})
		} else if x.dfs(g+1, nfs) {
			return true
		}

		// Undo it.
		x.path = x.path[:len(x.path)-1]
		x.blank = blank
		x.board[blank], x.board[to] = 0, tile
		if lv != nil {
			cat := s.cat
			cat.unmake(x.creg, &lv.reg, len(cat.tile[tile]))
			if x.reflect {
				cat.unmake(x.crefl, &lv.refl, len(cat.tile[s.reflTile[tile]]))
			}
			continue
		}
		x.reg.make(&back, &c)
		if x.reflect {
			x.refl.make(&backR, &cR)
		}
	}
	return false
}

// interrupted checks, every ctxEvery moves made, whether the search must
// stop: its context ended or (idaParallel) its subtree was abandoned. It
// sets x.err then.
func (x *searcher) interrupted() bool {
	x.ctxLeft = ctxEvery
	if err := x.ctx.Err(); err != nil {
		x.err = err
		return true
	}
	if x.stop != nil && x.stop.Load() < x.item {
		x.err = errAbandoned
		return true
	}
	return false
}
