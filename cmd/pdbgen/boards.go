package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/puzzle"
)

// The board input of lookup and solve, one board per line:
//
//   - cells separated by spaces, tabs or commas, the blank as 0, x or _
//     (puzzle.ParseBoard);
//   - blank lines and lines whose first non-space character is # are
//     skipped, and so is a UTF-8 byte-order mark at the start of the input;
//   - a line is at most maxLineLen bytes, measured once, without its "\n"
//     or "\r\n"; a longer line is reported and skipped;
//   - lines are numbered from 1, skipped ones included.
//
// Every other line gets exactly one answer on stdout or one
// "line N: <problem>" on stderr, in input order.

// maxLineLen is the longest board line accepted, in bytes.
const maxLineLen = 4096

// errLineTooLong is the problem reported for a line over maxLineLen.
var errLineTooLong = fmt.Errorf("line longer than %d bytes", maxLineLen)

// boardLine is one input line that needs an answer: its board, or the
// problem that stops it from having one.
type boardLine struct {
	no    int
	board puzzle.Board
	err   error
}

// utf8BOM is the UTF-8 byte-order mark, skipped at the start of the input.
var utf8BOM = []byte("\ufeff")

// readBufLen is the size of readBoards' read buffer: maxLineLen plus
// "\r\n" plus a byte-order mark. A line that fills it (before its "\n")
// is too long whatever it holds; a shorter one is judged by its length
// without the "\r" and, on line 1, the byte-order mark.
const readBufLen = maxLineLen + len("\r\n") + len("\ufeff")

