package manifest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/atomicfile"
	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Limits on what Parse accepts, so that a wrong file given as a manifest
// fails fast instead of filling memory.
const (
	// MaxLineLen is the longest line accepted, in bytes.
	MaxLineLen = 4096
	// MaxEntries is the largest number of tables one manifest may list.
	MaxEntries = 1 << 16
)

// Suffix ends every table file name a manifest may list.
const Suffix = preset.FileSuffix

// headerComment is the first line Encode writes.
const headerComment = "# tilepdb manifest: file\tentries\tmax value\tSHA-256 of the raw table (pdbgen info shows it as raw_sha256)\n"

// Entry is one table of a manifest.
type Entry struct {
	Name      string // file name within the folder, e.g. "8puzzle.pdb"
	Entries   uint64 // number of table entries, >= 1
	MaxValue  int    // largest entry, 0..254
	RawSHA256 string // SHA-256 of the raw table, 64 lowercase hex digits
	Line      int    // line of the manifest file it was read from; 0 when not read from a file
}

// SameIdentity reports whether e and o describe the same table: equal
// entries, maximum value and raw SHA-256 (the SHA-256 alone decides, the
// other two make a mismatch easier to read). Names and lines are ignored.
func (e Entry) SameIdentity(o Entry) bool {
	return e.Entries == o.Entries && e.MaxValue == o.MaxValue && e.RawSHA256 == o.RawSHA256
}

// FromHeader is the manifest entry of a table file named name with header h.
func FromHeader(name string, h *format.Header) Entry {
	return Entry{Name: name, Entries: h.Entries, MaxValue: h.MaxValue, RawSHA256: h.RawSHA256}
}

// Diff describes how got differs from the identity of e, one short clause
// per differing field ("raw_sha256 1f2e... (manifest 77ab...)"), joined
// by ", "; "" when they match.
func (e Entry) Diff(got Entry) string {
	var parts []string
	if got.Entries != e.Entries {
		parts = append(parts, fmt.Sprintf("%d entries (manifest %d)", got.Entries, e.Entries))
	}
	if got.MaxValue != e.MaxValue {
		parts = append(parts, fmt.Sprintf("max value %d (manifest %d)", got.MaxValue, e.MaxValue))
	}
	if got.RawSHA256 != e.RawSHA256 {
		parts = append(parts, fmt.Sprintf("raw_sha256 %s (manifest %s)", got.RawSHA256, e.RawSHA256))
	}
	return strings.Join(parts, ", ")
}

// Manifest is a parsed manifest.
type Manifest struct {
	Path    string  // the file it was read from, "" if none
	Entries []Entry // in file order, names unique
	index   map[string]int
}

// New returns a manifest listing entries (in that order), checking each
// entry as Parse would; the error names the first bad entry.
func New(entries []Entry) (*Manifest, error) {
	m := &Manifest{index: map[string]int{}}
	for _, e := range entries {
		if msg := checkEntry(e); msg != "" {
			return nil, fmt.Errorf("manifest entry %q: %s", e.Name, msg)
		}
		if _, dup := m.index[e.Name]; dup {
			return nil, fmt.Errorf("manifest entry %q: listed twice", e.Name)
		}
		m.index[e.Name] = len(m.Entries)
		m.Entries = append(m.Entries, e)
	}
	return m, nil
}

// Lookup returns the entry named name.
func (m *Manifest) Lookup(name string) (Entry, bool) {
	i, ok := m.index[name]
	if !ok {
		return Entry{}, false
	}
	return m.Entries[i], true
}

// name is Path, or "the manifest" when it is empty.
func (m *Manifest) name() string {
	if m.Path == "" {
		return "the manifest"
	}
	return m.Path
}

// Where names the manifest line of e for messages: "FILE:LINE", or the
// manifest's path alone when the line is unknown.
func (m *Manifest) Where(e Entry) string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", m.name(), e.Line)
	}
	return m.name()
}

// ParseError is a malformed manifest: File (as given to Parse) and Line
// (1-based; 0 when the problem is not on one line) locate it.
type ParseError struct {
	File string
	Line int
	Msg  string
}

// Error returns "manifest FILE:LINE: MSG" (or "manifest FILE: MSG"), one
// line.
func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("manifest %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("manifest %s: %s", e.File, e.Msg)
}

