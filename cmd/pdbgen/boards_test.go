package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestReadBoards: which lines need an answer, their numbers, and the
// problem of each bad one.
func TestReadBoards(t *testing.T) {
	input := strings.Join([]string{
		"# a comment",                           // 1
		"1 2 3 4 5 6 7 0 8",                     // 2 good
		"1 2 3 4 5 5 7 8 0",                     // 3 5 twice
		"",                                      // 4 blank
		"1 2 3 4 5 6 7 8",                       // 5 too few
		"1 2 3 4 y 6 7 8 0",                     // 6 foreign symbol
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", // 7 a 4x4 board
		"   # indented comment",                 // 8
		"2 1 3 4 5 6 7 8 0",                     // 9 unsolvable: a board all the same
		"1,2,3,4,5,6,7,8,x\r",                   // 10 good, other syntax, CRLF
		"1 2 3 4 5 6 7 8 0 0",                   // 11 too many
		strings.Repeat("1 ", maxLineLen),        // 12 too long (8192 bytes)
		strings.Repeat(" ", maxLineLen),         // 13 exactly the limit: blank, skipped
		strings.Repeat(" ", maxLineLen+1),       // 14 one byte over: too long
		" \t ",                                  // 15 white space only
		"0 1 2 3 4 5 6 7 8",                     // 16 good, no trailing newline
	}, "\n")
	want := []string{
		"2: 1 2 3 4 5 6 7 0 8",
		"3: bad board: tile 5 appears twice",
		"5: bad board: 8 cells, want 9",
		`6: bad board: cell 4: "y" is not a tile number or blank (0, x, _)`,
		"7: bad board: 16 cells, want 9",
		"9: 2 1 3 4 5 6 7 8 0",
		"10: 1 2 3 4 5 6 7 8 0",
		"11: bad board: 10 cells, want 9",
		"12: line longer than 4096 bytes",
		"14: line longer than 4096 bytes",
		"16: 0 1 2 3 4 5 6 7 8",
	}
	var got []string
	err := readBoards(strings.NewReader(input), 9, func(l boardLine) error {
		if l.err != nil {
			got = append(got, fmt.Sprintf("%d: %v", l.no, l.err))
		} else {
			got = append(got, fmt.Sprintf("%d: %s", l.no, l.board))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestReadBoardsLineLength: a line is too long exactly when it holds more
// than maxLineLen bytes without its "\n" or "\r\n" and, on line 1, a
// byte-order mark, for every ending, with and without the mark.
func TestReadBoardsLineLength(t *testing.T) {
	const board = "1 2 3 4 5 6 7 8 0"
	for _, bom := range []string{"", "\ufeff"} {
		for _, end := range []string{"\n", "\r\n", ""} {
			for n := maxLineLen - 3; n <= readBufLen+2; n++ {
				line := board + strings.Repeat(" ", n-len(board))
				input := bom + line + end + "2 1 3 4 5 6 7 8 0\n"
				if end == "" {
					input = bom + line
				}
				var got []string
				err := readBoards(strings.NewReader(input), 9, func(l boardLine) error {
					if l.err != nil {
						got = append(got, fmt.Sprintf("%d: %v", l.no, l.err))
					} else {
						got = append(got, fmt.Sprintf("%d: %s", l.no, l.board))
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				first := "1: " + board
				if n > maxLineLen {
					first = "1: " + errLineTooLong.Error()
				}
				want := []string{first, "2: 2 1 3 4 5 6 7 8 0"}
				if end == "" {
					want = want[:1]
				}
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("BOM %q, %d bytes, end %q: got %q, want %q", bom, n, end, got, want)
				}
			}
		}
	}
}

// sumAnswer answers a board with the sum of cell*tile, after a random
// pause so that workers finish out of order.
func sumAnswer(_ context.Context, b puzzle.Board) (string, error) {
	time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
	s := 0
	for c, t := range b {
		s += c * int(t)
	}
	return fmt.Sprintf("%s = %d", b, s), nil
}

// answer runs answerBoards on input and returns stdout, stderr and the error.
func answer(ctx context.Context, t *testing.T, input string, workers int, fn answerFunc) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := answerBoards(ctx, strings.NewReader(input), &out, &errOut, 9, workers, fn)
	return out.String(), errOut.String(), err
}

// TestAnswerBoardsOrder: answers and problems come out in input order,
// the same for every worker count, with the bad lines counted.
func TestAnswerBoardsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var sb strings.Builder
	var want, wantErr []string
	for i := range 300 {
		if i%37 == 5 {
			sb.WriteString("1 2 3\n")
			wantErr = append(wantErr, fmt.Sprintf("line %d: bad board: 3 cells, want 9", len(want)+len(wantErr)+1))
		}
		b := make(puzzle.Board, 9)
		for c, tile := range rng.Perm(9) {
			b[c] = uint8(tile)
		}
		sb.WriteString(b.String() + "\n")
		a, _ := sumAnswer(context.Background(), b)
		want = append(want, a)
	}
	for _, workers := range []int{1, 2, 7} {
		out, errOut, err := answer(context.Background(), t, sb.String(), workers, sumAnswer)
		if !errors.Is(err, errBadLines) || !strings.HasPrefix(err.Error(), fmt.Sprintf("%d bad line", len(wantErr))) {
			t.Fatalf("workers %d: error %v, want %d bad lines", workers, err, len(wantErr))
		}
		if out != strings.Join(want, "\n")+"\n" {
			t.Fatalf("workers %d: answers out of order or wrong", workers)
		}
		if errOut != strings.Join(wantErr, "\n")+"\n" {
			t.Fatalf("workers %d: stderr\n%s\nwant\n%s", workers, errOut, strings.Join(wantErr, "\n"))
		}
	}
	// An answer error is the line's problem.
	_, errOut, err := answer(context.Background(), t, "1 2 3 4 5 6 7 8 0\n", 2, func(context.Context, puzzle.Board) (string, error) {
		return "", errors.New("no entry")
	})
	if !errors.Is(err, errBadLines) || errOut != "line 1: no entry\n" {
		t.Errorf("answer error: %v, stderr %q", err, errOut)
	}
	// Empty input: nothing, no error.
	if out, errOut, err := answer(context.Background(), t, "", 2, sumAnswer); out != "" || errOut != "" || err != nil {
		t.Errorf("empty input: %q %q %v", out, errOut, err)
	}
}

// TestAnswerBoardsCancel: a cancelled context stops with its error.
func TestAnswerBoardsCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := answer(ctx, t, strings.Repeat("1 2 3 4 5 6 7 0 8\n", 1000), 2, sumAnswer)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// TestAnswerBoardsCancelWhileWaiting: cancelling while the input is idle
// (a terminal, a pipe nobody writes to) returns at once, after the answers
// already read went out.
func TestAnswerBoardsCancelWhileWaiting(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- answerBoards(ctx, pr, &out, &errOut, 9, 2, sumAnswer) }()
	if _, err := io.WriteString(pw, "1 2 3 4 5 6 7 0 8\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("answerBoards still waiting for input 5s after cancel")
	}
	if want := "1 2 3 4 5 6 7 0 8 = 176\n"; out.String() != want {
		t.Errorf("stdout %q, want the answer read before the cancel, %q", out.String(), want)
	}
}

// TestAnswerBoardsWriteError: a write error is returned, even when the
// answers fit in the buffer.
func TestAnswerBoardsWriteError(t *testing.T) {
	for _, n := range []int{1, 1000} {
		err := answerBoards(context.Background(), strings.NewReader(strings.Repeat("1 2 3 4 5 6 7 0 8\n", n)),
			&failWriter{}, &failWriter{}, 9, 2, sumAnswer)
		if err == nil || !strings.Contains(err.Error(), "no space left on device") {
			t.Fatalf("%d lines: error %v, want the write error", n, err)
		}
	}
}

// errReader returns one line, then an error.
type errReader struct{ done bool }

func (r *errReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, errors.New("device gone")
	}
	r.done = true
	return copy(p, "1 2 3 4 5 6 7 0 8\n"), nil
}

// TestAnswerBoardsReadError: a read error is returned.
func TestAnswerBoardsReadError(t *testing.T) {
	var out bytes.Buffer
	err := answerBoards(context.Background(), &errReader{}, &out, &out, 9, 2, sumAnswer)
	if err == nil || !strings.Contains(err.Error(), "device gone") {
		t.Fatalf("error %v, want the read error", err)
	}
}

// FuzzAnswerBoards feeds arbitrary input: no panic, and every line that
// is not blank or a comment (or is too long) gets exactly one answer or
// one problem.
func FuzzAnswerBoards(f *testing.F) {
	for _, seed := range []string{
		"1 2 3 4 5 6 7 0 8",
		"8 6 7 2 5 4 3 0 1\n# c\n\n1 2 3",
		"1,2,3,4,5,6,7,8,x\r\n",
		"1 2 3 4 5 6 7 8 9",
		"-1 2 3 4 5 6 7 8 0",
		"99999999999999999999 1 2 3 4 5 6 7 8",
		"\x00\xff",
		"_ 1 2 3 4 5 6 7 8\n\n\n\t\n",
		"1\t2\t3\t4\t5\t6\t7\t8\t0",
		strings.Repeat("#", maxLineLen+1),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		var out, errOut bytes.Buffer
		err := answerBoards(context.Background(), strings.NewReader(input), &out, &errOut, 9, 2,
			func(_ context.Context, b puzzle.Board) (string, error) { return b.String(), nil })
		nOut, nErr := strings.Count(out.String(), "\n"), strings.Count(errOut.String(), "\n")
		if (nErr > 0) != (err != nil) {
			t.Fatalf("%d problems but error %v", nErr, err)
		}
		want := 0
		for _, l := range strings.Split(input, "\n") {
			l = strings.TrimSuffix(l, "\r")
			if tl := strings.TrimSpace(l); len(l) > maxLineLen || (tl != "" && !strings.HasPrefix(tl, "#")) {
				want++
			}
		}
		if nOut+nErr != want {
			t.Fatalf("%d answers + %d problems for %d lines", nOut, nErr, want)
		}
	})
}

// syncWriter collects what is written, safe for concurrent reads.
type syncWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestAnswerBoardsStream: lines emitted before an answer are written at
// once when the lines before them are (the answer is still being worked
// out), never before an earlier board's answer, and always before their
// own board's answer.
func TestAnswerBoardsStream(t *testing.T) {
	const in = "1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 0 7 8\n"
	for _, workers := range []int{1, 2, 3} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			w := &syncWriter{}
			var errOut bytes.Buffer
			err := answerBoardsStream(context.Background(), strings.NewReader(in), w, &errOut, 9, workers, true,
				func(ctx context.Context, b puzzle.Board, emit func(string)) (string, error) {
					h, _ := sumAnswer(ctx, b)
					if b[8] == 0 { // the first board: answered late
						time.Sleep(50 * time.Millisecond)
						return h, nil
					}
					emit("early " + h)
					emit("early again " + h)
					// The emitted lines come out before this answer is made,
					// once the first board's answer is written.
					deadline := time.Now().Add(10 * time.Second)
					for !strings.Contains(w.String(), "early again "+h) {
						if time.Now().After(deadline) {
							return "", errors.New("emitted lines not written while answering")
						}
						time.Sleep(time.Millisecond)
					}
					return h, nil
				})
			if err != nil {
				t.Fatal(err, errOut.String())
			}
			var want []string
			for i, l := range strings.Split(strings.TrimSpace(in), "\n") {
				b, _ := puzzle.ParseBoard(l, 9)
				h, _ := sumAnswer(context.Background(), b)
				if i > 0 {
					want = append(want, "early "+h, "early again "+h)
				}
				want = append(want, h)
			}
			if got := w.String(); got != strings.Join(want, "\n")+"\n" {
				t.Errorf("output\n%s\nwant\n%s", got, strings.Join(want, "\n"))
			}
		})
	}
}
