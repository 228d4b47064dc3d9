package main

import (
	"bytes"
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

// TestUsage covers command-line mistakes: each exits 2 (or 0 for help)
// with a clear message, and a failed build writes nothing.
func TestUsage(t *testing.T) {
	type tc struct {
		name   string
		args   []string // "$OUT" is replaced by a fresh output directory, "$TMP" by the test's temp dir
		code   int
		stdout string // substring of stdout ("" = stdout must be empty)
		stderr string // substring of stderr
		cmd    string // when set, stderr must be the single line "pdbgen <cmd>: ..." containing stderr
	}
	tests := []tc{
		{name: "no args", args: nil, code: 2, stderr: "Usage:"},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: `unknown command "frobnicate"`},
		{name: "help", args: []string{"help"}, code: 0, stderr: "Commands:"},
		{name: "-h", args: []string{"-h"}, code: 0, stderr: "Commands:"},
		{name: "--help", args: []string{"--help"}, code: 0, stderr: "Commands:"},
		{name: "help build", args: []string{"help", "build"}, code: 0, stdout: "usage: pdbgen build "},
		{name: "help unknown", args: []string{"help", "frobnicate"}, code: 0, stderr: "Commands:"},
		{name: "build -h", args: []string{"build", "-h"}, code: 0, stderr: "-max-memory"},
		{name: "verify --help", args: []string{"verify", "--help"}, code: 0, stderr: "-deep"},
		{name: "unknown flag", args: []string{"build", "--nope", "-o", "$OUT"}, code: 2, stderr: "flag provided but not defined: -nope"},
		{name: "unknown flag info", args: []string{"info", "--deep", "x.pdb"}, code: 2, stderr: "flag provided but not defined: -deep"},
		{name: "bad -j value", args: []string{"build", "-j", "many", "-o", "$OUT"}, code: 2, stderr: `invalid value "many" for flag -j`},
		{name: "positional argument", args: []string{"build", "--preset", "8puzzle", "-o", "$OUT", "extra"}, code: 2, cmd: "build", stderr: `unexpected argument "extra"`},
		{name: "preset and board", args: []string{"build", "--preset", "8puzzle", "--board", "3x3", "--tiles", "1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "either --preset or --board"},
		{name: "board without tiles", args: []string{"build", "--board", "3x3", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "--board and --tiles go together"},
		{name: "tiles without board", args: []string{"build", "--tiles", "1,2", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "--board and --tiles go together"},
		{name: "board 6x6", args: []string{"build", "--board", "6x6", "--tiles", "1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "6x6"},
		{name: "board 1x3", args: []string{"build", "--board", "1x3", "--tiles", "1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "between 2 and 5"},
		{name: "board abc", args: []string{"build", "--board", "abc", "--tiles", "1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: `"abc"`},
		{name: "tile 0", args: []string{"build", "--board", "3x3", "--tiles", "0,1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "blank"},
		{name: "tile 99", args: []string{"build", "--board", "3x3", "--tiles", "99", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "99"},
		{name: "tile 9 on 3x3", args: []string{"build", "--board", "3x3", "--tiles", "1,9", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "9"},
		{name: "tile not a number", args: []string{"build", "--board", "3x3", "--tiles", "1,a", "-o", "$OUT"}, code: 2, cmd: "build", stderr: `"a"`},
		{name: "duplicate tile", args: []string{"build", "--board", "3x3", "--tiles", "1,2,1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "tile 1 listed twice"},
		{name: "overlapping sets", args: []string{"build", "--board", "3x3", "--tiles", "1,2,3", "--tiles", "3,4", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "are not disjoint: both hold tile(s) 3"},
		{name: "N-2 tiles", args: []string{"build", "--board", "3x3", "--tiles", "1-7", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "7 of 8 tiles"},
		{name: "N-2 tiles 2x2", args: []string{"build", "--board", "2x2", "--tiles", "1,2", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "2 of 3 tiles"},
		{name: "unknown preset", args: []string{"build", "--preset", "15-puzzle", "-o", "$OUT"}, code: 2, cmd: "build", stderr: `unknown preset "15-puzzle"`},
		{name: "empty preset name", args: []string{"build", "--preset", "8puzzle,", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "unknown preset"},
		{name: "-j 0", args: []string{"build", "-j", "0", "--preset", "8puzzle", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "-j must be at least 1"},
		{name: "-j -3", args: []string{"build", "-j", "-3", "--preset", "8puzzle", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "-j must be at least 1"},
		{name: "goal garbage preset", args: []string{"build", "--preset", "8puzzle", "--goal", "garbage", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "goal"},
		{name: "goal garbage board", args: []string{"build", "--board", "3x3", "--tiles", "1", "--goal", "garbage", "-o", "$OUT"}, code: 2, cmd: "build", stderr: `goal "garbage"`},
		{name: "goal repeated tile", args: []string{"build", "--board", "3x3", "--tiles", "1", "--goal", "1,1,3,4,5,6,7,8,0", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "tile 1 appears twice"},
		{name: "goal wrong size", args: []string{"build", "--board", "3x3", "--tiles", "1", "--goal", "1,2,3,0", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "want 9"},
		{name: "max-memory tiny", args: []string{"build", "--preset", "8puzzle", "--max-memory", "1K", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "8puzzle.pdb needs about "},
		{name: "max-memory tiny custom", args: []string{"build", "--board", "3x3", "--tiles", "1,2,3", "--max-memory", "100", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "3x3_1-2-3.pdb needs about "},
		{name: "max-memory garbage", args: []string{"build", "--preset", "8puzzle", "--max-memory", "lots", "-o", "$OUT"}, code: 2, cmd: "build", stderr: `--max-memory "lots"`},
		{name: "max-memory zero", args: []string{"build", "--preset", "8puzzle", "--max-memory", "0", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "--max-memory"},
		{name: "missing manifest", args: []string{"build", "--preset", "8puzzle", "--manifest", "$TMP/nope.tsv", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "manifest"},
		{name: "output under a regular file", args: []string{"build", "--board", "3x3", "--tiles", "1,2,3", "-o", "$TMP/file/sub"}, code: 2, cmd: "build", stderr: "not a directory"},
		{name: "output is a regular file", args: []string{"build", "--board", "3x3", "--tiles", "1,2,3", "-o", "$TMP/file"}, code: 2, cmd: "build", stderr: "output directory"},
		{name: "verify no args", args: []string{"verify"}, code: 2, cmd: "verify", stderr: "no table files given"},
		{name: "verify -j 0 flag only", args: []string{"verify", "--deep"}, code: 2, cmd: "verify", stderr: "no table files given"},
		{name: "info no args", args: []string{"info", "--json"}, code: 2, cmd: "info", stderr: "no table files given"},
		{name: "lookup no args", args: []string{"lookup"}, code: 2, cmd: "lookup", stderr: "no table files given"},
		{name: "solve no args", args: []string{"solve", "--json"}, code: 2, cmd: "solve", stderr: "no table files given"},
		{name: "solve bad --from", args: []string{"solve", "--from", "blank-last", "x.pdb"}, code: 2, cmd: "solve", stderr: `--from: only "blank-first"`},
		{name: "solve -j 0", args: []string{"solve", "-j", "0", "x.pdb"}, code: 2, cmd: "solve", stderr: "-j must be at least 1"},
		{name: "presets extra flag", args: []string{"presets", "--json"}, code: 2, stderr: "flag provided but not defined: -json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			// A regular file for the output-directory cases.
			const content = "not a directory\n"
			if err := os.WriteFile(filepath.Join(tmp, "file"), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(tmp, "out")
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				a = strings.ReplaceAll(a, "$OUT", out)
				args[i] = strings.ReplaceAll(a, "$TMP", tmp)
			}
			r := pdbgen(t, "", args...)
			wantCode(t, r, tt.code)
			if tt.stdout == "" && r.stdout != "" {
				t.Errorf("stdout should be empty\n%v", r)
			}
			if !strings.Contains(r.stdout, tt.stdout) {
				t.Errorf("stdout does not contain %q\n%v", tt.stdout, r)
			}
			if !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("stderr does not contain %q\n%v", tt.stderr, r)
			}
			if tt.cmd != "" {
				oneErrorLine(t, r, tt.cmd, tt.stderr)
			}
			// Nothing written: the output directory was not created, the
			// regular file is intact, and no stray file appeared.
			if names := dirEntries(t, out); names != nil {
				t.Errorf("failed command created %s holding %v", out, names)
			}
			if got := string(readBytes(t, filepath.Join(tmp, "file"))); got != content {
				t.Errorf("regular file was modified: %q", got)
			}
			if names := dirEntries(t, tmp); len(names) != 1 {
				t.Errorf("temp dir holds %v, want only the regular file", names)
			}
		})
	}
}

func TestMaxMemoryMessageNamesSize(t *testing.T) {
	r := pdbgen(t, "", "build", "--preset", "8puzzle", "--max-memory", "1K", "-o", filepath.Join(t.TempDir(), "out"))
	wantCode(t, r, 2)
	// "8puzzle.pdb needs about 177.2 KiB of memory, more than the 1.0 KiB available (...)"
	re := regexp.MustCompile(`needs about [0-9.]+ (KiB|MiB) of memory, more than the --max-memory limit of 1\.0 KiB`)
	if !re.MatchString(r.stderr) {
		t.Errorf("message does not name the memory needed and the limit:\n%v", r)
	}
	// A generous limit lets the same build through.
	r = pdbgen(t, "", "build", "--quiet", "--preset", "8puzzle", "--max-memory", "1G", "-o", t.TempDir())
	wantCode(t, r, 0)
}

func TestPresetsAndVersion(t *testing.T) {
	r := pdbgen(t, "", "presets")
	wantCode(t, r, 0)
	if r.stderr != "" {
		t.Errorf("presets wrote to stderr:\n%v", r)
	}
	ls := lines(r.stdout)
	if len(ls) != 5 {
		t.Fatalf("presets printed %d lines, want 5\n%v", len(ls), r)
	}
	for i, want := range []struct{ name, size string }{
		{"8puzzle", "3x3"}, {"15-555", "4x4"}, {"15-663", "4x4"}, {"15-78", "4x4"}, {"24-6666", "5x5"},
	} {
		f := strings.Fields(ls[i])
		if len(f) < 3 || f[0] != want.name || f[1] != want.size {
			t.Errorf("presets line %d = %q, want %s %s ...", i+1, ls[i], want.name, want.size)
		}
		isDefault := strings.HasSuffix(ls[i], "(default)")
		if wantDefault := i < 3; isDefault != wantDefault {
			t.Errorf("presets line %q: default marker %v, want %v", ls[i], isDefault, wantDefault)
		}
	}

	r = pdbgen(t, "", "version")
	wantCode(t, r, 0)
	if r.stdout != "tilepdb pdbgen "+Version+"\n" || r.stderr != "" {
		t.Errorf("version:\n%v", r)
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(Version) {
		t.Errorf("Version %q is not semver", Version)
	}
}

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"100", 100, true},
		{"1K", 1 << 10, true},
		{"1k", 1 << 10, true},
		{"512M", 512 << 20, true},
		{"4G", 4 << 30, true},
		{"4GB", 4 << 30, true},
		{"4GiB", 4 << 30, true},
		{"1T", 1 << 40, true},
		{"1.5K", 1536, true},
		{" 2M ", 2 << 20, true},
		{"", 0, false},
		{"0", 0, false},
		{"-1G", 0, false},
		{"lots", 0, false},
		{"G", 0, false},
		{"1X", 0, false},
	}
	for _, tt := range tests {
		got, err := parseBytes(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "--max-memory") {
			t.Errorf("parseBytes(%q) error %q does not name the flag", tt.in, err)
		}
	}
}

func TestHumanBytes(t *testing.T) {
	for _, tt := range []struct {
		n    uint64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {181440, "177.2 KiB"},
		{5 << 20, "5.0 MiB"}, {3 << 30, "3.00 GiB"},
	} {
		if got := humanBytes(tt.n); got != tt.want {
			t.Errorf("humanBytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
