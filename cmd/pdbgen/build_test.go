package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/format"
)

// TestBuildQuiet builds small tables with --quiet: stdout lists exactly the
// written paths, stderr is silent, the files decode, and the bytes do not
// depend on the number of workers.
func TestBuildQuiet(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		files []string
		check func(t *testing.T, tab *format.Table)
	}{
		{
			name:  "custom disjoint",
			args:  []string{"--board", "3x3", "--tiles", "1,2,3", "--tiles", "4,5,6"},
			files: []string{"3x3_1-2-3.pdb", "3x3_4-5-6.pdb"},
			check: func(t *testing.T, tab *format.Table) {
				if tab.Header.Entries != 9*8*7 || tab.Header.Kind != format.KindAdditive {
					t.Errorf("entries %d kind %s, want 504 additive", tab.Header.Entries, tab.Header.Kind)
				}
			},
		},
		{
			name:  "8puzzle preset",
			args:  []string{"--preset", "8puzzle"},
			files: []string{"8puzzle.pdb"},
			check: func(t *testing.T, tab *format.Table) {
				h := tab.Header
				if h.Entries != 181440 || h.MaxValue != 31 || h.RawSHA256 != sha8 || h.Kind != format.KindExact {
					t.Errorf("8puzzle header: entries %d max %d sha %s kind %s", h.Entries, h.MaxValue, h.RawSHA256, h.Kind)
				}
			},
		},
		{
			name:  "blank-first goal",
			args:  []string{"--board", "3x3", "--tiles", "1-3", "--goal", "blank-first"},
			files: []string{"3x3-bf_1-2-3.pdb"},
			check: func(t *testing.T, tab *format.Table) {
				if tab.Header.GoalName != "blank-first" {
					t.Errorf("goal_name %q", tab.Header.GoalName)
				}
			},
		},
		{
			name:  "custom goal",
			args:  []string{"--board", "3x2", "--tiles", "1,2", "--goal", "5,4,3,2,1,0"},
			files: []string{"3x2-goal5.4.3.2.1.0_1-2.pdb"},
			check: func(t *testing.T, tab *format.Table) {
				if tab.Header.GoalName != format.GoalCustom || tab.Header.Width != 3 || tab.Header.Height != 2 {
					t.Errorf("goal_name %q, %dx%d", tab.Header.GoalName, tab.Header.Width, tab.Header.Height)
				}
			},
		},
		{
			name:  "explicit blank-last goal board",
			args:  []string{"--board", "2x2", "--tiles", "1,2,3", "--goal", "1 2 3 0"},
			files: []string{"2x2.pdb"},
			check: func(t *testing.T, tab *format.Table) {
				if tab.Header.GoalName != "blank-last" || tab.Header.Entries != 12 {
					t.Errorf("goal_name %q entries %d", tab.Header.GoalName, tab.Header.Entries)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var first map[string][]byte
			for _, j := range []string{"1", "4"} {
				dir := filepath.Join(t.TempDir(), "new", "dir") // created by build
				args := append([]string{"build", "--quiet", "-j", j, "-o", dir}, tt.args...)
				r := pdbgen(t, "", args...)
				wantCode(t, r, 0)
				if r.stderr != "" {
					t.Errorf("--quiet wrote to stderr:\n%v", r)
				}
				var want strings.Builder
				for _, f := range tt.files {
					want.WriteString(filepath.Join(dir, f) + "\n")
				}
				if r.stdout != want.String() {
					t.Fatalf("-j %s stdout:\n%s\nwant:\n%s", j, r.stdout, want.String())
				}
				if got := dirEntries(t, dir); strings.Join(got, " ") != strings.Join(tt.files, " ") {
					t.Errorf("output directory holds %v, want %v (no temporary files)", got, tt.files)
				}
				files := map[string][]byte{}
				for _, f := range tt.files {
					p := filepath.Join(dir, f)
					files[f] = readBytes(t, p)
					tab, err := format.ReadFile(p)
					if err != nil {
						t.Fatalf("reading %s: %v", p, err)
					}
					if tab.Header.Generator != generator {
						t.Errorf("generator %q, want %q", tab.Header.Generator, generator)
					}
					if f == tt.files[0] {
						tt.check(t, tab)
					}
				}
				if first == nil {
					first = files
					continue
				}
				for f, b := range files {
					if !bytes.Equal(b, first[f]) {
						t.Errorf("%s differs between -j 1 and -j %s", f, j)
					}
				}
			}
		})
	}
}

