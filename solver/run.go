package solver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/puzzle"
)

// ErrBadInput is wrapped by the error Run returns when some input lines
// could not be solved (bad boards); the other lines were answered.
var ErrBadInput = errors.New("bad input")

// MaxLineLen is the longest input line Run accepts (bytes, without the
// newline); a longer line is reported as bad and skipped.
const MaxLineLen = 4096

// ConvertedFrom is the value of the JSON key "converted_from" (and of the
// text field "converted-from") for boards converted with
// Options.FromBlankFirst.
const ConvertedFrom = puzzle.GoalBlankFirst

// String formats r as one text line, the form Run writes:
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
	ConvertedFrom string  `json:"converted_from,omitempty"`
	SolvedAs      []int   `json:"solved_as,omitempty"`
}

// MarshalJSON encodes r as one JSON object with the keys "board" (array of
// the tiles in each cell as given, 0 = blank), "solvable", "length" and
// "moves" (null when unsolvable; moves "" at the goal), "nodes", and, for a
// converted board, "converted_from": "blank-first" and "solved_as" (the
// blank-last board that was searched).
func (r Result) MarshalJSON() ([]byte, error) {
	j := jsonResult{Board: ints(r.Board), Solvable: r.Solvable, Nodes: r.Nodes}
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

// job is one input line on its way through Run.
type job struct {
	line  int
	board puzzle.Board
	res   Result
	err   error
	done  chan struct{}
}

// Run reads boards from r, one per line (cells separated by spaces, tabs or
// commas, 0/x/_ for the blank; blank lines and lines starting with # are
// skipped), solves them with s.Options().Workers goroutines, and writes one
// line per board to w in input order: Result.String, or Result.MarshalJSON
// with Options.JSON. For each bad line (wrong number of cells for the
// tables' board, repeated or missing tiles, foreign symbols, too long) it
// writes "line N: <problem>" to errw, in order with the answers, and goes
// on. It returns an error wrapping ErrBadInput when any line was bad, the
// first read or write error, or ctx's error when ctx ends first.
func Run(parent context.Context, s *Solver, r io.Reader, w, errw io.Writer) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	workers := max(s.opt.Workers, 1)
	jobs := make(chan *job)
	order := make(chan *job, 4*workers)
	g, gctx := errgroup.WithContext(ctx)

	// Reader: parse lines, queue them in order, hand good ones to workers.
	g.Go(func() error {
		defer close(order)
		defer close(jobs)
		return readLines(r, func(lineNo int, text string, tooLong bool) error {
			j := &job{line: lineNo, done: make(chan struct{})}
			switch {
			case tooLong:
				j.err = fmt.Errorf("%w: line longer than %d bytes", puzzle.ErrBoard, MaxLineLen)
			default:
				j.board, j.err = puzzle.ParseBoard(text, s.n)
			}
			select {
			case order <- j:
			case <-gctx.Done():
				return gctx.Err()
			}
			if j.err != nil {
				close(j.done)
				return nil
			}
			select {
			case jobs <- j:
			case <-gctx.Done():
				return gctx.Err()
			}
			return nil
		})
	})
	for range workers {
		g.Go(func() error {
			for j := range jobs {
				j.res, j.err = s.SolveContext(gctx, j.board)
				close(j.done)
			}
			return nil
		})
	}

	// Writer: answers in input order.
	bad := 0
	var werr error
	bw := bufio.NewWriter(w)
	for j := range order {
		select {
		case <-j.done:
		case <-gctx.Done():
		}
		if gctx.Err() != nil {
			break
		}
		if j.err != nil {
			bad++
			if err := bw.Flush(); err != nil {
				werr = err
				break
			}
			if _, err := fmt.Fprintf(errw, "line %d: %v\n", j.line, j.err); err != nil {
				werr = err
				break
			}
			continue
		}
		var out []byte
		if s.opt.JSON {
			out, _ = j.res.MarshalJSON()
		} else {
			out = []byte(j.res.String())
		}
		out = append(out, '\n')
		if _, err := bw.Write(out); err != nil {
			werr = err
			break
		}
		if len(order) == 0 { // nothing ready to follow: let the answer out now
			if err := bw.Flush(); err != nil {
				werr = err
				break
			}
		}
	}
	if werr == nil {
		werr = bw.Flush()
	}
	cancel()
	go func() { // unblock the reader if the writer stopped early
		for range order {
		}
	}()
	gerr := g.Wait()
	switch {
	case werr != nil:
		return fmt.Errorf("solver: writing output: %w", werr)
	case parent.Err() != nil:
		return parent.Err()
	case gerr != nil && !errors.Is(gerr, context.Canceled):
		return gerr
	case bad > 0:
		return fmt.Errorf("%w: %d bad line(s)", ErrBadInput, bad)
	}
	return nil
}

// readLines calls fn for every line of r that is not blank and does not
// start with '#' (after leading white space), with its 1-based number.
// Lines longer than MaxLineLen are passed with tooLong set and their text
// dropped. It returns the first read error or error of fn.
func readLines(r io.Reader, fn func(lineNo int, text string, tooLong bool) error) error {
	br := bufio.NewReaderSize(r, MaxLineLen+2)
	lineNo := 0
	for {
		chunk, err := br.ReadSlice('\n')
		tooLong := false
		var text string
		if err == bufio.ErrBufferFull {
			tooLong = true
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
		} else {
			text = strings.TrimRight(string(chunk), "\r\n")
			if len(text) > MaxLineLen {
				tooLong, text = true, ""
			}
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("solver: reading input: %w", err)
		}
		if len(chunk) > 0 || tooLong {
			lineNo++
			t := strings.TrimSpace(text)
			if tooLong || (t != "" && !strings.HasPrefix(t, "#")) {
				if ferr := fn(lineNo, text, tooLong); ferr != nil {
					return ferr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}
