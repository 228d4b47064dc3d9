package shardbeam

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestMain initialises Beam (the default runner is Prism in-process) and
// keeps the SDK's temporary files in a folder of the test's own: Beam's
// loopback mode leaves an empty temporary file per pipeline.
func TestMain(m *testing.M) {
	flag.Parse()
	beamlog.SetupLogging("error", "text")
	tmp, err := os.MkdirTemp("", "shardbeam-test-*")
	if err != nil {
		panic(err)
	}
	os.Setenv("TMPDIR", tmp)
	beam.Init()
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

func pattern(t *testing.T, w, h int, tiles ...uint8) *puzzle.Pattern {
	t.Helper()
	g, err := puzzle.NewGeometry(w, h)
	if err != nil {
		t.Fatal(err)
	}
	p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), tiles)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBuildMatchesBuilder builds tables on Prism in-process with several
// shard, lane and job counts and compares every value with builder.Build.
func TestBuildMatchesBuilder(t *testing.T) {
	cases := []struct {
		name                string
		w, h                int
		tiles               []uint8
		shards, lanes, jobs int
	}{
		{"3x3 1-4 one shard", 3, 3, []uint8{1, 2, 3, 4}, 1, 1, 1},
		{"3x3 1-4 7 shards", 3, 3, []uint8{1, 2, 3, 4}, 7, 3, 1},
		{"3x3 2,5,7 auto, two jobs", 3, 3, []uint8{2, 5, 7}, 0, 2, 2},
		{"4x4 1,2,3,4 5 shards", 4, 4, []uint8{1, 2, 3, 4}, 5, 2, 1},
		{"3x3 1,2,8 more shards than blocks", 3, 3, []uint8{1, 2, 8}, 8, 2, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := pattern(t, c.w, c.h, c.tiles...)
			want, err := builder.Build(context.Background(), p, builder.Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			work := t.TempDir()
			res, err := Build(context.Background(), p, Options{Work: work, Shards: c.shards, Lanes: c.lanes, Jobs: c.jobs, StepWorkers: 1, Log: testLog(t)})
			if err != nil {
				t.Fatal(err)
			}
			rep := res.Report
			got, err := res.Values()
			if err != nil {
				t.Fatal(err)
			}
			// Source in odd-sized pieces, across shard boundaries.
			pieces := make([]uint8, len(want))
			for lo := 0; lo < len(pieces); lo += 97 {
				if err := res.Source(uint64(lo), pieces[lo:min(lo+97, len(pieces))]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(pieces, want) {
				t.Errorf("Source in pieces of 97 differs from builder.Build")
			}
			if err := res.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("values differ from builder.Build (%d entries)", len(want))
			}
			if len(rep.Levels) < 2 || rep.Shards < 1 {
				t.Errorf("report %+v", rep)
			}
			if _, err := os.Stat(work); !os.IsNotExist(err) {
				left, _ := filepath.Glob(filepath.Join(work, "*"))
				t.Errorf("work folder not removed (%v): %v", err, left)
			}
		})
	}
}

// TestBuildSetMatchesBuilder searches tables of different sizes and
// depths in the same pipelines (some finish levels before the others)
// and compares each with builder.Build.
func TestBuildSetMatchesBuilder(t *testing.T) {
	ctx := context.Background()
	ps := []*puzzle.Pattern{
		pattern(t, 3, 3, 1, 2, 3, 4),
		pattern(t, 3, 3, 5, 6),
		pattern(t, 4, 4, 1, 2, 3, 4),
		pattern(t, 3, 3, 7, 8),
	}
	for _, c := range []struct {
		name   string
		shards []int
		lanes  int
	}{
		{"auto shards, 2 lanes", []int{0, 0, 0, 0}, 2},
		{"mixed shards, 3 lanes", []int{3, 1, 5, 2}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			var tables []Table
			for i, p := range ps {
				tables = append(tables, Table{Pattern: p, Work: filepath.Join(t.TempDir(), "w"), Shards: c.shards[i]})
			}
			rs, srep, err := BuildSet(ctx, tables, Options{Lanes: c.lanes, StepWorkers: 1, Log: testLog(t)})
			if err != nil {
				t.Fatal(err)
			}
			deepest := 0
			for i, r := range rs {
				want, err := builder.Build(ctx, ps[i], builder.Options{Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				got, err := r.Values()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: values differ from builder.Build", ps[i])
				}
				if c.shards[i] != 0 && r.Report.Shards != c.shards[i] {
					t.Errorf("%s: %d shards, want %d", ps[i], r.Report.Shards, c.shards[i])
				}
				deepest = max(deepest, len(r.Report.Levels))
				if err := r.Close(); err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(tables[i].Work); !os.IsNotExist(err) {
					t.Errorf("%s: work folder not removed (%v)", ps[i], err)
				}
			}
			if len(srep.Levels) != deepest {
				t.Errorf("%d pipeline levels, want the deepest table's %d", len(srep.Levels), deepest)
			}
			if len(rs[1].Report.Levels) >= deepest {
				t.Errorf("the small table searched %d levels, as many as the deepest: the test needs tables that end at different levels", len(rs[1].Report.Levels))
			}
		})
	}
	w := t.TempDir()
	if _, _, err := BuildSet(ctx, []Table{{Pattern: ps[1], Work: w}, {Pattern: ps[3], Work: w + "/"}}, Options{}); err == nil || !strings.Contains(err.Error(), "another table's") {
		t.Errorf("one work folder for two tables: err = %v", err)
	}
}

func TestBuildRefuses(t *testing.T) {
	ctx := context.Background()
	exact := pattern(t, 3, 3, 1, 2, 3, 4, 5, 6, 7, 8)
	if _, err := Build(ctx, exact, Options{Work: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "exact") {
		t.Errorf("exact pattern: err = %v", err)
	}
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, fingerprintName), []byte("tilepdb shard kernel 1: something else\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(ctx, pattern(t, 3, 3, 1, 2), Options{Work: work}); err == nil || !strings.Contains(err.Error(), "another build") {
		t.Errorf("foreign work folder: err = %v", err)
	}
	if _, err := Build(ctx, pattern(t, 3, 3, 1, 2), Options{Work: ""}); err == nil {
		t.Errorf("empty work folder accepted")
	}
}

// testLog sends Build's level lines to t.Log with -v.
func testLog(t *testing.T) io.Writer {
	if !testing.Verbose() {
		return nil
	}
	return tlog{t}
}

type tlog struct{ t *testing.T }

func (l tlog) Write(b []byte) (int, error) { l.t.Log(strings.TrimSpace(string(b))); return len(b), nil }

// TestStepRetryRewritesSameBytes runs each shard's levels 0 and 1 twice,
// as a runner retrying a bundle would, and checks that the second run
// leaves byte-identical state, batch and value-log files.
func TestStepRetryRewritesSameBytes(t *testing.T) {
	ctx := context.Background()
	p := pattern(t, 4, 4, 1, 2, 3, 4, 7)
	pl, err := planFor(specOf(p, 5), 1)
	if err != nil {
		t.Fatal(err)
	}
	wf, err := openWork(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	snapshot := func() map[string][]byte {
		files := map[string][]byte{}
		paths, _ := filepath.Glob(filepath.Join(wf.root, "L*", "*"))
		for _, path := range paths {
			if strings.HasSuffix(path, ".json") {
				continue // the record holds timings and the process id
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files[path] = b
		}
		return files
	}
	senders := make([][]int, 5)
	for level := 0; level < 3; level++ {
		next := make([][]int, 5)
		for s := range 5 {
			rec, err := runStep(ctx, pl, wf, level, Task{Shard: s, StateLevel: level - 1, Senders: senders[s]})
			if err != nil {
				t.Fatal(err)
			}
			for _, to := range rec.SentTo {
				next[to] = append(next[to], s)
			}
		}
		first := snapshot()
		for s := range 5 {
			if _, err := runStep(ctx, pl, wf, level, Task{Shard: s, StateLevel: level - 1, Senders: senders[s]}); err != nil {
				t.Fatal(err)
			}
		}
		second := snapshot()
		if len(first) == 0 || len(first) != len(second) {
			t.Fatalf("level %d: %d files, then %d", level, len(first), len(second))
		}
		for path, b := range first {
			if !bytes.Equal(b, second[path]) {
				t.Errorf("level %d: %s changed when the step ran again", level, path)
			}
		}
		left, _ := filepath.Glob(filepath.Join(wf.root, "L*", "*.tmp-*"))
		if len(left) > 0 {
			t.Errorf("temporary files left: %v", left)
		}
		senders = next
	}
}

func TestAutoShards(t *testing.T) {
	for _, c := range []struct {
		w, h  int
		tiles []uint8
		lanes int
		want  int
	}{
		{3, 3, []uint8{1, 2}, 2, 2},                   // 72 entries: one per lane
		{3, 3, []uint8{1, 2}, 4, 2},                   // at most k! = 2 blocks
		{4, 4, []uint8{1, 2, 3, 4, 7}, 2, 2},          // 524,160 entries
		{4, 4, []uint8{1, 5, 6, 9, 10, 13}, 2, 4},     // 5,765,760: two per lane
		{5, 5, []uint8{13, 18, 19, 20, 23, 24}, 2, 8}, // 127,512,000: four per lane
		{5, 5, []uint8{13, 18, 19, 20, 23, 24}, 1, 8}, // shards of at most 2^24 entries
		{5, 5, []uint8{1, 2, 3, 6, 7, 8, 11}, 2, 145}, // 2,422,728,000 entries
	} {
		p := pattern(t, c.w, c.h, c.tiles...)
		if got := AutoShards(p, c.lanes); got != c.want {
			t.Errorf("AutoShards(%s, %d lanes) = %d, want %d", p, c.lanes, got, c.want)
		}
		if got := AutoSetShards([]*puzzle.Pattern{p}, c.lanes); len(got) != 1 || got[0] != c.want {
			t.Errorf("AutoSetShards of %s alone, %d lanes = %v, want [%d]", p, c.lanes, got, c.want)
		}
	}
	// The default set (as preset.Defaults plans it, 8puzzle aside): the
	// 15-puzzle's 5-tile and 3-tile tables get one shard each, its 6-tile
	// tables a lane each (two shards); on 8 lanes those get 4 lanes each.
	set := []*puzzle.Pattern{
		pattern(t, 4, 4, 1, 2, 3, 4, 7), pattern(t, 4, 4, 5, 6, 9, 10, 13), pattern(t, 4, 4, 8, 11, 12, 14, 15),
		pattern(t, 4, 4, 1, 5, 6, 9, 10, 13), pattern(t, 4, 4, 7, 8, 11, 12, 14, 15), pattern(t, 4, 4, 2, 3, 4),
	}
	for _, c := range []struct {
		lanes int
		want  []int
	}{
		{2, []int{1, 1, 1, 2, 2, 1}},
		{8, []int{1, 1, 1, 8, 8, 1}},
	} {
		if got := AutoSetShards(set, c.lanes); !slices.Equal(got, c.want) {
			t.Errorf("AutoSetShards(default set, %d lanes) = %v, want %v", c.lanes, got, c.want)
		}
	}
}
