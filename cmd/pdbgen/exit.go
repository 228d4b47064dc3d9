package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Exit statuses, in the style of cmp and diff.
const (
	exitOK      = 0 // success
	exitBadData = 1 // a corrupt table, a failed check, a bad input line
	exitTrouble = 2 // usage mistakes and I/O trouble
)

// exitError carries an exit status chosen where the error is made.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErr is a command-line mistake (exit 2).
func usageErr(format string, a ...any) error {
	return &exitError{code: exitTrouble, err: fmt.Errorf(format, a...)}
}

// dataErr is bad data (exit 1).
func dataErr(err error) error { return &exitError{code: exitBadData, err: err} }

// errSilent means the command already printed its diagnostics; it is
// wrapped in an exitError to carry the status.
var errSilent = errors.New("")

// exitCode is the one rule that turns a command's error into an exit
// status: nil and a help request give 0; an exitError gives its code; an
// error reading a table that says the file is corrupt, truncated or of an
// unsupported version gives 1 (bad data), and so do tables given together
// that do not form one heuristic (another goal or board, shared tiles:
// puzzle.ErrNotAdditive); anything else (a missing file, an I/O error)
// gives 2.
func exitCode(err error) int {
	var ee *exitError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case format.IsBadData(err), errors.Is(err, puzzle.ErrNotAdditive), errors.Is(err, builder.ErrShardData):
		return exitBadData
	}
	return exitTrouble
}
