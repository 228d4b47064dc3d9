package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Options configure a Solver.
type Options struct {
	// Reflect also looks up the state reflected about the main diagonal
	// (cell (r,c) -> (c,r), tiles relabelled so that the goal maps to
	// itself) and uses the maximum of the two heuristics. It needs a square
	// board whose goal has the blank on the main diagonal (true of the
	// blank-last and blank-first goals). It has no effect with an exact
	// table. Beam searches on an additive set then rank children by the
	// sum of the two sides, not their maximum (Solver.rankSides).
	Reflect bool
	// Threads is the number of goroutines that share one IDA* search
	// (parallel IDA*: each iteration's tree is split at a shallow depth and
	// the subtrees are handed out in order; see idaParallel). <= 1 means a
	// single-threaded search. The result (moves and node count) is the
	// same for every value.
	Threads int
	// FromBlankFirst says that input boards use the blank-first convention
	// (blank in cell 0, tile t in cell t: Korf's instances) while the tables
	// are for the blank-last goal. Each board is converted with
	// puzzle.BlankFirstToLast (rotated by 180 degrees and relabelled),
	// which preserves distances; the moves are translated back (u<->d,
	// l<->r, Direction.Opposite) so that they solve the original board to
	// the blank-first goal.
	FromBlankFirst bool
	// Compact makes IDA* look up the tables through their compact index
	// only (RankingCellsetOrder). By default each table of at most 2^28
	// positional entries (N^k: the 6-tile tables of the 24-puzzle, tables
	// of up to 7 tiles on the 15-puzzle) is copied into a direct index
	// (directIndex), which costs N^k bytes more memory per distinct table
	// and a second or two of set-up, and makes the rank update of a move a
	// single addition. The zero-aware tables of a catalogue of several
	// partitions always use their compact index (catalogue.go).
	Compact bool
	// MaxDirectBytes bounds the memory of the direct indexes (without
	// Compact): they are built for the set's distinct tables in the order
	// of its parts while their total stays within this many bytes; the
	// other tables are searched through their compact index. 0 means no
	// bound.
	MaxDirectBytes uint64
	// ZeroAwareBits holds the zero-aware tables of a catalogue of several
	// partitions at one bit per entry instead of a byte plus the placement
	// table (compact.go; package compact): 22.6 MB instead of 309 MB per
	// 6-tile table of the 24-puzzle, the same values and nodes. A table
	// that fails compact's checks is kept in bytes (CompactErrors). Other
	// zero-aware tables (an additive set's) keep their byte form. It is
	// made for IDA*, which carries the values along its path: every other
	// load of a state (the roots, idaParallel's subtree roots, and each
	// state the other searches expand) walks each part to the goal
	// (compact.Table.Value, 4·k·h lookups), which is correct but slow.
	ZeroAwareBits bool
	// Packed are zero-aware tables already packed (compact.Pack), by the
	// table they were packed from, for ZeroAwareBits: a caller that packs
	// each table as it is read need not hold them all in bytes at once.
	// A table given here is not packed again; its Values are not read.
	Packed map[*format.Table]*compact.Table
	// RankWeights, when not nil, ranks the children of a beam search
	// (AlgBeamSearch, AlgAnytimeBeamSearch) by Σ w_i·h_i over the additive
	// set's parts (one weight per part, in the set's order of parts, each
	// 0 to MaxRankWeight) instead of by h: a sharper estimate of the
	// distance, not admissible, fitted to known solutions
	// (scripts/fit-rank-weights.py). The search still prunes and bounds
	// with the admissible h. Not with Reflect, catalogues or exact tables.
	RankWeights []float64
	// Polish chooses the steps of the path improvement that follows the
	// anytime beam search's beams (improve.go): PolishWindows,
	// PolishTail, both, or PolishNone. The zero value is PolishWindows
	// alone: on DeepCubeA's 35-puzzle instances 0-11 at 45 s the exact
	// tail shortened no answer after the windows (docs/big-boards.md).
	Polish PolishSteps
}

// PolishSteps is a set of steps of the path improvement after the
// anytime beam search (Options.Polish).
type PolishSteps uint8

