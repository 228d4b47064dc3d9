// Package regular opens files that must be regular files (tables, set
// files, manifests) without blocking on anything else.
//
// os.Open of a named pipe (FIFO) with no writer blocks until one appears,
// and a read of a character device may never end; a program told to read
// a table must instead refuse such a path at once. Open follows symbolic
// links, checks with os.Stat that the target is a regular file, and only
// then opens it; a path that changes between the two calls (a race an
// attacker controls) is caught by a second check on the open file, and the
// open itself cannot block on the platforms where it could (unix: the file
// is opened with O_NONBLOCK, which has no effect on a regular file).
package regular

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
)

// ErrNotRegular is wrapped by the error for a path that names something
// other than a regular file (a directory, a named pipe, a device, a
// socket).
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is the error for a path that is not a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

// Error returns "PATH: not a regular file (a named pipe)", the path quoted
// when it holds bytes a terminal would interpret.
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: %v (%s)", Name(e.Path), ErrNotRegular, kind(e.Mode))
}

// Unwrap returns ErrNotRegular.
func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// Name returns path as it is, or quoted in Go syntax (%q) when it holds a
// control character, invalid UTF-8, a quote or a backslash, so that a name
// read from a file cannot write control bytes to the terminal.
func Name(path string) string {
	q := strconv.Quote(path)
	if q[1:len(q)-1] == path {
		return path
	}
	return q
}

func kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeDir != 0:
		return "a directory"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "mode " + m.String()
}

// Check returns a *NotRegularError when path (symbolic links followed) is
// not a regular file, the *fs.PathError of os.Stat when it cannot be
// examined (missing, permission), or nil.
func Check(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // what the caller was about to do: "open x.pdb: no such file or directory"
		}
		return err
	}
	if !st.Mode().IsRegular() {
		return &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return nil
}

// Open opens path for reading when it is a regular file (Check); it never
// blocks on a named pipe or a device.
func Open(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() { // replaced since Check
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}
