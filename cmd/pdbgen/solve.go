package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"runtime"

	"github.com/tilepdb/tilepdb/format"
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
	if *workers < 1 {
		return usageErr("-j must be at least 1")
	}
	if *threads < 1 {
		return usageErr("-t must be at least 1")
	}
	set, err := format.OpenSet(files...)
	if err != nil {
		return err
	}
	s, err := solver.New(set, solver.Options{Reflect: *reflect, FromBlankFirst: *from != "", Threads: *threads})
	if err != nil {
		return usageErr("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err = answerBoards(ctx, e.stdin, e.stdout, e.stderr, set.Geom.N(), *workers, func(ctx context.Context, b puzzle.Board) (string, error) {
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
