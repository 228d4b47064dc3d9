package main

// Helpers shared by several commands. Each command's own code, flags and
// help are in its file (build.go, verify.go, ...); flags.go holds the flag
// helpers, exit.go the exit statuses, boards.go the board input of lookup
// and solve, memory.go the memory checks, progress.go the progress output.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/manifest"
)

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// readManifestFile reads a manifest with the exit status of its failure:
// 2 when it cannot be read (missing, permission), 1 when it is malformed.
func readManifestFile(path string) (*manifest.Manifest, error) {
	m, err := manifest.ReadFile(path)
	var pe *manifest.ParseError
	if errors.As(err, &pe) {
		return nil, dataErr(err)
	}
	return m, err
}

// oneLine keeps the first line of an error message.
func oneLine(err error) string {
	s := err.Error()
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// unwrapPath drops the path of a *PathError that the message already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
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

// openPlan is (*format.SetPlan).Open (a variable so that a test can make
// the load slow).
var openPlan = (*format.SetPlan).Open

// openTables loads the tables and set files through the command's plan of
// them (planFor: the same one loadMemoryNeed and heldLoadMemoryNeed read, so
// that each set file is read once and each table file opened twice, for
// its header and to decode it). The load reads and checks every table
// whole (seconds for big tables); Ctrl-C or SIGTERM ends the wait at once,
// abandoning the load to the exiting process.
func openTables(e *env, files []string) (*format.Set, error) {
	open := openPlan // read here: the load may outlive the command
	plan := e.planFor(files)
	return untilDone(e.context(), func() (*format.Set, error) { return open(plan) })
}

// tileList joins tile numbers with commas: "1,2,3".
func tileList[T uint8 | int](ts []T) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = strconv.Itoa(int(t))
	}
	return strings.Join(s, ",")
}
