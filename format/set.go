package format

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Set is a group of tables that together form one heuristic: either one
// exact table, or additive pattern databases whose parts have pairwise
// disjoint tile sets on the same board and goal. Their sum is admissible.
//
// A table may serve several parts: the part's own tiles are looked up
// through a table built for their image under a board symmetry
// (puzzle.MapPattern; set files, SPEC.md section 10). Parts lists the parts
// of the heuristic; Tables the distinct tables behind them, in order of
// first use. A Set is read-only after NewSet and safe for concurrent use.
type Set struct {
	Parts  []Part
	Tables []*Table
	Geom   puzzle.Geometry // board shared by all tables
	Goal   puzzle.Board    // goal shared by all tables
}

// Part is one term of a set's heuristic: the tiles of Pattern, looked up in
// Table after the symmetry Sym. With Sym = puzzle.Identity, Pattern is the
// table's own pattern.
type Part struct {
	Pattern *puzzle.Pattern
	Table   *Table
	Sym     puzzle.Symmetry
	m       *puzzle.Mapping // nil for the identity use of the table's own pattern
}

// Mapping returns the symmetric use of the part's table, or nil when the
// part is the table's own pattern (identity).
func (p *Part) Mapping() *puzzle.Mapping { return p.m }

// Value is the part's table value (moves) for the position vector pos
// (len N, pos[t] = cell of tile t): Table.Values at the index of the
// transformed placement. It does not allocate.
func (p *Part) Value(pos []uint8) uint8 {
	if r := p.Table.Regions; r != nil {
		if p.m == nil {
			return p.Table.Values[r.Index(pos)]
		}
		var cells [puzzle.MaxCells]uint8
		k := len(p.Table.Pattern.Tiles)
		p.m.Cells(pos, cells[:k])
		return p.Table.Values[r.IndexCells(cells[:k], p.m.Cell[pos[0]])]
	}
	if p.m == nil {
		return p.Table.Values[p.Table.Pattern.Rank(pos)]
	}
	return p.Table.Values[p.m.Rank(pos)]
}

// NewSet checks and groups tables, each used for its own pattern: at least
// one, each complete, and their patterns a valid additive set
// (puzzle.CheckAdditive: same geometry and goal, tile sets pairwise
// disjoint, an exact table alone). Errors name the tables by position
// (table 1, 2, ...) and pattern, and the tiles in conflict.
func NewSet(tables ...*Table) (*Set, error) {
	names := make([]string, len(tables))
	parts := make([]Part, len(tables))
	for i, t := range tables {
		names[i] = "table " + strconv.Itoa(i+1)
		parts[i] = Part{Table: t}
		if t != nil {
			parts[i].Pattern = t.Pattern
		}
	}
	return newSet(names, parts)
}

// NewSetParts checks and groups parts that may use tables symmetrically:
// each Part gives Pattern (the tiles it covers), Table and Sym. Besides the
// rules of NewSet, each table must be on the board and goal of the set and
// Sym must map the part's goal cells exactly onto the table's
// (puzzle.MapPattern). Errors name the parts by position (part 1, 2, ...).
func NewSetParts(parts []Part) (*Set, error) {
	names := make([]string, len(parts))
	for i := range parts {
		names[i] = "part " + strconv.Itoa(i+1)
	}
	return newSet(names, parts)
}

// errPrefix is what newSet's errors start with: "tilepdb" for sets made
// in memory, ErrSet for sets read from set files.
var errPrefix = errors.New("tilepdb")

func newSet(names []string, in []Part) (*Set, error) {
	return newSetWrap(names, in, errPrefix)
}

