package solver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// ConvertedFrom is the value of the JSON key "converted_from" (and of the
// text field "converted-from") for boards converted with
// Options.FromBlankFirst.
const ConvertedFrom = puzzle.GoalBlankFirst

// String formats r as one text line, the form pdbgen solve writes:
//
//	<board> : length <L> moves <M> nodes <K>
//	<board> : unsolvable
//
// <board> echoes the board as given (normalised: tiles as numbers separated
// by single spaces, 0 = blank); <M> is the blank's moves (u, d, l, r) or
// "-" for a board already at the goal. When the board was converted from
// the blank-first convention, " converted-from blank-first" is appended
// (the moves then solve the board as given, to the blank-first goal).
func (r Result) String() string {
	var sb strings.Builder
	sb.WriteString(r.Board.String())
	sb.WriteString(" : ")
	if !r.Solvable {
		sb.WriteString("unsolvable")
	} else {
		moves := r.Moves
		if moves == "" {
			moves = "-"
		}
		sb.WriteString("length ")
		sb.WriteString(strconv.Itoa(r.Length))
		sb.WriteString(" moves ")
		sb.WriteString(moves)
		sb.WriteString(" nodes ")
		sb.WriteString(strconv.FormatUint(r.Nodes, 10))
	}
	if r.Converted {
		sb.WriteString(" converted-from ")
		sb.WriteString(ConvertedFrom)
	}
	return sb.String()
}

// jsonResult is the JSON form of a Result.
type jsonResult struct {
	Board         []int   `json:"board"`
	Solvable      bool    `json:"solvable"`
	Length        *int    `json:"length"`
	Moves         *string `json:"moves"`
	Nodes         uint64  `json:"nodes"`
	ElapsedMS     float64 `json:"elapsed_ms"`
	ConvertedFrom string  `json:"converted_from,omitempty"`
	SolvedAs      []int   `json:"solved_as,omitempty"`
}

// MarshalJSON encodes r as one JSON object with the keys "board" (array of
// the tiles in each cell as given, 0 = blank), "solvable", "length" and
// "moves" (null when unsolvable; moves "" at the goal), "nodes",
// "elapsed_ms" (Elapsed in milliseconds, to the microsecond), and, for a
// converted board, "converted_from": "blank-first" and "solved_as" (the
// blank-last board that was searched).
func (r Result) MarshalJSON() ([]byte, error) {
	j := jsonResult{Board: ints(r.Board), Solvable: r.Solvable, Nodes: r.Nodes, ElapsedMS: float64(r.Elapsed.Microseconds()) / 1000}
	if r.Solvable {
		l, m := r.Length, r.Moves
		j.Length, j.Moves = &l, &m
	}
	if r.Converted {
		j.ConvertedFrom = ConvertedFrom
		j.SolvedAs = ints(r.Searched)
	}
	return json.Marshal(j)
}

func ints(b puzzle.Board) []int {
	out := make([]int, len(b))
	for i, t := range b {
		out[i] = int(t)
	}
	return out
}

// StoppedError is the error of an IDA* search (Solver.SolveContext) that its
// context stopped (a deadline, a cancellation) before it found a solution:
// what it had proven. It wraps the context's error.
type StoppedError struct {
	// Lower is a proven lower bound on the optimal length, in moves: the
	// bound of the IDA* iteration under way (every shorter bound was
	// searched to the end without a solution).
	Lower int
	// Nodes is the number of states generated until the stop (the package
	// comment's count, including the interrupted iteration's share).
	Nodes uint64
	// Elapsed is the wall time of the search until the stop.
	Elapsed time.Duration
	// Err is the context's error.
	Err error
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("IDA* stopped (%v) after %d nodes; proven: optimum >= %d moves", e.Err, e.Nodes, e.Lower)
}

func (e *StoppedError) Unwrap() error { return e.Err }

// stopped wraps err in a StoppedError when it is a context's error.
func stopped(err error, bound int, nodes uint64) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &StoppedError{Lower: bound, Nodes: nodes, Err: err}
	}
	return err
}