// TestBuildOverwrites rebuilds into a directory that already holds the
// table: it is replaced atomically by an identical file.
func TestBuildOverwrites(t *testing.T) {
	dir := t.TempDir()
	args := []string{"build", "--quiet", "-o", dir, "--board", "3x3", "--tiles", "4,5,6"}
	wantCode(t, pdbgen(t, "", args...), 0)
	before := readBytes(t, filepath.Join(dir, "3x3_4-5-6.pdb"))
	wantCode(t, pdbgen(t, "", args...), 0)
	if !bytes.Equal(before, readBytes(t, filepath.Join(dir, "3x3_4-5-6.pdb"))) {
		t.Error("rebuilding changed the file")
	}
	if got := dirEntries(t, dir); len(got) != 1 {
		t.Errorf("directory holds %v", got)
	}
}

// TestBuildTargetIsDirectory: the table's path is taken by a directory, so
// the final rename fails; the error is one line, exit 2, and no temporary
// file is left behind.
func TestBuildTargetIsDirectory(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "3x3_1-2-3.pdb", "keep")
	if err := os.MkdirAll(blocker, 0o755); err != nil {
		t.Fatal(err)
	}
	r := pdbgen(t, "", "build", "--quiet", "-o", dir, "--board", "3x3", "--tiles", "1,2,3")
	wantCode(t, r, 2)
	oneErrorLine(t, r, "build", "3x3_1-2-3.pdb")
	if r.stdout != "" {
		t.Errorf("stdout names a file that was not written:\n%v", r)
	}
	if got := dirEntries(t, dir); len(got) != 1 || got[0] != "3x3_1-2-3.pdb" {
		t.Errorf("directory holds %v, want only the blocking directory", got)
	}
	if _, err := os.Stat(blocker); err != nil {
		t.Errorf("blocking directory damaged: %v", err)
	}
}

// levelRE is one per-level progress line of a non-terminal build.
var levelRE = regexp.MustCompile(`^(\S+\.pdb): level (\d+): (\d+) new, (\d+)/(\d+) search states \([0-9.]+%\), [0-9.]+s, \S+ states/s, ETA (\d+s|-)$`)

// statesRE is the line that says, once per additive table, how many
// search states fill how many entries.
var statesRE = regexp.MustCompile(`^(\S+\.pdb): the search visits (\d+) states \(placement of the tiles x region of the blank\) to fill (\d+) entries \(one per placement\)$`)

// TestBuildProgressLog: without --quiet and with stderr not a terminal,
// stderr gets one line per BFS level and a summary per table, and stdout
// still carries only the written paths.
func TestBuildProgressLog(t *testing.T) {
	dir := t.TempDir()
	r := pdbgen(t, "", "build", "-j", "2", "-o", dir, "--board", "3x3", "--tiles", "1,2,3", "--tiles", "4,5,6")
	wantCode(t, r, 0)
	wantOut := filepath.Join(dir, "3x3_1-2-3.pdb") + "\n" + filepath.Join(dir, "3x3_4-5-6.pdb") + "\n"
	if r.stdout != wantOut {
		t.Fatalf("stdout:\n%s\nwant only the paths:\n%s", r.stdout, wantOut)
	}
	levels := map[string][]int{}
	var plans, building, wrote, rss, states int
	for _, l := range lines(r.stderr) {
		switch {
		case strings.HasPrefix(l, "plan "), strings.HasPrefix(l, "plan: "):
			plans++ // TestBuildPlanLine checks them
		case strings.HasPrefix(l, "building "):
			building++
			if !strings.Contains(l, "504 entries") || !strings.Contains(l, "of memory") {
				t.Errorf("building line %q", l)
			}
		case strings.HasPrefix(l, "wrote "):
			wrote++
			if !strings.Contains(l, "504 entries, max ") {
				t.Errorf("wrote line %q", l)
			}
		case strings.HasPrefix(l, "peak RSS "):
			rss++
		case statesRE.MatchString(l):
			states++
			if m := statesRE.FindStringSubmatch(l); m[2] != "744" || m[3] != "504" {
				t.Errorf("states line %q: want 744 search states for 504 entries", l)
			}
		default:
			m := levelRE.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("unexpected stderr line %q", l)
				continue
			}
			lv, _ := strconv.Atoi(m[2])
			levels[m[1]] = append(levels[m[1]], lv)
			if reached, _ := strconv.Atoi(m[4]); reached == 0 {
				t.Errorf("level line with nothing reached: %q", l)
			}
		}
		if strings.Contains(l, "\r") {
			t.Errorf("carriage return (a progress bar) in non-terminal output: %q", l)
		}
	}
	if states != 2 {
		t.Errorf("%d lines explaining search states versus entries, want one per table", states)
	}
	if plans != 3 || building != 2 || wrote != 2 || rss != 1 {
		t.Errorf("plan %d, building %d, wrote %d, peak RSS %d lines; want 3, 2, 2, 1\n%s", plans, building, wrote, rss, r.stderr)
	}
	for _, f := range []string{"3x3_1-2-3.pdb", "3x3_4-5-6.pdb"} {
		lv := levels[f]
		if len(lv) == 0 {
			t.Errorf("no level lines for %s", f)
			continue
		}
		for i, l := range lv {
			if l != i+1 {
				t.Errorf("%s levels %v, want 1, 2, 3, ...", f, lv)
				break
			}
		}
		tab, err := format.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		// The BFS runs over (placement, blank region) states, which may
		// need a level or two beyond the largest table value (the minimum
		// over regions).
		if len(lv) < tab.Header.MaxValue || len(lv) > tab.Header.MaxValue+2 {
			t.Errorf("%s: %d level lines for max value %d", f, len(lv), tab.Header.MaxValue)
		}
	}
}