const (
	// PolishWindows re-solves windows of the path (16 to 128 moves) by
	// IDA* between their two ends and cuts the path's cycles.
	PolishWindows PolishSteps = 1 << iota
	// PolishTail finishes the path with an exact tail: IDA* from a state
	// of the path towards the goal, meeting a ball of every state within
	// about 14 moves of the goal with its exact distance (perimeter
	// search; goalball.go), replaces the path's rest by a shortest one.
	// The ball (up to 2^20 states, at most GoalBallBytes) is built once
	// per Solver, beside the first beams, in 1.3 to 1.7 s on the 35- and
	// 48-puzzle.
	PolishTail
	// PolishNone runs no step (with any other bit).
	PolishNone PolishSteps = 1 << 7
)

// Runs reports whether the steps p (Options.Polish) include step
// (PolishWindows or PolishTail).
func (p PolishSteps) Runs(step PolishSteps) bool {
	switch {
	case p&PolishNone != 0:
		return false
	case p == 0:
		return step == PolishWindows
	}
	return p&step != 0
}

// MaxRankWeight is the largest weight of Options.RankWeights.
const MaxRankWeight = 8

// Result is the answer for one board.
type Result struct {
	// Board is the board as given (before any conversion).
	Board puzzle.Board
	// Solvable is false when Board cannot reach the goal; Length is then -1
	// and Moves empty.
	Solvable bool
	// Length is the number of moves of an optimal solution.
	Length int
	// Moves lists the blank's moves ('u', 'd', 'l', 'r') that take Board to
	// the goal (the blank-first goal when Converted).
	Moves string
	// Nodes is the number of states generated (see the package comment).
	Nodes uint64
	// Elapsed is the wall time of the search (0 for an unsolvable board).
	Elapsed time.Duration
	// Converted is true when Board was given in the blank-first convention
	// and converted to the tables' blank-last goal (Options.FromBlankFirst).
	Converted bool
	// Searched is the board actually searched against the tables' goal:
	// Board itself, or its blank-last conversion when Converted.
	Searched puzzle.Board
}

// Solver solves boards against one format.Set. It is read-only after New
// (but for the exact tail's goal ball, built once on first use under a
// sync.Once) and safe for concurrent use by several goroutines.
type Solver struct {
	set  *format.Set
	opt  Options
	geom puzzle.Geometry
	n    int
	goal puzzle.Board

	exact *format.Table // the exact table, or nil for an additive set

	// explored counts every node idaParallel generates, including those
	// of subtrees it abandons (which Result.Nodes leaves out), for tests
	// of its overhead.
	explored atomic.Uint64

	// Additive search data.
	directBytes  uint64 // memory of the direct indexes built
	compactBytes uint64 // memory of the tables held at 1 bit (compact.go)
	compactErrs  []error
	released     bool // a table held at 1 bit or as codes has no byte values
	// reflSide: the search keeps the reflected side of the heuristic
	// (Options.Reflect, unless the catalogue is closed under the
	// reflection: reflectClosed).
	reflSide  bool
	tabs      []tableInfo
	tileTab   [puzzle.MaxCells]int8             // part holding tile t, -1 when none
	tileIdx   [puzzle.MaxCells]uint8            // index of tile t's image within its part's table tiles
	partCell  [maxTables][puzzle.MaxCells]uint8 // per part, cell c -> cell of the part's symmetry
	partCellR [maxTables][puzzle.MaxCells]uint8 // per part, partCell after the main-diagonal reflection
	reflCell  [puzzle.MaxCells]uint8            // cell (r,c) -> cell (c,r)
	reflTile  [puzzle.MaxCells]uint8            // tile t -> tile whose goal cell is reflCell(goal cell of t)
	nbr       [puzzle.MaxCells]moves            // blank moves from each cell, in order u, d, l, r
	dup       []dupState                        // duplicate-path automaton of IDA* (dupTable)
	goalPos   [puzzle.MaxCells]uint8

	// rankW are Options.RankWeights in 1/rankScale units, nil without.
	rankW []int
	// rankSides: a beam search ranks its children by the sum of the
	// regular and the reflected additive sums (twice the mean of the two
	// lower bounds), not by their maximum h, which still prunes and
	// bounds. Set with Options.Reflect on an additive set: the mean of two
	// partitions' estimates errs less than either, and the maximum of two
	// lower bounds keeps the larger one's errors. On DeepCubeA's 35-puzzle
	// instances 0-35 at 45 s (35-puzzle preset) the beams' solutions were
	// shorter on average than with the maximum (docs/big-boards.md). Not
	// for catalogues: on preset 35-catalogue the sum of its four
	// partitions' sums ranked no better than their maximum (instances
	// 0-11: 1,591 against 1,581 moves, within the runs' noise).
	rankSides bool
	// cat is the search data of a catalogue of several partitions
	// (catalogue.go), nil otherwise.
	cat *catalogue
	// ball is the goal ball of the exact tail (goalball.go), built in a
	// goroutine that startBall starts once.
	ballOnce  sync.Once
	ballReady chan struct{} // closed once ball is built
	ball      *goalBall
	// nodeHook, when set (tests only), is called by dfs on every state
	// it makes, with the board (the tile in each cell), the heuristic it
	// evaluated for the move and the value of its incremental state.
	nodeHook func(board []uint8, h, incremental int)
}

