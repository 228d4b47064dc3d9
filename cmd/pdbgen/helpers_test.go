package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// result is what one in-process pdbgen invocation produced.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout:\n%s--- stderr:\n%s", r.code, r.stdout, r.stderr)
}

// pdbgen runs one command line in-process with stdin as input (stderr is
// not a terminal). It fails the test on a panic or on anything that looks
// like a Go stack trace in the output.
func pdbgen(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return pdbgenEnv(t, false, stdin, args...)
}

func pdbgenEnv(t *testing.T, tty bool, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, stderrIsTTY: tty}
	var code int
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("pdbgen %s panicked: %v\n%s", strings.Join(args, " "), r, debug.Stack())
			}
		}()
		code = run(e, args)
	}()
	res := result{code: code, stdout: out.String(), stderr: errb.String()}
	noStackTrace(t, args, res)
	return res
}

// stackRE matches what a Go panic or stack trace would print.
var stackRE = regexp.MustCompile(`(?m)panic:|^goroutine \d+|\.go:\d+|runtime error|\[signal `)

func noStackTrace(t *testing.T, args []string, r result) {
	t.Helper()
	for _, s := range []string{r.stdout, r.stderr} {
		if stackRE.MatchString(s) {
			t.Fatalf("pdbgen %s printed something like a Go stack trace:\n%v", strings.Join(args, " "), r)
		}
	}
}

// wantCode fails unless r exited with code.
func wantCode(t *testing.T, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit status %d, want %d\n%v", r.code, code, r)
	}
}

// oneErrorLine checks that stderr is exactly one line "pdbgen CMD: ..."
// containing want.
func oneErrorLine(t *testing.T, r result, cmd, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasSuffix(r.stderr, "\n") {
		t.Fatalf("stderr is %d line(s), want exactly one error line\n%v", len(lines), r)
	}
	if !strings.HasPrefix(lines[0], "pdbgen "+cmd+": ") {
		t.Errorf("error line %q does not start with %q", lines[0], "pdbgen "+cmd+": ")
	}
	if !strings.Contains(lines[0], want) {
		t.Errorf("error line %q does not contain %q", lines[0], want)
	}
}

// lines splits output into its lines (none for "").
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// dirEntries lists the names in dir (nil when it does not exist).
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Shared tables, built once per test binary with the CLI itself (quiet,
// into a directory that TestMain removes).
var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixtureErr  error
)

// The fixture files: the exact 8-puzzle table, two disjoint additive 3x3
// tables, and the exact blank-first 8-puzzle table.
const (
	fx8       = "8puzzle.pdb"
	fx123     = "3x3_1-2-3.pdb"
	fx456     = "3x3_4-5-6.pdb"
	fx8bf     = "8puzzle-bf.pdb"
	fx123bf   = "3x3-bf_1-2-3.pdb"
	sha8      = "caf2a81c8ec43d3b22c52a95d4eabb673a8bc3774eb51f0bdc5d27b425862470" // data/MANIFEST.tsv
	goal8     = "1 2 3 4 5 6 7 8 0"
	hardest8  = "8 6 7 2 5 4 3 0 1" // one of the two 31-move 8-puzzle states
	swapped8  = "2 1 3 4 5 6 7 8 0" // unsolvable
	twoMoves8 = "1 2 3 4 5 6 0 7 8" // blank moves r, r
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
	os.Exit(code)
}

// fixture returns the path of a shared table, building them all on first use.
func fixture(t *testing.T, name string) string {
	t.Helper()
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pdbgen-test-")
		if err != nil {
			fixtureErr = err
			return
		}
		fixtureDir = dir
		builds := [][]string{
			{"build", "--quiet", "-j", "2", "-o", dir, "--preset", "8puzzle"},
			{"build", "--quiet", "-j", "2", "-o", dir, "--board", "3x3", "--tiles", "1,2,3", "--tiles", "4-6"},
			{"build", "--quiet", "-j", "2", "-o", dir, "--preset", "8puzzle", "--goal", "blank-first"},
			{"build", "--quiet", "-j", "2", "-o", dir, "--board", "3x3", "--tiles", "1,2,3", "--goal", "blank-first"},
		}
		for _, args := range builds {
			var out, errb bytes.Buffer
			if code := run(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, args); code != 0 {
				fixtureErr = fmt.Errorf("pdbgen %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
				return
			}
		}
	})
	if fixtureErr != nil {
		t.Fatalf("building the shared tables: %v", fixtureErr)
	}
	p := filepath.Join(fixtureDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return p
}

// corrupt writes a damaged copy of the table file src into dir and returns
// its path.
func corrupt(t *testing.T, dir, src, how string) string {
	t.Helper()
	b := readBytes(t, src)
	n := int(binary.LittleEndian.Uint32(b[12:16])) // header length
	switch how {
	case "header": // a byte of the JSON header
		b[16+n/2] ^= 0x01
	case "header-sha": // a byte of the header checksum
		b[16+n+5] ^= 0x80
	case "payload": // a byte in the middle of the first zstd frame
		b[48+n+(len(b)-48-n)/2] ^= 0x40
	case "version": // major version 7
		b[8] = 7
	case "magic":
		b[0] = 'X'
	case "truncated":
		b = b[:len(b)-10]
	case "truncated-header":
		b = b[:30]
	case "trailing":
		b = append(b, 0)
	case "empty":
		b = nil
	case "text":
		b = []byte("hello, world\n")
	default:
		t.Fatalf("corrupt: unknown damage %q", how)
	}
	p := filepath.Join(dir, how+"_"+filepath.Base(src))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// failWriter accepts limit bytes, then fails every write (a full disk, a
// closed pipe).
type failWriter struct{ limit int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) <= w.limit {
		w.limit -= len(p)
		return len(p), nil
	}
	n := w.limit
	w.limit = 0
	return n, errors.New("no space left on device")
}