// newSetWrap is newSet with errors wrapping prefix.
func newSetWrap(names []string, in []Part, prefix error) (*Set, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("%w: empty set: need at least one table", prefix)
	}
	parts := append([]Part(nil), in...)
	patterns := make([]*puzzle.Pattern, len(parts))
	for i, p := range parts {
		t := p.Table
		if t == nil || t.Pattern == nil || uint64(len(t.Values)) != t.entries() {
			return nil, fmt.Errorf("%w: %s: not a complete table", prefix, names[i])
		}
		if p.Pattern == nil {
			return nil, fmt.Errorf("%w: %s: no pattern", prefix, names[i])
		}
		patterns[i] = p.Pattern
	}
	if err := puzzle.CheckAdditive(names, patterns); err != nil {
		return nil, fmt.Errorf("%w: %w", prefix, err)
	}
	s := &Set{Geom: patterns[0].Geom, Goal: append(puzzle.Board(nil), patterns[0].Goal...)}
	seen := map[*Table]bool{}
	for i := range parts {
		p := &parts[i]
		tp := p.Table.Pattern
		own := p.Sym == puzzle.Identity && tp.Geom == p.Pattern.Geom && tp.Goal.Equal(p.Pattern.Goal) && slices.Equal(tp.Tiles, p.Pattern.Tiles)
		if !own {
			m, err := puzzle.MapPattern(p.Pattern, tp, p.Sym)
			if err != nil {
				return nil, fmt.Errorf("%w: %s (%s) through table %s: %w", prefix, names[i], p.Pattern, tp, err)
			}
			p.m = m
		}
		if !seen[p.Table] {
			seen[p.Table] = true
			s.Tables = append(s.Tables, p.Table)
		}
	}
	s.Parts = parts
	return s, nil
}

// Exact reports whether the set is one exact table.
func (s *Set) Exact() bool { return s.Parts[0].Pattern.Exact }

// Heuristic returns the sum over the parts of Part.Value(pos): the additive
// heuristic, in moves (admissible because the parts are disjoint). pos is
// the full position vector (pos[t] = cell of tile t, len N) of a valid
// state, solvable for an exact set; it is not checked (see HeuristicBoard).
func (s *Set) Heuristic(pos []uint8) int {
	h := 0
	for i := range s.Parts {
		h += int(s.Parts[i].Value(pos))
	}
	return h
}

// HeuristicBoard checks that b is a permutation of 0..N-1 for the set's
// geometry and solvable for its goal, then returns Heuristic of its
// positions. Errors wrap puzzle.ErrBoard.
func (s *Set) HeuristicBoard(b puzzle.Board) (int, error) {
	if err := b.Validate(s.Geom.N()); err != nil {
		return 0, err
	}
	pos := b.Positions()
	if !s.Parts[0].Pattern.SolvablePositions(pos) {
		return 0, fmt.Errorf("%w: board %q cannot reach the goal %q", puzzle.ErrBoard, b, s.Goal)
	}
	return s.Heuristic(pos), nil
}

// ErrUnsolvable is wrapped by the error of Lookup for a board that cannot
// reach the set's goal.
var ErrUnsolvable = errors.New("board is not solvable")

// Lookup is the heuristic value of board b as front ends report it (pdbgen
// lookup), in moves. b must be a permutation of 0..N-1 for the set's
// geometry (errors wrap puzzle.ErrBoard). For a board that can reach the
// goal it is Heuristic of b's positions. For one that cannot (the other
// parity class) Lookup returns an error wrapping ErrUnsolvable, for exact
// and additive sets alike: an exact table has no entry for it, and although
// additive tables hold every placement of their tiles, a sum for a board
// that has no distance would only mislead (pdbgen answers "unsolvable", as
// solve does).
func (s *Set) Lookup(b puzzle.Board) (int, error) {
	if err := b.Validate(s.Geom.N()); err != nil {
		return 0, err
	}
	pos := b.Positions()
	if !s.Parts[0].Pattern.SolvablePositions(pos) {
		return 0, fmt.Errorf("%w for goal %s", ErrUnsolvable, puzzle.GoalName(s.Geom, s.Goal))
	}
	return s.Heuristic(pos), nil
}
