package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// runLookup prints "<board>\t<value>" for each board on stdin, the value
// by format.Set.Lookup; bad lines are reported by number (boards.go).
func runLookup(e *env, args []string) error {
	fs := newFlags(e, "lookup")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen lookup FILE... < boards)")
	}
	set, err := format.OpenSet(files...)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// One worker: a lookup costs less than handing it to another goroutine.
	err = answerBoards(ctx, e.stdin, e.stdout, e.stderr, set.Geom.N(), 1, func(_ context.Context, b puzzle.Board) (string, error) {
		h, err := set.Lookup(b)
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
