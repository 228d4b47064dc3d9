package manifest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/regular"
)

const (
	shaA = "caf2a81c8ec43d3b22c52a95d4eabb673a8bc3774eb51f0bdc5d27b425862470"
	shaB = "7e826654a6f0d67967c621f75d72bf2d715fa250f6f032dff53dd1118343b09f"
)

func TestParseGood(t *testing.T) {
	want := []Entry{
		{Name: "8puzzle.pdb", Entries: 181440, MaxValue: 31, RawSHA256: shaA},
		{Name: "15-555_1-2-3-4-7.pdb", Entries: 524160, MaxValue: 0, RawSHA256: shaB},
	}
	tests := []struct {
		name  string
		text  string
		lines []int
	}{
		{"tabs", "8puzzle.pdb\t181440\t31\t" + shaA + "\n15-555_1-2-3-4-7.pdb\t524160\t0\t" + shaB + "\n", []int{1, 2}},
		{"spaces and comments", "# comment\n\n8puzzle.pdb 181440 31 " + shaA + "\n   # indented comment\n15-555_1-2-3-4-7.pdb  524160\t 0 " + shaB + "  \n", []int{3, 5}},
		{"CRLF", "# c\r\n8puzzle.pdb\t181440\t31\t" + shaA + "\r\n\r\n15-555_1-2-3-4-7.pdb\t524160\t0\t" + shaB + "\r\n", []int{2, 4}},
		{"no final newline", "8puzzle.pdb\t181440\t31\t" + shaA + "\n15-555_1-2-3-4-7.pdb\t524160\t0\t" + shaB, []int{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(strings.NewReader(tt.text), "M.tsv")
			if err != nil {
				t.Fatal(err)
			}
			if m.Path != "M.tsv" || len(m.Entries) != len(want) {
				t.Fatalf("path %q, %d entries", m.Path, len(m.Entries))
			}
			for i, e := range m.Entries {
				w := want[i]
				w.Line = tt.lines[i]
				if e != w {
					t.Errorf("entry %d = %+v, want %+v", i, e, w)
				}
				got, ok := m.Lookup(w.Name)
				if !ok || got != w {
					t.Errorf("Lookup(%q) = %+v, %v", w.Name, got, ok)
				}
			}
			if _, ok := m.Lookup("other.pdb"); ok {
				t.Error("Lookup of an unlisted name succeeded")
			}
		})
	}
}