// moves lists the blank's legal moves from one cell.
type moves struct {
	n   uint8
	dir [4]uint8 // puzzle.Direction
	to  [4]uint8 // cell the blank moves to
}

// maxTables bounds the number of tables of an additive set (each holds at
// least one of at most 24 tiles).
const maxTables = puzzle.MaxCells

// neighbourMoves fills nbr with the blank moves from each of g's n cells,
// in the order of puzzle.Directions.
func neighbourMoves(g puzzle.Geometry, n int, nbr *[puzzle.MaxCells]moves) {
	for c := 0; c < n; c++ {
		m := &nbr[c]
		for _, d := range puzzle.Directions {
			if to, ok := g.Step(c, d); ok {
				m.dir[m.n] = uint8(d)
				m.to[m.n] = uint8(to)
				m.n++
			}
		}
	}
}

// New returns a Solver for the tables of set; see NewContext.
func New(set *format.Set, opt Options) (*Solver, error) {
	return NewContext(context.Background(), set, opt)
}

// NewContext returns a Solver for the tables of set, which must come from
// format.NewSet, NewSetParts or OpenSet: New trusts their checks (complete
// tables, one board and goal, disjoint parts, each part's mapping onto its
// table) and does not repeat them. It fails when set is nil or empty,
// when opt.Reflect is asked for a goal that the main-diagonal reflection
// does not map to itself (a non-square board, or a blank off the
// diagonal), when opt.FromBlankFirst is asked for tables whose goal is not
// blank-last, or with ctx's error when ctx ends while it copies tables
// into their direct indexes (about a second for a 6-tile table of the
// 24-puzzle; ctx is checked every few milliseconds of the copy).
func NewContext(ctx context.Context, set *format.Set, opt Options) (*Solver, error) {
	return newWith(ctx, set, opt, false)
}