// ReadFile reads and parses the manifest at path. A file that cannot be
// opened or read yields the *os.PathError (or read error) wrapped with
// "manifest: "; a malformed one a *ParseError.
func ReadFile(path string) (*Manifest, error) {
	f, err := regular.Open(path) // a directory or a named pipe is trouble, not a malformed manifest
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a manifest from r; file names it in errors and becomes
// Manifest.Path. Errors: *ParseError for malformed content (see the
// package documentation), or the reader's error wrapped with the file
// name.
func Parse(r io.Reader, file string) (*Manifest, error) {
	m := &Manifest{Path: file, index: map[string]int{}}
	br := bufio.NewReaderSize(r, MaxLineLen+2)
	for line := 1; ; line++ {
		raw, err := readLine(br)
		if errors.Is(err, errLong) {
			return nil, &ParseError{File: file, Line: line, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineLen)}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("manifest %s: %w", file, err)
		}
		if raw != nil {
			if perr := m.parseLine(file, line, raw); perr != nil {
				return nil, perr
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if len(m.Entries) == 0 {
		return nil, &ParseError{File: file, Msg: "lists no tables"}
	}
	return m, nil
}

var errLong = errors.New("line too long")

// readLine returns the next line without its "\n" (nil at the end of the
// input), io.EOF with the last line, or errLong for a line (without "\n")
// longer than MaxLineLen bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	b, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return nil, errLong
	}
	if err == nil {
		b = b[:len(b)-1]
	} else if len(b) == 0 {
		return nil, err
	}
	if len(b) > MaxLineLen {
		return nil, errLong
	}
	return b, err
}

func (m *Manifest) parseLine(file string, line int, raw []byte) error {
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	bad := func(format string, a ...any) error {
		return &ParseError{File: file, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	s := strings.TrimSpace(string(raw))
	if s == "" || strings.HasPrefix(s, "#") {
		return nil
	}
	f := strings.Fields(s)
	if len(f) != 4 {
		return bad("want 4 columns (file, entries, max value, raw SHA-256), got %d", len(f))
	}
	e := Entry{Name: f[0], RawSHA256: f[3], Line: line}
	if msg := checkName(e.Name); msg != "" {
		return bad("%s", msg)
	}
	n, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil || n == 0 {
		return bad("entries %q: want a whole number >= 1", f[1])
	}
	e.Entries = n
	v, err := strconv.Atoi(f[2])
	if err != nil || v < 0 || v >= puzzle.Unreached {
		return bad("max value %q: want a whole number 0..%d", f[2], puzzle.Unreached-1)
	}
	e.MaxValue = v
	if !isLowerHex(e.RawSHA256, 64) {
		return bad("raw SHA-256 %q: want 64 lowercase hex digits", clip(e.RawSHA256))
	}
	if first, dup := m.index[e.Name]; dup {
		return bad("%s listed twice (first on line %d)", e.Name, m.Entries[first].Line)
	}
	if len(m.Entries) >= MaxEntries {
		return bad("more than %d tables", MaxEntries)
	}
	m.index[e.Name] = len(m.Entries)
	m.Entries = append(m.Entries, e)
	return nil
}

// checkEntry returns what is wrong with e, or "".
func checkEntry(e Entry) string {
	if msg := checkName(e.Name); msg != "" {
		return msg
	}
	switch {
	case e.Entries == 0:
		return "entries must be >= 1"
	case e.MaxValue < 0 || e.MaxValue >= puzzle.Unreached:
		return fmt.Sprintf("max value %d outside 0..%d", e.MaxValue, puzzle.Unreached-1)
	case !isLowerHex(e.RawSHA256, 64):
		return fmt.Sprintf("raw SHA-256 %q is not 64 lowercase hex digits", clip(e.RawSHA256))
	}
	return ""
}

// checkName returns what is wrong with a table file name, or "".
func checkName(name string) string {
	switch {
	case !strings.HasSuffix(name, Suffix) || len(name) == len(Suffix):
		return fmt.Sprintf("file %q: want a table file name ending in %s", clip(name), Suffix)
	case strings.ContainsAny(name, `/\:`):
		return fmt.Sprintf("file %q: want a name within the folder, without a directory", clip(name))
	case strings.HasPrefix(name, "."):
		return fmt.Sprintf("file %q: names starting with '.' are reserved for temporary files", clip(name))
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return fmt.Sprintf("file %q: control character in the name", clip(name))
		}
	}
	return ""
}

// isLowerHex reports whether s is n lowercase hexadecimal digits.
func isLowerHex(s string, n int) bool {
	return len(s) == n && strings.Trim(s, "0123456789abcdef") == ""
}

// clip shortens s for an error message.
func clip(s string) string {
	const n = 80
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// Encode writes m in the manifest format: a comment line naming the
// columns, then one tab-separated line per entry in m's order. Parse of
// the output gives back the same entries.
func (m *Manifest) Encode(w io.Writer) error {
	var sb strings.Builder
	sb.WriteString(headerComment)
	for _, e := range m.Entries {
		fmt.Fprintf(&sb, "%s\t%d\t%d\t%s\n", e.Name, e.Entries, e.MaxValue, e.RawSHA256)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteFile writes m to path atomically (internal/atomicfile): into a
// temporary file in the same folder, synced, then renamed over path. On
// error an existing file at path is left as it was and no temporary file
// stays. The file gets mode 0644.
func (m *Manifest) WriteFile(path string) error {
	if err := atomicfile.Write(path, 0o644, m.Encode); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return nil
}