// TestParseBad: every malformed manifest gets a one-line *ParseError
// naming the file and the line.
func TestParseBad(t *testing.T) {
	good := "8puzzle.pdb\t181440\t31\t" + shaA + "\n"
	tests := []struct {
		name string
		text string
		line int
		msg  string
	}{
		{"empty", "", 0, "lists no tables"},
		{"only comments", "# nothing\n\n", 0, "lists no tables"},
		{"three columns", "# c\n8puzzle.pdb\t181440\t31\n", 2, "want 4 columns (file, entries, max value, raw SHA-256), got 3"},
		{"five columns", good + "x.pdb 1 0 " + shaA + " extra\n", 2, "got 5"},
		{"one column", "8puzzle.pdb\n", 1, "got 1"},
		{"short hash", "a.pdb 1 0 abc\n", 1, `raw SHA-256 "abc": want 64 lowercase hex digits`},
		{"upper-case hash", "a.pdb 1 0 " + strings.ToUpper(shaA) + "\n", 1, "want 64 lowercase hex digits"},
		{"non-hex hash", "a.pdb 1 0 " + strings.Repeat("g", 64) + "\n", 1, "want 64 lowercase hex digits"},
		{"long hash", "a.pdb 1 0 " + shaA + "0\n", 1, "want 64 lowercase hex digits"},
		{"entries text", "a.pdb many 0 " + shaA + "\n", 1, `entries "many": want a whole number >= 1`},
		{"entries zero", "a.pdb 0 0 " + shaA + "\n", 1, "entries \"0\""},
		{"entries negative", "a.pdb -5 0 " + shaA + "\n", 1, "entries \"-5\""},
		{"entries overflow", "a.pdb 99999999999999999999 0 " + shaA + "\n", 1, "entries"},
		{"max text", "a.pdb 1 x " + shaA + "\n", 1, `max value "x": want a whole number 0..254`},
		{"max 255", "a.pdb 1 255 " + shaA + "\n", 1, "max value \"255\""},
		{"max negative", "a.pdb 1 -1 " + shaA + "\n", 1, "max value \"-1\""},
		{"duplicate", good + "# c\n8puzzle.pdb\t181440\t31\t" + shaA + "\n", 3, "8puzzle.pdb listed twice (first on line 1)"},
		{"duplicate, other identity", good + "8puzzle.pdb\t5\t3\t" + shaB + "\n", 2, "listed twice"},
		{"not .pdb", "a.txt 1 0 " + shaA + "\n", 1, `file "a.txt": want a table file name ending in .pdb`},
		{"bare suffix", ".pdb 1 0 " + shaA + "\n", 1, "ending in .pdb"},
		{"directory", "sub/a.pdb 1 0 " + shaA + "\n", 1, "without a directory"},
		{"parent", "../a.pdb 1 0 " + shaA + "\n", 1, "without a directory"},
		{"backslash", `sub\a.pdb 1 0 ` + shaA + "\n", 1, "without a directory"},
		{"drive", "C:a.pdb 1 0 " + shaA + "\n", 1, "without a directory"},
		{"hidden", ".a.pdb 1 0 " + shaA + "\n", 1, "reserved for temporary files"},
		{"control character", "a\x01b.pdb 1 0 " + shaA + "\n", 1, "control character"},
		{"long line", good + "# " + strings.Repeat("x", MaxLineLen) + "\n", 2, "line longer than 4096 bytes"},
		{"long last line", good + strings.Repeat("x", MaxLineLen+1), 2, "line longer than 4096 bytes"},
		{"binary", "\x00\x01\x02TILEPDB\x1a\x00\n", 1, "got 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(strings.NewReader(tt.text), "data/M.tsv")
			if err == nil {
				t.Fatalf("accepted: %+v", m.Entries)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v, want *ParseError", err, err)
			}
			if pe.File != "data/M.tsv" || pe.Line != tt.line {
				t.Errorf("error at %s:%d, want data/M.tsv:%d", pe.File, pe.Line, tt.line)
			}
			prefix := "manifest data/M.tsv: "
			if tt.line > 0 {
				prefix = fmt.Sprintf("manifest data/M.tsv:%d: ", tt.line)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.msg) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line starting %q containing %q", msg, prefix, tt.msg)
			}
		})
	}
}

// TestParseLimits: a line of exactly MaxLineLen bytes is accepted, and a
// manifest may list MaxEntries tables but not one more.
func TestParseLimits(t *testing.T) {
	line := "a.pdb 1 0 " + shaA
	line += strings.Repeat(" ", MaxLineLen-len(line))
	if _, err := Parse(strings.NewReader(line+"\n"), "m"); err != nil {
		t.Errorf("line of %d bytes: %v", len(line), err)
	}
	if _, err := Parse(strings.NewReader(line+" \n"), "m"); err == nil {
		t.Errorf("line of %d bytes accepted", len(line)+1)
	}
	var sb strings.Builder
	for i := 0; i < MaxEntries; i++ {
		fmt.Fprintf(&sb, "t%d.pdb 1 0 %s\n", i, shaA)
	}
	if m, err := Parse(strings.NewReader(sb.String()), "m"); err != nil || len(m.Entries) != MaxEntries {
		t.Fatalf("%d entries: %v", MaxEntries, err)
	}
	fmt.Fprintf(&sb, "last.pdb 1 0 %s\n", shaA)
	_, err := Parse(strings.NewReader(sb.String()), "m")
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("m:%d: more than %d tables", MaxEntries+1, MaxEntries)) {
		t.Errorf("%d entries: %v", MaxEntries+1, err)
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFile(filepath.Join(dir, "none.tsv"))
	if !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "manifest: ") {
		t.Errorf("missing file: %v", err)
	}
	// A directory or a named pipe is trouble (exit 2), not a malformed
	// manifest, and a named pipe must not block the read.
	_, err = ReadFile(dir)
	var pe *ParseError
	if errors.As(err, &pe) || !errors.Is(err, regular.ErrNotRegular) || !strings.Contains(err.Error(), "a directory") {
		t.Errorf("directory: %v", err)
	}
}

