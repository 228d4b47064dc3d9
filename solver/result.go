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

// String formats r as one text line, the form pdbgen solve writes (the
// complete answer of AlgIDA in Bounded.Text):
//
//	<board> : length <L> moves <M> nodes <K>
//	<board> : unsolvable
//
// <board> echoes the board as given (normalised: tiles as numbers separated
// by single spaces, 0 = blank); <M> is the blank's moves (u, d, l, r) or
// "-" for a board already at the goal. When the board was converted from
// the blank-first convention, " converted-from blank-first" is appended
// (the moves then solve the board as given, to the blank-first goal).
func (r Result) String() string { return r.bounded().Text(true) }

// MarshalJSON encodes r as one JSON object (the complete answer of AlgIDA
// in Bounded.JSON) with the keys "board" (array of the tiles in each cell
// as given, 0 = blank), "solvable", "length" and "moves" (null when
// unsolvable; moves "" at the goal), "nodes", "elapsed_ms" (Elapsed in
// milliseconds, to the microsecond), and, for a converted board,
// "converted_from": "blank-first" and "solved_as" (the blank-last board
// that was searched).
func (r Result) MarshalJSON() ([]byte, error) { return []byte(r.bounded().JSON(true)), nil }

// bounded is r as the Bounded of a complete AlgIDA search.
func (r Result) bounded() Bounded {
	return Bounded{Board: r.Board, Searched: r.Searched, Converted: r.Converted, Solvable: r.Solvable, Length: r.Length,
		Moves: r.Moves, Lower: -1, Stats: Stats{Generated: r.Nodes, Elapsed: r.Elapsed}, Algorithm: AlgIDA}
}

// short reports whether b is written in the short form of Result: the
// complete answer of IDA*, optimal, without bounds and statistics.
func (b Bounded) short() bool { return b.Algorithm == AlgIDA && b.Stopped == "" }

// Text formats b as one text line, the form pdbgen solve writes for every
// algorithm: for a complete IDA* answer that of Result.String, otherwise
//
//	<board> : [improved ]length L moves M nodes K [width W |weight W ]lower LB bound B[ optimal][ stopped REASON][ converted-from blank-first]
//	<board> : stopped REASON[ lower LB] nodes K[ converted-from blank-first]
//	<board> : unsolvable[ converted-from blank-first]
//
// "improved" marks an anytime algorithm's improvement (final false); W is
// the width of the beam search or the weight of the weighted search that
// found the solution; LB a proven lower bound on the optimal length; B =
// L/LB rounded up to 3 decimals (BoundText), the proven factor over the
// optimum; "optimal" when L = LB; REASON one of the Stop reasons.
func (b Bounded) Text(final bool) string {
	var sb strings.Builder
	sb.WriteString(b.Board.String())
	sb.WriteString(" : ")
	switch {
	case !b.Solvable:
		sb.WriteString("unsolvable")
	case b.Length < 0:
		sb.WriteString("stopped " + b.Stopped)
		if b.Lower >= 0 {
			fmt.Fprintf(&sb, " lower %d", b.Lower)
		}
		fmt.Fprintf(&sb, " nodes %d", b.Stats.Generated)
	default:
		if !final {
			sb.WriteString("improved ")
		}
		fmt.Fprintf(&sb, "length %d moves %s nodes %d", b.Length, movesOrDash(b.Moves), b.Stats.Generated)
		if !b.short() {
			b.boundsText(&sb)
		}
	}
	if b.Converted {
		sb.WriteString(" converted-from " + ConvertedFrom)
	}
	return sb.String()
}

// boundsText writes the fields of Text after the nodes of a solution.
func (b Bounded) boundsText(sb *strings.Builder) {
	switch {
	case b.Width > 0:
		fmt.Fprintf(sb, " width %d", b.Width)
		if b.Polished > 0 {
			fmt.Fprintf(sb, " polished %d", b.Polished)
		}
	case b.Algorithm.Weighted():
		fmt.Fprintf(sb, " weight %s", strconv.FormatFloat(b.Weight, 'g', -1, 64))
	}
	fmt.Fprintf(sb, " lower %d bound %s", b.Lower, b.BoundText())
	if b.Optimal {
		sb.WriteString(" optimal")
	}
	if b.Stopped != "" {
		sb.WriteString(" stopped " + b.Stopped)
	}
}

