package puzzle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// CheckAdditive checks that patterns can be used together as one
// heuristic, the sum of their table values, which is admissible when the
// tile sets are disjoint (Korf & Felner 2002, "Disjoint pattern database
// heuristics"): every pattern is on the geometry and goal of the first, an
// exact pattern is used alone, and the tile sets are pairwise disjoint.
// This is the one place the rule is written; table sets, the solver and the
// build command call it.
//
// names[i] names patterns[i] in errors (for example "table 2" or a file
// path); len(names) must equal len(patterns) and no pattern may be nil. An
// error names the two patterns in conflict, each followed by its
// description in parentheses, and for overlapping tile sets the shared
// tiles; it wraps ErrNotAdditive. No patterns at all is not an error here;
// callers that need at least one say so in their own words.
func CheckAdditive(names []string, patterns []*Pattern) error {
	if len(names) != len(patterns) {
		return fmt.Errorf("CheckAdditive: %d names for %d patterns", len(names), len(patterns))
	}
	if len(patterns) == 0 {
		return nil
	}
	first := patterns[0]
	var owner [MaxCells]int // 1 + index of the pattern holding tile t, 0 for none
	for i, p := range patterns {
		desc := fmt.Sprintf("%s (%s)", names[i], p)
		if p.Geom != first.Geom {
			return notAdditive("%s is for a %s board, %s (%s) for %s", desc, p.Geom, names[0], first, first.Geom)
		}
		if !p.Goal.Equal(first.Goal) {
			return notAdditive("%s has goal %q, %s has goal %q", desc, p.Goal, names[0], first.Goal)
		}
		if p.Exact && len(patterns) > 1 {
			return notAdditive("%s is an exact table and must be used alone, not in a set of %d", desc, len(patterns))
		}
		// The earlier part holding the smallest shared tile, and the
		// tiles p shares with that part (not those it shares with others).
		var shared []string
		other := -1
		for _, t := range p.Tiles {
			if j := owner[t] - 1; j >= 0 && (other < 0 || j == other) {
				shared = append(shared, strconv.Itoa(int(t)))
				other = j
			}
		}
		if len(shared) > 0 {
			return notAdditive("%s and %s (%s) are not disjoint: both hold tile(s) %s", desc, names[other], patterns[other], strings.Join(shared, ","))
		}
		for _, t := range p.Tiles {
			owner[t] = i + 1
		}
	}
	return nil
}

// ErrNotAdditive is wrapped by CheckAdditive's error for patterns that do
// not form one heuristic (other board or goal, an exact pattern among
// others, shared tiles): the tables given do not belong together, which a
// command reports as bad data.
var ErrNotAdditive = errors.New("patterns do not form an additive heuristic")

// additiveError is CheckAdditive's error: its own message, wrapping
// ErrNotAdditive.
type additiveError struct{ msg string }

func (e *additiveError) Error() string { return e.msg }
func (e *additiveError) Unwrap() error { return ErrNotAdditive }

func notAdditive(format string, a ...any) error {
	return &additiveError{msg: fmt.Sprintf(format, a...)}
}