// TestRoundTrip: New, WriteFile and ReadFile give back the entries, with
// their lines; the file is replaced atomically and no temporary file stays.
func TestRoundTrip(t *testing.T) {
	entries := []Entry{
		{Name: "b.pdb", Entries: 12, MaxValue: 7, RawSHA256: shaB},
		{Name: "a.pdb", Entries: 181440, MaxValue: 31, RawSHA256: shaA},
	}
	m, err := New(entries)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "MANIFEST.tsv")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range entries {
		entries[i].Line = i + 2 // after the comment line
	}
	if !reflect.DeepEqual(got.Entries, entries) {
		t.Errorf("read back %+v, want %+v", got.Entries, entries)
	}
	if got.Where(got.Entries[1]) != path+":3" {
		t.Errorf("Where = %q", got.Where(got.Entries[1]))
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("folder holds %d files, want only the manifest", len(ents))
	}
	if st, err := os.Stat(path); err != nil || (st.Mode().Perm() != 0o644 && os.PathSeparator == '/') {
		t.Errorf("mode %v, %v", st.Mode(), err)
	}

	// A failed write leaves nothing behind.
	if err := m.WriteFile(filepath.Join(dir, "no", "such", "M.tsv")); err == nil {
		t.Error("write into a missing folder succeeded")
	}
	ents, _ = os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("folder holds %d files after a failed write", len(ents))
	}
}

func TestNewRejects(t *testing.T) {
	good := Entry{Name: "a.pdb", Entries: 1, MaxValue: 0, RawSHA256: shaA}
	tests := []struct {
		name string
		list []Entry
		msg  string
	}{
		{"duplicate", []Entry{good, good}, "listed twice"},
		{"bad name", []Entry{{Name: "a/b.pdb", Entries: 1, RawSHA256: shaA}}, "without a directory"},
		{"zero entries", []Entry{{Name: "a.pdb", RawSHA256: shaA}}, "entries must be >= 1"},
		{"max", []Entry{{Name: "a.pdb", Entries: 1, MaxValue: 255, RawSHA256: shaA}}, "max value 255"},
		{"sha", []Entry{{Name: "a.pdb", Entries: 1, RawSHA256: "x"}}, "64 lowercase hex"},
	}
	for _, tt := range tests {
		if _, err := New(tt.list); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.msg)
		}
	}
	if m, err := New(nil); err != nil || len(m.Entries) != 0 {
		t.Errorf("New(nil) = %v, %v", m, err)
	}
}

func TestDiff(t *testing.T) {
	e := Entry{Name: "a.pdb", Entries: 10, MaxValue: 3, RawSHA256: shaA}
	if d := e.Diff(e); d != "" || !e.SameIdentity(e) {
		t.Errorf("self diff %q", d)
	}
	o := Entry{Name: "b.pdb", Entries: 11, MaxValue: 3, RawSHA256: shaB, Line: 7}
	want := "11 entries (manifest 10), raw_sha256 " + shaB + " (manifest " + shaA + ")"
	if d := e.Diff(o); d != want || e.SameIdentity(o) {
		t.Errorf("diff %q, want %q", d, want)
	}
}

// FuzzParse: Parse never panics, errors are one line naming the file, and
// an accepted manifest survives Encode and Parse unchanged.
func FuzzParse(f *testing.F) {
	f.Add("8puzzle.pdb\t181440\t31\t" + shaA + "\n")
	f.Add("# c\r\na.pdb 1 0 " + shaA + "\r\nb.pdb 2 254 " + shaB)
	f.Add("a.pdb 1 0 " + shaA + "\na.pdb 1 0 " + shaA + "\n")
	if b, err := os.ReadFile(filepath.Join("..", "data", "MANIFEST.tsv")); err == nil {
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := Parse(strings.NewReader(text), "f.tsv")
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "manifest f.tsv") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q", msg)
			}
			return
		}
		var sb strings.Builder
		if err := m.Encode(&sb); err != nil {
			t.Fatal(err)
		}
		m2, err := Parse(strings.NewReader(sb.String()), "f.tsv")
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, sb.String())
		}
		if len(m2.Entries) != len(m.Entries) {
			t.Fatalf("%d entries, re-parsed %d", len(m.Entries), len(m2.Entries))
		}
		for i := range m.Entries {
			a, b := m.Entries[i], m2.Entries[i]
			a.Line, b.Line = 0, 0
			if a != b {
				t.Fatalf("entry %d: %+v re-parsed as %+v", i, a, b)
			}
		}
	})
}
