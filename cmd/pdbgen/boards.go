package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/puzzle"
)

// The board input of lookup and solve, one board per line:
//
//   - cells separated by spaces, tabs or commas, the blank as 0, x or _
//     (puzzle.ParseBoard);
//   - blank lines and lines whose first non-space character is # are
//     skipped;
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

// readBoards calls fn for every line of r that needs an answer, in order.
// n is the number of cells a board must have. It returns the first read
// error (wrapped) or error of fn.
func readBoards(r io.Reader, n int, fn func(boardLine) error) error {
	br := bufio.NewReaderSize(r, maxLineLen+2)
	no := 0
	for {
		chunk, err := br.ReadSlice('\n')
		tooLong := false
		if err == bufio.ErrBufferFull {
			tooLong = true
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("reading boards: %w", err)
		}
		if len(chunk) > 0 || tooLong {
			no++
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

// pending is one line on its way from the reader to the writer.
type pending struct {
	boardLine
	answer string
	done   chan struct{}
}

// answerBoards reads boards of n cells from r (readBoards), answers them
// with `workers` goroutines, and writes the answers to w and the problems
// ("line N: <problem>") to errw in input order. An answer is flushed as soon
// as no later one is ready, so interactive use sees it at once. It returns
// the first read or write error, ctx's error when ctx ends first, or an
// error wrapping errBadLines with their count.
func answerBoards(parent context.Context, r io.Reader, w, errw io.Writer, n, workers int, answer answerFunc) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	workers = max(workers, 1)
	work := make(chan *pending)
	order := make(chan *pending, 4*workers)
	g, gctx := errgroup.WithContext(ctx)

	// Reader: queue every line in order, hand good ones to the workers.
	g.Go(func() error {
		defer close(order)
		defer close(work)
		return readBoards(r, n, func(line boardLine) error {
			p := &pending{boardLine: line, done: make(chan struct{})}
			select {
			case order <- p:
			case <-gctx.Done():
				return gctx.Err()
			}
			if p.err != nil {
				close(p.done)
				return nil
			}
			select {
			case work <- p:
			case <-gctx.Done():
				return gctx.Err()
			}
			return nil
		})
	})
	for range workers {
		g.Go(func() error {
			for p := range work {
				p.answer, p.err = answer(gctx, p.board)
				close(p.done)
			}
			return nil
		})
	}

	// Writer: answers and problems in input order.
	bad := 0
	werr := func() error {
		bw := bufio.NewWriter(w)
		for p := range order {
			select {
			case <-p.done:
			case <-gctx.Done():
			}
			if gctx.Err() != nil {
				return nil
			}
			if p.err != nil {
				bad++
				if err := bw.Flush(); err != nil {
					return err
				}
				if _, err := fmt.Fprintf(errw, "line %d: %v\n", p.no, p.err); err != nil {
					return err
				}
				continue
			}
			bw.WriteString(p.answer)
			if err := bw.WriteByte('\n'); err != nil {
				return err
			}
			if len(order) == 0 { // nothing ready to follow: let the answer out now
				if err := bw.Flush(); err != nil {
					return err
				}
			}
		}
		return bw.Flush()
	}()
	cancel()
	go func() { // unblock the reader if the writer stopped early
		for range order {
		}
	}()
	gerr := g.Wait()
	switch {
	case werr != nil:
		return fmt.Errorf("writing output: %w", werr)
	case parent.Err() != nil:
		return parent.Err()
	case gerr != nil && !errors.Is(gerr, context.Canceled):
		return gerr
	case bad > 0:
		return fmt.Errorf("%d %w", bad, errBadLines)
	}
	return nil
}