// newWith is NewContext; forceCat searches a catalogue of one partition
// as a catalogue (catalogue.eval in dfs) instead of as the additive set of its parts
// (tests only: both give the same search).
func newWith(ctx context.Context, set *format.Set, opt Options, forceCat bool) (*Solver, error) {
	if set == nil || len(set.Parts) == 0 {
		return nil, errors.New("solver: empty table set")
	}
	s, err := newBase(set.Geom, set.Goal, opt)
	if err != nil {
		return nil, err
	}
	s.set = set
	// The one dispatch on the set's kind: the walk down an exact table,
	// or IDA*'s heuristic (dfs) kept per additive table (plain or
	// zero-aware) or per catalogue part.
	switch set.Kind() {
	case format.KindExact:
		s.exact = set.Parts[0].Table
	case format.KindCatalogue:
		if len(set.Partitions) > 1 || forceCat {
			err = s.addCatalogue(ctx)
			break
		}
		err = s.addParts(ctx) // one partition: the additive set of its parts
	default: // format.KindAdditive, format.KindZeroAware
		err = s.addParts(ctx)
	}
	if err != nil {
		return nil, err
	}
	s.reflSide = opt.Reflect && s.exact == nil && (s.cat == nil || !s.reflectClosed())
	s.rankSides = s.reflSide && s.cat == nil
	if err := s.setRankWeights(opt.RankWeights); err != nil {
		return nil, err
	}
	if opt.Polish&^(PolishWindows|PolishTail|PolishNone) != 0 {
		return nil, fmt.Errorf("solver: polish steps %#x: want PolishWindows, PolishTail or PolishNone", uint8(opt.Polish))
	}
	if s.cat != nil && len(set.Partitions) > 1 && dupDepthCatalogue != dupDepth {
		if s.dup, err = dupTable(dupDepthCatalogue); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// PrepareCatalogue compiles the duplicate-path automaton IDA* prunes with
// under a catalogue of several partitions (depth dupDepthCatalogue, about
// 1.4 CPU-s; compiled once per process), which New would otherwise compile
// after the tables are loaded: a caller runs it in a goroutine while they
// load. Safe for concurrent use; an error is New's to report.
func PrepareCatalogue() {
	_, _ = dupTable(dupDepthCatalogue)
}

// NewBoard returns a Solver without tables for boards of g and the given
// goal: it runs AlgBidirectional only (Search refuses the others). Errors
// about goal wrap puzzle.ErrBoard.
func NewBoard(g puzzle.Geometry, goal puzzle.Board) (*Solver, error) {
	if err := goal.Validate(g.N()); err != nil {
		return nil, fmt.Errorf("goal: %w", err)
	}
	return newBase(g, goal, Options{})
}

// newBase sets up what every Solver has: the board, the goal, the moves
// and, with opt.Reflect, the reflection.
func newBase(g puzzle.Geometry, goal puzzle.Board, opt Options) (*Solver, error) {
	n := g.N()
	s := &Solver{opt: opt, geom: g, n: n, goal: append(puzzle.Board(nil), goal...)}
	if opt.FromBlankFirst && !goal.Equal(puzzle.BlankLastGoal(g)) {
		return nil, fmt.Errorf("solver: converting blank-first boards needs blank-last tables, but the tables' goal is %s", puzzle.GoalName(g, goal))
	}
	for c := 0; c < n; c++ {
		s.goalPos[goal[c]] = uint8(c)
	}
	neighbourMoves(g, n, &s.nbr)
	dup, err := dupTable(dupDepth)
	if err != nil {
		return nil, err
	}
	s.dup = dup
	if !opt.Reflect {
		return s, nil
	}
	if g.W != g.H {
		return nil, fmt.Errorf("solver: --reflect needs a square board, not %s", g)
	}
	if r, c := g.Row(int(s.goalPos[0])), g.Col(int(s.goalPos[0])); r != c {
		return nil, fmt.Errorf("solver: --reflect needs a goal mapped to itself by the main-diagonal reflection; the goal's blank is in cell %d, off the diagonal", s.goalPos[0])
	}
	for c := 0; c < n; c++ {
		s.reflCell[c] = uint8(g.Col(c)*g.W + g.Row(c))
	}
	for t := 0; t < n; t++ {
		s.reflTile[t] = goal[s.reflCell[s.goalPos[t]]]
	}
	return s, nil
}

// addParts prepares the additive set's parts for the search: each table
// (through its direct index when one is built), the table and index of
// each tile, and each part's cell map.
func (s *Solver) addParts(ctx context.Context) error {
	for t := range s.tileTab {
		s.tileTab[t] = -1
	}
	direct := map[*format.Table]*directIndex{}
	zas := map[*format.Table]*zeroAwareTable{}
	parts := s.set.Parts
	if s.set.Catalogue() {
		// One partition: the additive set of its parts.
		parts = nil
		for _, i := range s.set.Partitions[0] {
			parts = append(parts, s.set.Parts[i])
		}
	}
	for i, p := range parts {
		ti, err := s.prepareTable(ctx, direct, zas, p.Table, true)
		if err != nil {
			return err
		}
		s.tabs = append(s.tabs, ti)
		m := p.Mapping()
		for c := 0; c < s.n; c++ {
			s.partCell[i][c] = uint8(c)
			if m != nil {
				s.partCell[i][c] = m.Cell[c]
			}
		}
		for c := 0; c < s.n && s.opt.Reflect; c++ {
			// reflected state: tile reflTile[t] on reflCell[c]
			s.partCellR[i][c] = s.partCell[i][s.reflCell[c]]
		}
		for _, tile := range p.Pattern.Tiles {
			img := tile
			if m != nil {
				img = m.Tile[tile]
			}
			s.tileTab[tile] = int8(i)
			s.tileIdx[tile] = uint8(slices.Index(p.Table.Pattern.Tiles, img))
		}
	}
	return nil
}

// directFor returns the direct index of t, building it (once per table,
// within Options.MaxDirectBytes) unless Options.Compact; nil when t is
// searched through its compact index.
func (s *Solver) directFor(ctx context.Context, built map[*format.Table]*directIndex, t *format.Table) (*directIndex, error) {
	if s.opt.Compact || t.Codes != nil {
		return nil, nil
	}
	if d, ok := built[t]; ok {
		return d, nil
	}
	var d *directIndex
	size := directSize(t.Pattern.Geom.N(), len(t.Pattern.Tiles))
	if size > 0 && (s.opt.MaxDirectBytes == 0 || s.directBytes+size <= s.opt.MaxDirectBytes) {
		var err error
		if d, err = newDirectIndex(ctx, t); err != nil {
			return nil, err
		}
		s.directBytes += size
	}
	built[t] = d
	return d, nil
}

// Geometry is the board of the solver's tables.
func (s *Solver) Geometry() puzzle.Geometry { return s.geom }

// Goal is the goal boards are solved to: the tables' goal, or the
// blank-first goal with Options.FromBlankFirst.
func (s *Solver) Goal() puzzle.Board {
	if s.opt.FromBlankFirst {
		return puzzle.BlankFirstGoal(s.geom)
	}
	return append(puzzle.Board(nil), s.goal...)
}

// Options returns the options of New.
func (s *Solver) Options() Options { return s.opt }

// Heuristic returns the heuristic value the search uses for b (a board in
// the tables' convention, not converted): the sum of the table values, or
// with Reflect the maximum of that sum and the sum for the reflected board.
// b must be valid and solvable. It is 0 for a Solver without tables
// (NewBoard). When a table held at 1 bit (Options.Packed) has had its
// byte values released (format.Table.ReleaseValues), or a table is held as
// codes (format.ReadCodesFile), it is the search's own evaluation
// (hcalc.load) instead, which needs no byte table.
func (s *Solver) Heuristic(b puzzle.Board) int {
	if s.set == nil {
		return 0 // NewBoard: no tables
	}
	if s.released {
		var board [puzzle.MaxCells]uint8
		copy(board[:], b)
		return newHcalc(s).load(&board)
	}
	pos := b.Positions()
	h := s.set.Heuristic(pos)
	if s.opt.Reflect && s.exact == nil {
		rpos := make([]uint8, s.n)
		for t := 0; t < s.n; t++ {
			rpos[s.reflTile[t]] = s.reflCell[pos[t]]
		}
		h = max(h, s.set.Heuristic(rpos))
	}
	return h
}

// Solve returns an optimal solution of b; see solveContext.
func (s *Solver) solve(b puzzle.Board) (Result, error) {
	return s.solveContext(context.Background(), b)
}

// solveContext returns an optimal solution of b, which must be a valid
// board of the tables' size (in the blank-first convention when
// Options.FromBlankFirst). An unsolvable board gives Result.Solvable false
// without search. The search stops with ctx's error when ctx ends.
// Errors about the board wrap puzzle.ErrBoard.
func (s *Solver) solveContext(ctx context.Context, b puzzle.Board) (res Result, err error) {
	if err := b.Validate(s.n); err != nil {
		return Result{}, err
	}
	res = Result{Board: append(puzzle.Board(nil), b...), Length: -1, Converted: s.opt.FromBlankFirst}
	work := res.Board
	if s.opt.FromBlankFirst {
		work = puzzle.BlankFirstToLast(b)
	}
	res.Searched = append(puzzle.Board(nil), work...)
	if !puzzle.Solvable(s.geom, work, s.goal) {
		return res, nil
	}
	res.Solvable = true
	var path []uint8
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	if s.exact != nil {
		path, res.Nodes, err = s.walk(work)
	} else {
		path, res.Nodes, err = s.ida(ctx, work)
	}
	if err != nil {
		var se *StoppedError
		if errors.As(err, &se) {
			se.Elapsed = time.Since(start)
		}
		return Result{}, err
	}
	res.Length = len(path)
	res.Moves = s.moveString(path)
	return res, nil
}

// Apply plays the blank moves on b (which is not modified) and returns the
// resulting board, or an error at the first illegal move or unknown letter.
func Apply(g puzzle.Geometry, b puzzle.Board, moves string) (puzzle.Board, error) {
	out := append(puzzle.Board(nil), b...)
	blank := -1
	for c, t := range out {
		if t == 0 {
			blank = c
		}
	}
	if blank < 0 || len(out) != g.N() {
		return nil, fmt.Errorf("%w: not a %s board with a blank", puzzle.ErrBoard, g)
	}
	for i := 0; i < len(moves); i++ {
		d := strings.IndexByte("udlr", moves[i])
		if d < 0 {
			return nil, fmt.Errorf("move %d: %q is not one of u, d, l, r", i+1, moves[i])
		}
		to, ok := g.Step(blank, puzzle.Direction(d))
		if !ok {
			return nil, fmt.Errorf("move %d (%c): the blank would leave the board", i+1, moves[i])
		}
		out[blank], out[to] = out[to], 0
		blank = to
	}
	return out, nil
}

// walk descends the exact table from b to the goal. It fails only when the
// table is wrong (a state with no neighbour one closer).
func (s *Solver) walk(b puzzle.Board) ([]uint8, uint64, error) {
	t := s.exact
	pos := b.Positions()
	d := t.Value(pos)
	path := make([]uint8, 0, d)
	var nodes uint64
	board := append(puzzle.Board(nil), b...)
	blank := int(pos[0])
	skip := undo[noMove]
	for d > 0 {
		m := &s.nbr[blank]
		moved := false
		for i := uint8(0); i < m.n; i++ {
			if m.dir[i] == skip {
				continue // back to the parent, one farther
			}
			to := int(m.to[i])
			tile := board[to]
			pos[0], pos[tile] = uint8(to), uint8(blank)
			nodes++
			if t.Value(pos) == d-1 {
				board[blank], board[to] = tile, 0
				blank = to
				path = append(path, m.dir[i])
				skip = undo[m.dir[i]]
				d--
				moved = true
				break
			}
			pos[0], pos[tile] = uint8(blank), uint8(to)
		}
		if !moved {
			// Impossible for a valid exact table: every state at distance
			// d > 0 has a neighbour at d-1.
			return nil, nodes, fmt.Errorf("solver: exact table %s is inconsistent: state %q has value %d but no neighbour with value %d", t.Pattern, board, d, d-1)
		}
	}
	if !board.Equal(s.goal) {
		return nil, nodes, fmt.Errorf("solver: exact table %s is inconsistent: state %q has value 0 but is not the goal", t.Pattern, board)
	}
	return path, nodes, nil
}

// rankScale is the fixed-point unit of the beam's weighted ranking key
// (Options.RankWeights): weights are rounded to 1/64.
const rankScale = 64

// setRankWeights checks Options.RankWeights against the set and keeps
// them in fixed point.
func (s *Solver) setRankWeights(w []float64) error {
	if w == nil {
		return nil
	}
	switch {
	case s.exact != nil || s.cat != nil:
		return errors.New("solver: rank weights need an additive set (not an exact table or a catalogue)")
	case s.opt.Reflect:
		return errors.New("solver: rank weights do not go with --reflect")
	case len(w) != len(s.tabs):
		return fmt.Errorf("solver: %d rank weights for %d parts: want one per part", len(w), len(s.tabs))
	}
	s.rankW = make([]int, len(w))
	for i, v := range w {
		if !(v >= 0 && v <= MaxRankWeight) { // also NaN
			return fmt.Errorf("solver: rank weight %d is %v: want 0 to %d", i+1, v, MaxRankWeight)
		}
		s.rankW[i] = int(math.Round(v * rankScale))
	}
	return nil
}
