package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tilepdb/tilepdb/format"
)

// Status is the outcome of comparing one file of a folder with a manifest.
type Status string

// The statuses CheckDir reports. Only OK and Unlisted describe a folder in
// good order; Unlisted is for the caller to judge (CheckDir reports it,
// `pdbgen verify --manifest` prints it without failing).
const (
	// OK: listed, present, and its header has the listed identity.
	OK Status = "ok"
	// Missing: listed, and no file of that name exists.
	Missing Status = "missing"
	// Mismatch: listed and present, a valid header, another identity
	// (entries, max value or raw SHA-256): another table, another board,
	// or a stale build.
	Mismatch Status = "mismatch"
	// Corrupt: listed and present, but the header cannot be decoded (not
	// a table file, truncated header, checksum mismatch, unsupported
	// version, a directory of that name): bad data.
	Corrupt Status = "corrupt"
	// Unreadable: listed and present, but reading it failed for a reason
	// that says nothing about the data (permission, I/O error): trouble.
	Unreadable Status = "unreadable"
	// Unlisted: a table file (name ending in Suffix) the manifest does not
	// list.
	Unlisted Status = "unlisted"
)

// FileStatus is one line of a folder check.
type FileStatus struct {
	Name   string         // file name within the folder
	Path   string         // folder joined with Name
	Entry  Entry          // the manifest entry (zero for Unlisted)
	Status Status         // see the Status constants
	Reason string         // why, one line, for every status but OK; "" for OK
	Header *format.Header // the header read, for OK, Mismatch and Unlisted with a readable header; else nil
}

// DirError is a data folder that cannot be checked at all: missing, not a
// directory, or unreadable.
type DirError struct {
	Dir string
	Err error
}

func (e *DirError) Error() string { return fmt.Sprintf("data folder %s: %v", e.Dir, e.Err) }
func (e *DirError) Unwrap() error { return e.Err }

// CheckDir compares the folder dir with m by reading headers only
// (format.ReadHeaderFile; it does not decode the values: a table with a
// good header and a damaged payload is OK here, and is caught by a full
// verification). It returns one FileStatus per manifest entry, in manifest
// order, then one per unlisted table file, sorted by name. The error is a
// *DirError when dir does not exist, is not a directory or cannot be
// listed.
func CheckDir(dir string, m *Manifest) ([]FileStatus, error) {
	names, err := tableFiles(dir)
	if err != nil {
		return nil, err
	}
	out := make([]FileStatus, 0, len(m.Entries))
	for _, e := range m.Entries {
		out = append(out, CheckFile(filepath.Join(dir, e.Name), e))
	}
	for _, name := range names {
		if _, listed := m.Lookup(name); listed {
			continue
		}
		r := FileStatus{Name: name, Path: filepath.Join(dir, name), Status: Unlisted}
		h, err := format.ReadHeaderFile(r.Path)
		if err == nil {
			r.Header = h
			r.Reason = fmt.Sprintf("not listed in %s (a table: %d entries, raw_sha256 %s)", m.name(), h.Entries, h.RawSHA256)
		} else {
			r.Reason = fmt.Sprintf("not listed in %s (and not a readable table: %v)", m.name(), oneLine(err))
		}
		out = append(out, r)
	}
	return out, nil
}

// CheckFile compares the file at path with the manifest entry e by its
// header (see CheckDir); the status is never Unlisted.
func CheckFile(path string, e Entry) FileStatus {
	r := FileStatus{Name: e.Name, Path: path, Entry: e}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Status, r.Reason = Missing, "no such file"
		return r
	case err != nil:
		r.Status, r.Reason = Unreadable, oneLine(err)
		return r
	case st.IsDir():
		r.Status, r.Reason = Corrupt, "a directory, not a table file"
		return r
	}
	h, err := format.ReadHeaderFile(path)
	if err != nil {
		r.Status, r.Reason = Corrupt, strings.TrimPrefix(oneLine(err), path+": ")
		if !format.IsBadData(err) {
			r.Status = Unreadable
		}
		return r
	}
	r.Header = h
	if d := e.Diff(FromHeader(e.Name, h)); d != "" {
		r.Status, r.Reason = Mismatch, "header says "+d
		return r
	}
	r.Status = OK
	return r
}

// tableFiles lists the names in dir ending in Suffix (not starting with
// '.', which WriteFile's temporary files do), sorted.
func tableFiles(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, &DirError{Dir: dir, Err: unwrapPath(err)}
	}
	if !st.IsDir() {
		return nil, &DirError{Dir: dir, Err: errors.New("not a directory")}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, &DirError{Dir: dir, Err: unwrapPath(err)}
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasSuffix(n, Suffix) && !strings.HasPrefix(n, ".") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// unwrapPath drops the *PathError's path, which DirError already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// oneLine keeps the first line of an error message.
func oneLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
