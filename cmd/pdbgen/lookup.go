package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// runLookup prints "<board>\t<value>" for each board on stdin, the value
// by format.Set.Lookup, or "<board>\tunsolvable" for a board that cannot
// reach the goal (as solve answers it); bad lines are reported by number
// (boards.go).
func runLookup(e *env, args []string) error {
	fs := newFlags(e, "lookup")
	maxMem := fs.String("max-memory", "", maxMemoryHelp)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen lookup FILE... < boards)")
	}
	set, err := openSet(e, *maxMem, files)
	if err != nil {
		return err
	}
	// One worker: a lookup costs less than handing it to another goroutine.
	err = answerBoards(e.context(), e.stdin, e.stdout, e.stderr, set.Geom.N(), 1, func(_ context.Context, b puzzle.Board) (string, error) {
		h, err := set.Lookup(b)
		if errors.Is(err, format.ErrUnsolvable) {
			return fmt.Sprintf("%s\tunsolvable", b), nil
		}
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s\t%d", b, h), nil
	})
	if errors.Is(err, errBadLines) {
		return dataErr(err)
	}
	return err
}

// openSet checks that the tables fit in memory (--max-memory, or the
// memory available), then loads them as one heuristic.
func openSet(e *env, maxMemory string, files []string) (*format.Set, error) {
	budget, err := memoryBudget(maxMemory)
	if err != nil {
		return nil, err
	}
	if err := checkLoadMemory(budget, files); err != nil {
		return nil, err
	}
	return openTables(e, files)
}

// openSetFiles is format.OpenSet (a variable so that a test can make the
// load slow).
var openSetFiles = format.OpenSet

// openTables loads the tables and set files (format.OpenSet, which reads
// and checks every file whole: seconds for big tables); Ctrl-C or SIGTERM
// ends the wait at once, abandoning the load to the exiting process.
func openTables(e *env, files []string) (*format.Set, error) {
	return untilDone(e.context(), func() (*format.Set, error) { return openSetFiles(files...) })
}

// untilDone runs fn in its own goroutine and returns its results, or ctx's
// error as soon as ctx ends (fn then runs on, its results dropped: for work
// that cannot be stopped, done just before the command exits).
func untilDone[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
