package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// lookupCmd is "pdbgen lookup": its usage line, summary and help (the flags are
// defined where it parses them).
var lookupCmd = &command{name: "lookup", usage: "[--from blank-first] [--parts] [--max-memory SIZE] FILE... < boards   (FILE: tables and set files)", short: "print the heuristic value of each board on stdin",
	help: `Prints "<board>\t<value>" per board: the value in moves from the tables (an
exact table: the true distance to the goal; additive tables: the sum of
their entries, a lower bound; a catalogue, set file version 2: the largest
of its partitions' sums), or "<board>\tunsolvable".

--parts adds a third column: each part's value, comma-separated, in the
set's order of parts (the order solve's --rank-weights takes; a catalogue's
distinct parts, in the set file's order).

--from blank-first reads boards of the blank-first convention (Korf's
15-puzzle instances: goal 0 1 2 ... 15) for tables whose goal is blank-last,
as solve does: each board is converted (rotated by 180 degrees and
relabelled, which keeps every distance) and printed as given.

` + boardHelp + "\n\n" + exitHelp,
	run: runLookup}

// runLookup prints "<board>\t<value>" for each board on stdin, the value
// by format.Set.Lookup, or "<board>\tunsolvable" for a board that cannot
// reach the goal (as solve answers it, with the same hint when the board
// is solvable in the other goal convention: conventionHint); bad lines are
// reported by number (boards.go). With --from blank-first each board is
// converted to the tables' blank-last convention first.
func runLookup(e *env, args []string) error {
	fs := newFlags(e, "lookup")
	maxMem := fs.String("max-memory", "", maxMemoryHelp)
	from := fs.String("from", "", "convention of the input boards when it differs from the tables' goal: blank-first")
	parts := fs.Bool("parts", false, "also print each part's value, comma-separated, in the set's order of parts")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen lookup FILE... < boards)")
	}
	if *from != "" && *from != puzzle.GoalBlankFirst {
		return usageErr("--from: only %q is supported", puzzle.GoalBlankFirst)
	}
	set, err := openSet(e, *maxMem, files)
	if err != nil {
		return err
	}
	goal := set.Goal
	if *from != "" {
		if !set.Goal.Equal(puzzle.BlankLastGoal(set.Geom)) {
			return usageErr("--from blank-first needs blank-last tables, but the tables' goal is %s", puzzle.GoalName(set.Geom, set.Goal))
		}
		goal = puzzle.BlankFirstGoal(set.Geom)
	}
	hint := newConventionHint(e.stderr, "lookup", set.Geom, goal, *from != "")
	// One worker: a lookup costs less than handing it to another goroutine.
	err = answerBoards(e.context(), e.stdin, e.stdout, e.stderr, set.Geom.N(), 1, func(_ context.Context, b puzzle.Board) (string, error) {
		work := b
		if *from != "" {
			work = puzzle.BlankFirstToLast(b)
		}
		h, err := set.Lookup(work)
		if errors.Is(err, format.ErrUnsolvable) {
			hint.unsolvable(b)
			return fmt.Sprintf("%s\tunsolvable", b), nil
		}
		if err != nil {
			return "", err
		}
		if *parts {
			return fmt.Sprintf("%s\t%d\t%s", b, h, partValues(set, work)), nil
		}
		return fmt.Sprintf("%s\t%d", b, h), nil
	})
	if errors.Is(err, errBadLines) {
		return dataErr(err)
	}
	return err
}

// partValues lists the value of each of set's parts for the board b (valid
// and solvable), comma-separated.
func partValues(set *format.Set, b puzzle.Board) string {
	pos := b.Positions()
	var sb strings.Builder
	for i := range set.Parts {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(int(set.Parts[i].Value(pos))))
	}
	return sb.String()
}

// openSet checks that the tables fit in memory (--max-memory, or the
// memory available), then loads them as one heuristic, the large plain
// tables held as codes as solve holds them (heldAsCodes).
func openSet(e *env, maxMemory string, files []string) (*format.Set, error) {
	budget, err := memoryBudget(maxMemory)
	if err != nil {
		return nil, err
	}
	if err := checkLoadMemoryNeed(budget, files, heldLoadMemoryNeed(e, files, false)); err != nil {
		return nil, err
	}
	if anyHeldAsCodes(e, files) {
		return openTablesHeld(e, files, nil, false)
	}
	return openTables(e, files)
}