// TestBuildProgressTTY: with a terminal on stderr a progress bar is drawn
// there; stdout still carries only the paths.
func TestBuildProgressTTY(t *testing.T) {
	dir := t.TempDir()
	r := pdbgenEnv(t, true, "", "build", "-j", "2", "-o", dir, "--preset", "8puzzle")
	wantCode(t, r, 0)
	if r.stdout != filepath.Join(dir, "8puzzle.pdb")+"\n" {
		t.Errorf("stdout:\n%v", r)
	}
	if !strings.Contains(r.stderr, "building 8puzzle.pdb") || !strings.Contains(r.stderr, "wrote ") {
		t.Errorf("stderr lacks the summary lines:\n%v", r)
	}
	if levelRE.MatchString(r.stderr) || strings.Contains(r.stderr, ": level 1: ") {
		t.Errorf("terminal output has the non-terminal per-level log:\n%v", r)
	}
}

func TestMaxMemoryMessageNamesSize(t *testing.T) {
	r := pdbgen(t, "", "build", "--preset", "8puzzle", "--max-memory", "1M", "-o", filepath.Join(t.TempDir(), "out"))
	wantCode(t, r, 2)
	// "8puzzle.pdb needs 33.3 MiB of memory, more than --max-memory 1.0 MiB"
	re := regexp.MustCompile(`^pdbgen build: 8puzzle\.pdb needs [0-9.]+ MiB of memory, more than --max-memory 1\.0 MiB\n$`)
	if !re.MatchString(r.stderr) {
		t.Errorf("message does not name the memory needed and the limit:\n%v", r)
	}
	// A generous limit lets the same build through.
	r = pdbgen(t, "", "build", "--quiet", "--preset", "8puzzle", "--max-memory", "1G", "-o", t.TempDir())
	wantCode(t, r, 0)
}

// TestBuild32BitLimit: a 32-bit build refuses a table of more than
// math.MaxInt entries up front, on one line, instead of panicking in
// makeslice (run by `make cross` with GOARCH=386).
func TestBuild32BitLimit(t *testing.T) {
	if strconv.IntSize != 32 {
		t.Skip("32-bit only (GOARCH=386 go test -run TestBuild32BitLimit ./cmd/pdbgen)")
	}
	out := filepath.Join(t.TempDir(), "out")
	r := pdbgen(t, "", "build", "--quiet", "-o", out, "--board", "5x5", "--tiles", "1-7")
	wantCode(t, r, 2)
	oneErrorLine(t, r, "build", "more than a 32-bit build can index")
	if got := dirEntries(t, out); len(got) != 0 {
		t.Errorf("wrote %v", got)
	}
}

