package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

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
		{name: "help help", args: []string{"help", "help"}, code: 0, stdout: "usage: pdbgen help [COMMAND]"},
		{name: "help unknown", args: []string{"help", "frobnicate"}, code: 2, stderr: `pdbgen help: unknown command "frobnicate"`},
		{name: "build -h", args: []string{"build", "-h"}, code: 0, stderr: "-max-memory"},
		{name: "verify --help", args: []string{"verify", "--help"}, code: 0, stderr: "-deep"},
		{name: "unknown flag", args: []string{"build", "--nope", "-o", "$OUT"}, code: 2, stderr: "flag provided but not defined: -nope"},
		{name: "unknown flag info", args: []string{"info", "--deep", "x.pdb"}, code: 2, stderr: "flag provided but not defined: -deep"},
		{name: "bad -j value", args: []string{"build", "-j", "many", "-o", "$OUT"}, code: 2, stderr: `invalid value "many" for flag -j`},
		{name: "positional argument", args: []string{"build", "--preset", "8puzzle", "-o", "$OUT", "extra"}, code: 2, cmd: "build", stderr: `unexpected argument "extra"`},
		{name: "preset and board", args: []string{"build", "--preset", "8puzzle", "--board", "3x3", "--tiles", "1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "either --preset or --board"},
		{name: "board without tiles", args: []string{"build", "--board", "3x3", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "--board and --tiles go together"},
		{name: "tiles without board", args: []string{"build", "--tiles", "1,2", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "--board and --tiles go together"},
		{name: "board 9x9", args: []string{"build", "--board", "9x9", "--tiles", "1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "board 9x9: each side must be between 2 and 8"},
		{name: "board 8x9", args: []string{"build", "--board", "8x9", "--tiles", "1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "board 8x9"},
		{name: "8x8 7 tiles", args: []string{"build", "--board", "8x8", "--tiles", "1-7", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "7 tiles on a 8x8 board need more than 2^36 entries"},
		{name: "8x8 6 tiles past the builder", args: []string{"build", "--board", "8x8", "--tiles", "1-6", "--max-memory", "1000G", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "more than the builder's limit of 2^24"},
		{name: "board 1x3", args: []string{"build", "--board", "1x3", "--tiles", "1", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "between 2 and 8"},
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
		{name: "-j 0", args: []string{"build", "-j", "0", "--preset", "8puzzle", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "-j must be between 1 and 1024, got 0"},
		{name: "-j -3", args: []string{"build", "-j", "-3", "--preset", "8puzzle", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "-j must be between 1 and 1024, got -3"},
		{name: "goal garbage preset", args: []string{"build", "--preset", "8puzzle", "--goal", "garbage", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "goal"},
		{name: "goal garbage board", args: []string{"build", "--board", "3x3", "--tiles", "1", "--goal", "garbage", "-o", "$OUT"}, code: 2, cmd: "build", stderr: `goal "garbage"`},
		{name: "goal repeated tile", args: []string{"build", "--board", "3x3", "--tiles", "1", "--goal", "1,1,3,4,5,6,7,8,0", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "tile 1 appears twice"},
		{name: "goal wrong size", args: []string{"build", "--board", "3x3", "--tiles", "1", "--goal", "1,2,3,0", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "want 9"},
		{name: "max-memory tiny", args: []string{"build", "--preset", "8puzzle", "--max-memory", "1M", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "8puzzle.pdb needs "},
		{name: "max-memory tiny custom", args: []string{"build", "--board", "3x3", "--tiles", "1,2,3", "--max-memory", "1M", "-o", "$OUT"}, code: 2, cmd: "build", stderr: "3x3_1-2-3.pdb needs "},
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
		{name: "solve -j 0", args: []string{"solve", "-j", "0", "x.pdb"}, code: 2, cmd: "solve", stderr: "-j must be between 1 and 1024"},
		{name: "solve -j huge", args: []string{"solve", "-j", "10000000", "x.pdb"}, code: 2, cmd: "solve", stderr: "-j must be between 1 and 1024, got 10000000"},
		{name: "solve -t 0", args: []string{"solve", "-t", "0", "x.pdb"}, code: 2, cmd: "solve", stderr: "-t must be between 1 and 256, got 0"},
		{name: "solve -t huge", args: []string{"solve", "-t", "257", "x.pdb"}, code: 2, cmd: "solve", stderr: "-t must be between 1 and 256, got 257"},
		{name: "verify -j huge", args: []string{"verify", "-j", "1025", "x.pdb"}, code: 2, cmd: "verify", stderr: "-j must be between 1 and 1024"},
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

// TestOutputWriteError: a command whose answers cannot be written must not
// report success.
func TestOutputWriteError(t *testing.T) {
	p8 := fixture(t, fx8)
	in := strings.Repeat(twoMoves8+"\n", 2000) // more than a bufio buffer of answers
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"lookup", []string{"lookup", p8}},
		{"lookup at flush", []string{"lookup", p8}},
		{"solve", []string{"solve", "-j", "1", p8}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdin, limit := in, 100
			if tt.name == "lookup at flush" {
				stdin, limit = twoMoves8+"\n", 5
			}
			var errb bytes.Buffer
			e := &env{stdin: strings.NewReader(stdin), stdout: &failWriter{limit: limit}, stderr: &errb}
			code := run(e, tt.args)
			r := result{code: code, stderr: errb.String()}
			noStackTrace(t, tt.args, r)
			wantCode(t, r, 2)
			oneErrorLine(t, r, tt.args[0], "no space left on device")
		})
	}
}

// TestDoubleDash: "--" ends the flags, so a file may start with "-".
func TestDoubleDash(t *testing.T) {
	dir := t.TempDir()
	name := "-odd.pdb"
	if err := os.WriteFile(filepath.Join(dir, name), readBytes(t, fixture(t, fx123)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	r := pdbgen(t, "", "info", "--json", "--", name)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, `"file":"-odd.pdb"`) {
		t.Errorf("info -- -odd.pdb:\n%v", r)
	}
	r = pdbgen(t, "", "verify", "-j", "1", "--", name)
	wantCode(t, r, 0)
	r = pdbgen(t, "", "info", name) // without "--" it is a flag
	wantCode(t, r, 2)
}

// TestUsageLineNamesEveryFlag: each command's usage line (the first line
// of its help) names every flag the command defines (issue 22: build's
// left out --format).
func TestUsageLineNamesEveryFlag(t *testing.T) {
	flagRE := regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)
	for _, c := range commands {
		r := pdbgen(t, "", "help", c.name)
		wantCode(t, r, 0)
		usage, _, _ := strings.Cut(r.stdout, "\n")
		for _, m := range flagRE.FindAllStringSubmatch(r.stdout, -1) {
			if !regexp.MustCompile(`-` + regexp.QuoteMeta(m[1]) + `\b`).MatchString(usage) {
				t.Errorf("pdbgen help %s: the usage line does not name -%s:\n%s", c.name, m[1], usage)
			}
		}
	}
}

// TestBadFlagShort: a flag a command cannot parse (unknown, or a bad
// value) prints two lines, the error and where the help is, for every
// command, and exits 2 (before the fix: the error, then the whole help, up
// to 112 lines for solve, which scrolled the error away); -h still prints
// the whole help.
func TestBadFlagShort(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "--no-such-flag"}, {c.name, "x", "--no-such-flag"}} {
			r := pdbgen(t, "", args...)
			wantCode(t, r, 2)
			want := "pdbgen " + c.name + ": flag provided but not defined: -no-such-flag\nRun 'pdbgen " + c.name + " -h' for its usage and flags.\n"
			if r.stderr != want || r.stdout != "" {
				t.Errorf("pdbgen %v: want stderr %q\n%v", args, want, r)
			}
		}
		r := pdbgen(t, "", c.name, "-h")
		wantCode(t, r, 0)
		if !strings.HasPrefix(r.stderr, "usage: pdbgen "+c.name) {
			t.Errorf("pdbgen %s -h:\n%v", c.name, r)
		}
	}
	r := pdbgen(t, "", "verify", "-j", "x", "a.pdb")
	wantCode(t, r, 2)
	if want := "pdbgen verify: invalid value \"x\" for flag -j: parse error\nRun 'pdbgen verify -h' for its usage and flags.\n"; r.stderr != want {
		t.Errorf("verify -j x: want stderr %q\n%v", want, r)
	}
}