// JSON formats b as one JSON object, the form pdbgen solve --json writes
// for every algorithm: for a complete IDA* answer that of
// Result.MarshalJSON; otherwise its keys (board, solvable, length, moves,
// nodes = states generated, elapsed_ms, converted_from, solved_as) and
// algorithm, weight (null for the algorithms without one), width (beam
// searches), polished (the moves the anytime beam search's path
// improvement cut, when it cut any), lower and bound (null when unknown), optimal, expanded,
// stored, peak_bytes (the search's arrays), final (false for an anytime
// algorithm's improvement) and stopped (null, or one of the Stop
// reasons), in this order.
func (b Bounded) JSON(final bool) string {
	short := b.short()
	var o jsonObject
	o.add("board", ints(b.Board))
	if !short {
		var weight *float64
		if b.Algorithm.Weighted() && b.Weight > 0 {
			weight = &b.Weight
		}
		o.add("algorithm", b.Algorithm.String())
		o.add("weight", weight)
		if b.Width > 0 {
			o.add("width", b.Width)
		}
		if b.Polished > 0 {
			o.add("polished", b.Polished)
		}
	}
	var length, lower *int
	var moves *string
	var bound *float64
	if b.Solvable && b.Length >= 0 {
		length, moves, bound = &b.Length, &b.Moves, &b.Bound
	}
	if b.Solvable && b.Lower >= 0 {
		lower = &b.Lower
	}
	o.add("solvable", b.Solvable)
	o.add("length", length)
	o.add("moves", moves)
	if !short {
		o.add("lower", lower)
		o.add("bound", bound)
		o.add("optimal", b.Optimal)
	}
	o.add("nodes", b.Stats.Generated)
	if !short {
		o.add("expanded", b.Stats.Expanded)
		o.add("stored", b.Stats.Stored)
		o.add("peak_bytes", b.Stats.PeakBytes)
	}
	o.add("elapsed_ms", float64(b.Stats.Elapsed.Microseconds())/1000)
	if !short {
		var stopped *string
		if b.Stopped != "" {
			stopped = &b.Stopped
		}
		o.add("final", final)
		o.add("stopped", stopped)
	}
	if b.Converted {
		o.add("converted_from", ConvertedFrom)
		o.add("solved_as", ints(b.Searched))
	}
	return o.String()
}

// Proven describes what a search stopped early had proven: its best
// solution and bound, or the proven lower bound, after the board.
func (b Bounded) Proven() string {
	var sb strings.Builder
	sb.WriteString(b.Board.String())
	switch {
	case b.Length >= 0:
		fmt.Fprintf(&sb, ": best solution %d moves %s, proven optimum >= %d (bound %s)", b.Length, movesOrDash(b.Moves), b.Lower, b.BoundText())
	case b.Lower >= 0:
		fmt.Fprintf(&sb, ": no solution yet, proven optimum >= %d", b.Lower)
	default:
		sb.WriteString(": no solution yet, nothing proven")
	}
	return sb.String()
}

// BoundText is Length/Lower rounded UP to 3 decimals (never claiming a
// tighter factor than proven), computed in integers; "1.000" when Lower
// is 0.
func (b Bounded) BoundText() string {
	if b.Lower <= 0 {
		return "1.000"
	}
	v := (int64(b.Length)*1000 + int64(b.Lower) - 1) / int64(b.Lower)
	return fmt.Sprintf("%d.%03d", v/1000, v%1000)
}

func movesOrDash(m string) string {
	if m == "" {
		return "-"
	}
	return m
}

// jsonObject writes a JSON object key by key, in the order added.
type jsonObject struct{ b []byte }

// add appends one key and its value (encoding/json's encoding; only
// plain values, which cannot fail).
func (o *jsonObject) add(key string, v any) {
	if o.b == nil {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.b = strconv.AppendQuote(o.b, key)
	o.b = append(o.b, ':')
	val, err := json.Marshal(v)
	if err != nil {
		val = []byte("null")
	}
	o.b = append(o.b, val...)
}

func (o *jsonObject) String() string { return string(o.b) + "}" }

func ints(b puzzle.Board) []int {
	out := make([]int, len(b))
	for i, t := range b {
		out[i] = int(t)
	}
	return out
}

// StoppedError is the error of an IDA* search (Solver.solveContext) that its
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