// TestBuildFormat: build writes format 2 by default and 1.0 with --format 1,
// both with the same raw table, and info names the format and encoding.
func TestBuildFormat(t *testing.T) {
	dir := t.TempDir()
	var sha []string
	for _, c := range []struct {
		args           []string
		major          uint16
		version, encod string
	}{
		{nil, 2, `"format":"2.0"`, `"encoding":"manhattan-half-4bit"`},
		{[]string{"--format", "2"}, 2, `"format":"2.0"`, `"encoding":"manhattan-half-4bit"`},
		{[]string{"--format", "1"}, 1, `"format":"1.0"`, ""},
	} {
		out := filepath.Join(dir, strings.Join(c.args, ""))
		args := append([]string{"build", "--quiet", "-o", out, "--board", "3x3", "--tiles", "1,2,3"}, c.args...)
		wantCode(t, pdbgen(t, "", args...), 0)
		p := filepath.Join(out, "3x3_1-2-3.pdb")
		tab, err := format.ReadFile(p)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if tab.Header.Major != c.major {
			t.Errorf("%v: major version %d, want %d", c.args, tab.Header.Major, c.major)
		}
		sha = append(sha, tab.Header.RawSHA256)
		r := pdbgen(t, "", "info", "--json", p)
		wantCode(t, r, 0)
		if !strings.Contains(r.stdout, c.version) || (c.encod != "") != strings.Contains(r.stdout, `"encoding"`) || !strings.Contains(r.stdout, c.encod) {
			t.Errorf("%v: info --json: %s", c.args, r.stdout)
		}
		r = pdbgen(t, "", "info", p)
		if !strings.Contains(r.stdout, "format     "+c.version[10:13]) {
			t.Errorf("%v: info: %s", c.args, r.stdout)
		}
	}
	if sha[0] != sha[2] {
		t.Errorf("raw_sha256 differs between formats: %v", sha)
	}
	wantCode(t, pdbgen(t, "", "build", "--quiet", "-o", dir, "--board", "3x3", "--tiles", "1", "--format", "3"), 2)
}

// TestBuildPlanLine: build prints its plan (one line per table: kind,
// entries, in memory or out of core, memory, estimated time; then the
// total) on stderr before any table's work, and nothing of it with
// --quiet (fresh user finding 4: a large build started silently).
func TestBuildPlanLine(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  []string
		plans []string // the first lines of stderr, by prefix
	}{
		{"in memory", []string{"--board", "3x3", "--tiles", "1-4", "--tiles", "5-8"}, []string{
			"plan 3x3_1-2-3-4.pdb: additive, 3024 entries, in memory, about 32.0 MiB of memory, under a second of CPU",
			"plan 3x3_5-6-7-8.pdb: additive, 3024 entries, in memory, about ",
			"plan: 2 tables in all, under a second of CPU",
		}},
		{"exact", []string{"--preset", "8puzzle"}, []string{"plan 8puzzle.pdb: exact, 181440 entries, in memory, about "}},
		{"zero-aware", []string{"--board", "3x3", "--tiles", "1-4", "--zero-aware"}, []string{"plan 3x3_1-2-3-4_za.pdb: zero-aware, 5520 entries, in memory, about "}},
		{"out of core", []string{"--board", "3x3", "--tiles", "1-4", "--shards", "2"}, []string{"plan 3x3_1-2-3-4.pdb: additive, 3024 entries, out of core (2 shards, 2 kept in memory; about "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"build", "-j", "1", "-o", t.TempDir()}, c.args...)
			r := pdbgen(t, "", args...)
			wantCode(t, r, 0)
			got := lines(r.stderr)
			if len(got) <= len(c.plans) {
				t.Fatalf("%d stderr lines, want more than %d\n%v", len(got), len(c.plans), r)
			}
			for i, want := range c.plans {
				if !strings.HasPrefix(got[i], want) {
					t.Errorf("stderr line %d %q, want it to start with %q", i+1, got[i], want)
				}
			}
			if next := got[len(c.plans)]; strings.HasPrefix(next, "plan") || !strings.HasPrefix(next, "building ") {
				t.Errorf("the line after the plan is %q, want the first table's building line", next)
			}
			r = pdbgen(t, "", append(args, "--quiet")...)
			wantCode(t, r, 0)
			if strings.Contains(r.stderr, "plan") {
				t.Errorf("--quiet: stderr %q has the plan", r.stderr)
			}
		})
	}
}

// TestRoughTime: the plan's estimated times.
func TestRoughTime(t *testing.T) {
	for _, c := range []struct {
		cpu   time.Duration
		cores int
		want  string
	}{
		{time.Millisecond, 2, "under a second of CPU"},
		{1500 * time.Millisecond, 1, "about 2 s of CPU"},
		{40 * time.Second, 2, "about 40 s of CPU, 20 s wall on 2 cores"},
		{22 * time.Minute, 2, "about 22 min of CPU, 11 min wall on 2 cores"},
		{7 * time.Hour, 4, "about 7.0 h of CPU, 1.8 h wall on 4 cores"},
		{30 * time.Hour, 1, "about 30 h of CPU"},
	} {
		if got := roughTime(c.cpu, c.cores); got != c.want {
			t.Errorf("roughTime(%v, %d) = %q, want %q", c.cpu, c.cores, got, c.want)
		}
	}
}
