package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// tempNameRE matches the names of Write's temporary files: "." + the
// target's base name + ".tmp-" + random digits (os.CreateTemp). Write
// renames its temporary over the target when complete; a writer killed
// before (SIGKILL, power loss) leaves it behind, and RemoveStaleTemps,
// which Write calls, removes it on the next write into the directory.
var tempNameRE = regexp.MustCompile(`^\..+\.tmp-[0-9]+$`)

// tempPattern is the os.CreateTemp pattern of Write's temporary file
// for the target base name base.
func tempPattern(base string) string { return "." + base + ".tmp-*" }

// staleAge is how old (by modification time) a temporary file must be
// before RemoveStaleTemps considers it: it protects the instant between a
// concurrent writer creating its temporary file and locking it.
const staleAge = 10 * time.Second

// RemoveStaleTemps removes, from directory dir, the temporary files left by
// Write calls that did not finish (their process was killed): names of
// the form ".NAME.tmp-DIGITS", regular files, last modified more than 10
// seconds ago, and not in use by a writer. "In use" is decided by the lock
// every Write holds on its temporary file (flock on Linux, macOS and
// the BSDs); on Windows an open file cannot be removed, so a writer's file
// survives; elsewhere, without a lock to ask, only files older than an
// hour are removed. It returns the paths removed; errors (an unreadable
// directory, a file that cannot be removed) stop nothing and are returned
// after the rest is done, the first one only.
func RemoveStaleTemps(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	var first error
	now := time.Now()
	for _, e := range entries {
		if !e.Type().IsRegular() || !tempNameRE.MatchString(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // gone meanwhile
		}
		if now.Sub(info.ModTime()) < minStaleAge() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if tempInUse(path) {
			continue
		}
		if err := os.Remove(path); err != nil {
			if first == nil && !os.IsNotExist(err) {
				first = err
			}
			continue
		}
		removed = append(removed, path)
	}
	return removed, first
}

var errIsDir = errors.New("is a directory")

// CheckWritable reports whether Write could write path, without
// writing it: path must not be a directory, and its directory must exist
// and accept a new file (CheckWritable creates and removes a temporary file
// there, named as Write names them). Meant for callers that run a long
// computation before writing, so that they fail before it. Errors name
// path, not the temporary file.
func CheckWritable(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return &os.PathError{Op: "create", Path: path, Err: errIsDir}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, tempPattern(base))
	if err != nil {
		return targetErr(path, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return targetErr(path, err)
	}
	return nil
}

// targetErr makes err name the target path: a *PathError or *LinkError
// about a temporary file becomes a *PathError about path ("open
// data/x.pdb: permission denied" rather than the hidden temporary's name);
// any other error is prefixed with "path: ".
func targetErr(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) && tempNameRE.MatchString(filepath.Base(pe.Path)) {
		return &os.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	var le *os.LinkError
	if errors.As(err, &le) && tempNameRE.MatchString(filepath.Base(le.Old)) {
		return &os.PathError{Op: le.Op, Path: path, Err: le.Err}
	}
	return fmt.Errorf("%s: %w", path, err)
}

// ErrInUse is LockDir's error for a directory another process (or another
// LockDir of this one) holds locked.
var ErrInUse = errors.New("in use by another build")
