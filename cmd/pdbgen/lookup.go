package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// lookupCmd is "pdbgen lookup": its usage line, summary and help (the flags are
// defined where it parses them).
var lookupCmd = &command{name: "lookup", usage: "[--max-memory SIZE] FILE... < boards   (FILE: tables and set files)", short: "print the heuristic value of each board on stdin",
	help: `Prints "<board>\t<value>" per board: the value in moves from the tables (an
exact table: the true distance to the goal; additive tables: the sum of
their entries, a lower bound; a catalogue, set file version 2: the largest
of its partitions' sums), or "<board>\tunsolvable".

` + boardHelp + "\n\n" + exitHelp,
	run: runLookup}

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
	if err := checkLoadMemory(e, budget, files); err != nil {
		return nil, err
	}
	return openTables(e, files)
}