// readBoards calls fn for every line of r that needs an answer, in order.
// n is the number of cells a board must have. It returns the first read
// error (wrapped) or error of fn.
func readBoards(r io.Reader, n int, fn func(boardLine) error) error {
	// Room for the longest accepted line with its "\r\n" and, on line 1,
	// a byte-order mark: a line is judged by its length without them.
	br := bufio.NewReaderSize(r, readBufLen)
	no := 0
	for {
		chunk, err := br.ReadSlice('\n')
		tooLong := false
		if errors.Is(err, bufio.ErrBufferFull) {
			tooLong = true
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("reading boards: %w", err)
		}
		if len(chunk) > 0 || tooLong {
			no++
			if no == 1 {
				chunk = bytes.TrimPrefix(chunk, utf8BOM) // editors on Windows start files with one
			}
			text := strings.TrimSuffix(strings.TrimSuffix(string(chunk), "\n"), "\r")
			line := boardLine{no: no}
			switch t := strings.TrimSpace(text); {
			case tooLong || len(text) > maxLineLen:
				line.err = errLineTooLong
			case t == "" || strings.HasPrefix(t, "#"):
				line.no = 0 // nothing to answer
			default:
				line.board, line.err = puzzle.ParseBoard(text, n)
			}
			if line.no > 0 {
				if ferr := fn(line); ferr != nil {
					return ferr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// errBadLines is wrapped by the error of answerBoards when some lines were
// bad; the others were answered.
var errBadLines = errors.New("bad line(s)")

// answerFunc answers one board with one output line (without "\n"). An
// error is the board's problem, reported with its line number, unless ctx
// has ended.
type answerFunc func(ctx context.Context, b puzzle.Board) (string, error)

// streamFunc is an answerFunc that may also emit lines (without "\n")
// before its answer, such as the improving solutions of an anytime search:
// each is written as soon as every earlier line of the input is, and before
// the board's answer. emit may be called from the answering goroutine only.
type streamFunc func(ctx context.Context, b puzzle.Board, emit func(string)) (string, error)

// pending is one line on its way from the reader to the writer.
type pending struct {
	boardLine
	mu     sync.Mutex
	parts  []string      // emitted lines not yet written
	more   chan struct{} // signalled (buffer 1) when parts grows
	answer string
	done   chan struct{}
}

// emit queues an early line of p and wakes the writer.
func (p *pending) emit(s string) {
	p.mu.Lock()
	p.parts = append(p.parts, s)
	p.mu.Unlock()
	select {
	case p.more <- struct{}{}:
	default:
	}
}

// takeParts returns and clears the emitted lines not yet written.
func (p *pending) takeParts() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.parts
	p.parts = nil
	return out
}

// closed is the done channel of a line answered before it is queued.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// answerBoards reads boards of n cells from r (readBoards), answers them
// with `workers` goroutines, and writes the answers to w and the problems
// ("line N: <problem>") to errw in input order (with one worker the
// reading goroutine answers each line itself). An answer is flushed as soon
// as no later one is ready, so interactive use sees it at once. It returns
// the first read or write error, ctx's error when ctx ends first, or an
// error wrapping errBadLines with their count. When ctx ends or a write
// fails it returns without waiting for the reader, which may be blocked in
// a Read of a terminal or an idle pipe.
func answerBoards(parent context.Context, r io.Reader, w, errw io.Writer, n, workers int, answer answerFunc) error {
	return answerBoardsStream(parent, r, w, errw, n, workers, false, func(ctx context.Context, b puzzle.Board, _ func(string)) (string, error) {
		return answer(ctx, b)
	})
}

// answerBoardsStream is answerBoards for a streamFunc. With stream false
// the emitted lines are written only with the answer (cheaper: one worker
// then answers a line before queueing it); with stream true each is
// written as soon as the lines before it are.
func answerBoardsStream(parent context.Context, r io.Reader, w, errw io.Writer, n, workers int, stream bool, answer streamFunc) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	errw = lockedWriter{errw} // a conventionHint may write from an answering goroutine
	workers = max(workers, 1)
	work := make(chan *pending)
	order := make(chan *pending, 4*workers)

	// Reader: queue every line in order, hand good ones to the workers.
	// Its error arrives once order is closed.
	readErr := make(chan error, 1)
	go func() {
		defer close(order)
		defer close(work)
		readErr <- readBoards(r, n, func(line boardLine) error {
			p := &pending{boardLine: line, done: closed}
			if stream {
				p.more = make(chan struct{}, 1) // nil otherwise: emit never signals
			}
			here := false // answered by this goroutine after queueing
			switch {
			case p.err != nil:
			case workers == 1 && !stream: // answer here: a hand-off costs more than a lookup
				p.answer, p.err = answer(ctx, p.board, p.emit)
			case workers == 1:
				p.done, here = make(chan struct{}), true
			default:
				p.done = make(chan struct{})
			}
			select {
			case order <- p:
			case <-ctx.Done():
				return ctx.Err()
			}
			if here {
				p.answer, p.err = answer(ctx, p.board, p.emit)
				close(p.done)
				return nil
			}
			if p.done == closed {
				return nil
			}
			select {
			case work <- p:
			case <-ctx.Done():
				return ctx.Err()
			}
			return nil
		})
	}()
	var g errgroup.Group
	if workers > 1 {
		for range workers {
			g.Go(func() error {
				for {
					select {
					case p, ok := <-work:
						if !ok {
							return nil
						}
						p.answer, p.err = answer(ctx, p.board, p.emit)
						close(p.done)
					case <-ctx.Done():
						return nil
					}
				}
			})
		}
	}

	// Writer: answers and problems in input order, until the reader has
	// closed order (drained), ctx ends or a write fails.
	bad := 0
	drained, werr := writeAnswers(ctx, order, w, errw, &bad)
	cancel()
	_ = g.Wait() // workers stop at once on cancel
	switch {
	case werr != nil:
		return fmt.Errorf("writing output: %w", werr)
	case parent.Err() != nil:
		return parent.Err()
	case !drained:
		return ctx.Err()
	}
	if err := <-readErr; err != nil {
		return err
	}
	if bad > 0 {
		return fmt.Errorf("%d %w", bad, errBadLines)
	}
	return nil
}

// writeAnswers writes the lines of order as they are done; drained is true
// when order was closed and every line written. When ctx ends it still
// writes, in order, every line already done whose predecessors are all
// written (finishDone), so an interruption loses no finished answer.
func writeAnswers(ctx context.Context, order <-chan *pending, w, errw io.Writer, bad *int) (drained bool, err error) {
	bw := bufio.NewWriter(w)
	for {
		var p *pending
		var ok bool
		select {
		case p, ok = <-order:
		case <-ctx.Done():
			return false, finishDone(nil, order, bw, errw, bad)
		}
		if !ok {
			return true, bw.Flush()
		}
	wait:
		for {
			select {
			case <-p.done:
				break wait
			case <-p.more:
				writeParts(bw, p.takeParts())
				if err := bw.Flush(); err != nil {
					return false, err
				}
			case <-ctx.Done():
				return false, finishDone(p, order, bw, errw, bad)
			}
		}
		if ctx.Err() != nil { // the answer may be the cancellation itself
			return false, finishDone(p, order, bw, errw, bad)
		}
		if err := writeOne(p, bw, errw, bad); err != nil {
			return false, err
		}
		if len(order) == 0 { // nothing ready to follow: let the answer out now
			if err := bw.Flush(); err != nil {
				return false, err
			}
		}
	}
}

// finishDone writes, once ctx has ended, p (when not nil) and the lines
// already queued after it, in input order, up to the first one that is not
// done or was stopped by the cancellation itself (an error wrapping
// context.Canceled); of that one it writes only the lines it emitted. It
// then flushes bw.
func finishDone(p *pending, order <-chan *pending, bw *bufio.Writer, errw io.Writer, bad *int) error {
	for {
		if p == nil {
			var ok bool
			select {
			case p, ok = <-order:
			default:
			}
			if !ok || p == nil {
				return bw.Flush()
			}
		}
		select {
		case <-p.done:
		default:
			writeParts(bw, p.takeParts())
			return bw.Flush()
		}
		if p.err != nil && errors.Is(p.err, context.Canceled) {
			writeParts(bw, p.takeParts())
			return bw.Flush()
		}
		if err := writeOne(p, bw, errw, bad); err != nil {
			return err
		}
		p = nil
	}
}

// writeParts writes the emitted lines parts to bw, each with its "\n". A
// bufio.Writer's error is sticky: the next Flush or write returns it.
func writeParts(bw *bufio.Writer, parts []string) {
	for _, part := range parts {
		_, _ = bw.WriteString(part)
		_ = bw.WriteByte('\n')
	}
}

// writeOne writes the done line p: its emitted lines and answer to bw, or
// its problem ("line N: <problem>") to errw after flushing bw, counting it
// in bad.
func writeOne(p *pending, bw *bufio.Writer, errw io.Writer, bad *int) error {
	if p.err != nil {
		*bad++
		if err := bw.Flush(); err != nil {
			return err
		}
		_, err := fmt.Fprintf(errw, "line %d: %v\n", p.no, p.err)
		return err
	}
	writeParts(bw, p.takeParts())
	_, _ = bw.WriteString(p.answer) // sticky: WriteByte returns it
	return bw.WriteByte('\n')
}

// boardHelp is the input syntax of lookup and solve (boards.go).
const boardHelp = `Input: one board per line on stdin: the tile in each cell in reading order
(row by row), separated by spaces, tabs or commas; the blank is 0, x, X or _
(a comma with no tile before it, as in "1,,2", is an error).
For the 8-puzzle, "8 6 7 2 5 4 3 0 1" and "8,6,7,2,5,4,3,_,1" are the same
board. Boards must have the tables' number of cells (W·H: 9 for 3x3, 16 for
4x4, 25 for 5x5, 36 for 6x6, 49 for 7x7, 64 for 8x8). Blank lines and lines starting with # are
skipped; a UTF-8 byte-order mark at the start is ignored; a line over 4096
bytes is reported and skipped. Each answer is printed as soon as it is known.

A bad line (wrong cell count, a repeated or missing tile, a foreign symbol)
is reported on stderr as "line N: <problem>" and the others are answered.
A board that cannot reach the tables' goal (the other half of the states,
by parity) is not an error: it is answered "unsolvable"; when it could
reach the goal of the other convention (blank first, as in Korf's
instances, or blank last), stderr says once which --from to give.`

// exitHelp is the exit status of lookup and solve.
const exitHelp = `Exit status: 0 every line answered (unsolvable boards included); 1 a corrupt
table, or some bad lines (the others were answered); 2 trouble: a missing or
unreadable table, not enough memory for the tables, a write error; 130 on
Ctrl-C and 143 on SIGTERM, after printing the answers already found.

Before loading, the memory the tables need is compared with the memory
available (Linux) or --max-memory; tables that do not fit are refused.`

// conventionHint says once, on stderr, that a board answered "unsolvable"
// would be solvable in the other goal convention: blank first (Korf's
// 15-puzzle instances, 0 1 2 ... 15) against the tables' blank last. The
// likeliest cause is boards of the other convention without --from
// blank-first, or with it by mistake. A nil *conventionHint says nothing.
type conventionHint struct {
	once  sync.Once
	w     io.Writer
	cmd   string
	g     puzzle.Geometry
	goal  string       // the goal the boards are solved to, by name
	other puzzle.Board // the other convention's goal (nil: no hint)
	fix   string       // what to do
}

// newConventionHint is the hint of the command cmd for boards on g solved
// to goal (in the boards' convention: blank-first with --from blank-first,
// when from is true). Goals other than blank-last and blank-first get no
// hint, and neither do boards where both goals are reached from the same
// states (3x3: the sets coincide).
func newConventionHint(w io.Writer, cmd string, g puzzle.Geometry, goal puzzle.Board, from bool) *conventionHint {
	h := &conventionHint{w: w, cmd: cmd, g: g, goal: puzzle.GoalName(g, goal)}
	switch {
	case from:
		h.other, h.fix = puzzle.BlankLastGoal(g), "drop --from blank-first if the boards put the blank last"
	case goal.Equal(puzzle.BlankLastGoal(g)):
		h.other, h.fix = puzzle.BlankFirstGoal(g), "give --from blank-first if the boards put the blank first (as Korf's instances do)"
	}
	return h
}

// unsolvable is told of a board b (as given) that cannot reach the goal;
// the first such board that can reach the other convention's goal is
// named on stderr (once, between the lines of answerBoards' problems).
func (h *conventionHint) unsolvable(b puzzle.Board) {
	if h == nil || h.other == nil || !puzzle.Solvable(h.g, b, h.other) {
		return
	}
	h.once.Do(func() {
		fmt.Fprintf(lockedWriter{h.w}, "pdbgen %s: hint: %s is unsolvable for the goal %s but solvable for %s: %s\n",
			h.cmd, b, h.goal, puzzle.GoalName(h.g, h.other), h.fix)
	})
}

// stderrMu serialises the writes of lockedWriter: answerBoards writes its
// problems through one, so that a note from an answering goroutine (a
// conventionHint) does not interleave with them.
var stderrMu sync.Mutex

// lockedWriter writes to w under stderrMu.
type lockedWriter struct{ w io.Writer }

func (l lockedWriter) Write(p []byte) (int, error) {
	stderrMu.Lock()
	defer stderrMu.Unlock()
	return l.w.Write(p)
}
