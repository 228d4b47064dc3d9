package format

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Set is a group of tables that together form one heuristic: either one
// exact table, or additive pattern databases with pairwise disjoint tile
// sets on the same board and goal. Their sum is admissible. A Set is
// read-only after NewSet and safe for concurrent use.
type Set struct {
	Tables []*Table
	Geom   puzzle.Geometry // board shared by all tables
	Goal   puzzle.Board    // goal shared by all tables
}

// NewSet checks and groups tables: at least one, each complete, and their
// patterns a valid additive set (puzzle.CheckAdditive: same geometry and
// goal, tile sets pairwise disjoint, an exact table alone). Errors name the
// tables by position (table 1, 2, ...) and pattern, and the tiles in
// conflict.
func NewSet(tables ...*Table) (*Set, error) {
	names := make([]string, len(tables))
	for i := range tables {
		names[i] = "table " + strconv.Itoa(i+1)
	}
	return newSet(names, tables)
}

// OpenSet reads every path with ReadFile (an error names the path) and
// groups the tables with NewSet (errors name the paths).
func OpenSet(paths ...string) (*Set, error) {
	tables := make([]*Table, len(paths))
	for i, p := range paths {
		t, err := ReadFile(p)
		if err != nil {
			return nil, err
		}
		tables[i] = t
	}
	return newSet(paths, tables)
}

func newSet(names []string, tables []*Table) (*Set, error) {
	if len(tables) == 0 {
		return nil, errors.New("tilepdb: empty set: need at least one table")
	}
	for i, t := range tables {
		if t == nil || t.Pattern == nil || uint64(len(t.Values)) != t.Pattern.Size() {
			return nil, fmt.Errorf("tilepdb: %s: not a complete table", names[i])
		}
	}
	patterns := make([]*puzzle.Pattern, len(tables))
	for i, t := range tables {
		patterns[i] = t.Pattern
	}
	if err := puzzle.CheckAdditive(names, patterns); err != nil {
		return nil, fmt.Errorf("tilepdb: %w", err)
	}
	first := patterns[0]
	return &Set{
		Tables: append([]*Table(nil), tables...),
		Geom:   first.Geom,
		Goal:   append(puzzle.Board(nil), first.Goal...),
	}, nil
}

// Heuristic returns the sum over the tables of Value(pos): the additive
// heuristic, in moves (admissible because the patterns are disjoint). pos is
// the full position vector (pos[t] = cell of tile t, len N) of a valid
// state, solvable for an exact set; it is not checked (see HeuristicBoard).
func (s *Set) Heuristic(pos []uint8) int {
	h := 0
	for _, t := range s.Tables {
		h += int(t.Values[t.Pattern.Rank(pos)])
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
	if !s.Tables[0].Pattern.SolvablePositions(pos) {
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
	if !s.Tables[0].Pattern.SolvablePositions(pos) {
		return 0, fmt.Errorf("%w for goal %s", ErrUnsolvable, puzzle.GoalName(s.Geom, s.Goal))
	}
	return s.Heuristic(pos), nil
}
