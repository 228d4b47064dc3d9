package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver"
)

// runSolve solves each board on stdin with solver.Solver.SolveContext and
// prints solver.Result as text (Result.String) or JSON
// (Result.MarshalJSON), boards solved in parallel and answered in input
// order (boards.go).
func runSolve(e *env, args []string) error {
	fs := newFlags(e, "solve")
	reflect := fs.Bool("reflect", false, "also look up the state reflected about the main diagonal and take the maximum")
	workers := fs.Int("j", runtime.NumCPU(), "boards solved in parallel")
	threads := fs.Int("t", 1, "threads sharing each board's search (parallel IDA*; moves and node counts do not depend on it)")
	asJSON := fs.Bool("json", false, "one JSON object per board: board, length, moves, nodes, solvable")
	from := fs.String("from", "", "convention of the input boards when it differs from the tables' goal: blank-first")
	maxMem := fs.String("max-memory", "", maxMemoryHelp)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (tables or set files; usage: pdbgen solve [flags] FILE... < boards)")
	}
	if *from != "" && *from != puzzle.GoalBlankFirst {
		return usageErr("--from: only %q is supported", puzzle.GoalBlankFirst)
	}
	if err := checkWorkers(*workers); err != nil {
		return err
	}
	if *threads < 1 {
		return usageErr("-t must be at least 1")
	}
	set, err := openSet(e, *maxMem, files)
	if err != nil {
		return err
	}
	s, err := solver.New(set, solver.Options{Reflect: *reflect, FromBlankFirst: *from != "", Threads: *threads})
	if err != nil {
		return usageErr("%v", err)
	}
	// On a terminal, a status line says how many boards are answered and
	// how long the search has run, since one board can take minutes.
	// It shows only while a search has run for a second without an answer,
	// so that it stays out of the way of interactive use.
	var started, finished, lastAnswer atomic.Int64
	begin := time.Now()
	lastAnswer.Store(int64(time.Since(begin)))
	status := startStatus(e, func() (string, int64, int64) {
		busy := started.Load() - finished.Load()
		quiet := time.Since(begin) - time.Duration(lastAnswer.Load())
		if busy == 0 || quiet < time.Second {
			return "", 0, 0
		}
		return fmt.Sprintf("solving: %d answered, %d searching for %s", finished.Load(), busy, quiet.Round(time.Second)), 0, 0
	})
	defer status.stop()
	stdout, stderr := e.stdout, e.stderr
	if status != nil {
		stdout, stderr = clearingWriter{e.stdout, status}, clearingWriter{e.stderr, status}
	}
	err = answerBoards(e.context(), e.stdin, stdout, stderr, set.Geom.N(), *workers, func(ctx context.Context, b puzzle.Board) (string, error) {
		if started.Add(1)-finished.Load() == 1 {
			lastAnswer.Store(int64(time.Since(begin))) // the clock starts when a search does
		}
		defer func() {
			finished.Add(1)
			lastAnswer.Store(int64(time.Since(begin)))
		}()
		res, err := s.SolveContext(ctx, b)
		if err != nil {
			return "", err
		}
		if *asJSON {
			out, err := res.MarshalJSON()
			return string(out), err
		}
		return res.String(), nil
	})
	if errors.Is(err, errBadLines) {
		return dataErr(err)
	}
	return err
}
