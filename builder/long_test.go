package builder_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

var long = flag.Bool("long", false, "run the long tests (big presets; minutes and GiBs)")

// publishedHistograms reads testdata/korf-felner-78.txt: tile list -> counts.
func publishedHistograms(t *testing.T) map[string][]uint64 {
	data, err := os.ReadFile("testdata/korf-felner-78.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]uint64{}
	cur := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "tiles "):
			cur = strings.TrimPrefix(line, "tiles ")
		default:
			for _, f := range strings.Fields(line) {
				v, c, _ := strings.Cut(f, ":")
				vi, err1 := strconv.Atoi(v)
				ci, err2 := strconv.ParseUint(c, 10, 64)
				if err1 != nil || err2 != nil || vi != len(out[cur]) {
					t.Fatalf("bad histogram entry %q", f)
				}
				out[cur] = append(out[cur], ci)
			}
		}
	}
	return out
}

// TestLong78Histograms builds the 15-78 preset and compares both value
// histograms with the published ones. Run with: go test ./builder -run Long -long
func TestLong78Histograms(t *testing.T) {
	if !*long {
		t.Skip("needs -long (about a minute per table and 1 GiB)")
	}
	want := publishedHistograms(t)
	pr, _ := preset.Find("15-78")
	ps, err := pr.Patterns(puzzle.GoalBlankLast)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		start := time.Now()
		v, err := builder.Build(context.Background(), p, builder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d entries in %v", p, len(v), time.Since(start))
		got := make([]uint64, 0, 40)
		for _, x := range v {
			for int(x) >= len(got) {
				got = append(got, 0)
			}
			got[x]++
		}
		key := strings.Trim(strings.ReplaceAll(fmt.Sprintf("%d", p.Tiles), " ", ","), "[]")
		if fmt.Sprint(got) != fmt.Sprint(want[key]) {
			t.Errorf("%s histogram\n got %v\nwant %v", p, got, want[key])
		}
	}
}
