package builder_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

// TestBuildMatchesReference compares the fast builder entry by entry with
// verify.Reference, a deliberately simple 0-1 BFS over (placement, blank
// cell) that shares no code with this package, on small boards (square and
// not), both goal conventions and custom goals, with 1, 2 and 3 workers.
// Additive patterns are built three times: with every level forced to the
// push kernel, forced to the pull kernel, and with the default rule, which
// must mix both kernels on some pattern so that the mixed case is tested.
func TestBuildMatchesReference(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{2, 2, "blank-last", []uint8{1, 2, 3}},
		{2, 2, "blank-last", []uint8{1}},
		{2, 3, "blank-last", []uint8{1, 2, 3, 4, 5}},
		{3, 2, "blank-first", []uint8{1, 2, 3}},
		{2, 3, "blank-last", []uint8{1, 3, 5, 2, 4}},
		{2, 4, "blank-last", []uint8{1, 2, 3, 4, 5, 6, 7}},
		{3, 3, "blank-last", []uint8{1, 2, 3, 4}},
		{2, 4, "blank-first", []uint8{2, 4, 6}},
		{3, 3, "blank-last", []uint8{5, 6, 7, 8}},
		{3, 3, "blank-first", []uint8{1, 2, 3, 4, 5, 6}},
		{3, 3, "8 7 6 5 4 3 2 1 0", []uint8{1, 5, 8}},
		{3, 3, "4 1 2 0 8 7 6 3 5", []uint8{1, 2, 3, 4, 5, 6, 7, 8}},
		{4, 4, "blank-last", []uint8{2, 3, 4}},
		{4, 4, "blank-first", []uint8{1, 2, 3}},
		{4, 4, "blank-last", []uint8{11, 12, 15}},
		{4, 4, "blank-first", []uint8{1, 2, 5, 6}},
		{5, 2, "blank-last", []uint8{1, 2, 6, 7}},
		{3, 4, "blank-last", []uint8{1, 4, 7, 10}},
	}
	if testing.Short() {
		cases = cases[:8]
	}
	rules := []struct {
		name string
		rule func(level int, frontier, unvisited uint64) bool
	}{
		{"push-only", func(int, uint64, uint64) bool { return false }},
		{"pull-only", func(int, uint64, uint64) bool { return true }},
		{"default", builder.DefaultUsePull},
	}
	mixed := 0 // additive default builds that used both kernels
	for _, c := range cases {
		p := mustPattern(t, c.w, c.h, c.goal, c.tiles)
		want, err := verify.Reference(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: reference: %v", p, err)
		}
		for _, r := range rules {
			if p.Exact && r.name != "default" {
				continue // the exact search has one kernel
			}
			for _, workers := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("%s/%s/j=%d", p, r.name, workers), func(t *testing.T) {
					var pulls []bool // the kernel of each level
					opt := builder.WithUsePull(builder.Options{Workers: workers}, func(level int, frontier, unvisited uint64) bool {
						pull := r.rule(level, frontier, unvisited)
						if level != len(pulls) {
							t.Errorf("rule asked for level %d after %d levels", level, len(pulls))
						}
						pulls = append(pulls, pull)
						return pull
					})
					got, err := builder.Build(context.Background(), p, opt)
					if err != nil {
						t.Fatal(err)
					}
					compareTables(t, got, want)
					if p.Exact {
						return
					}
					push, pull := 0, 0
					for _, x := range pulls {
						if x {
							pull++
						} else {
							push++
						}
					}
					switch {
					case r.name == "push-only" && (pull != 0 || push == 0),
						r.name == "pull-only" && (push != 0 || pull == 0):
						t.Errorf("%d push and %d pull levels, want %s", push, pull, r.name)
					case r.name == "default" && push > 0 && pull > 0:
						mixed++
					}
				})
			}
		}
	}
	if mixed == 0 {
		t.Error("the default rule never mixed push and pull levels: the mixed case is untested")
	}
}

// compareTables fails t when got and want differ, naming the first few
// entries that do.
func compareTables(t *testing.T, got, want []uint8) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("len %d, want %d", len(got), len(want))
	}
	diff := 0
	for i := range got {
		if got[i] != want[i] {
			if diff < 5 {
				t.Errorf("entry %d: got %d, reference %d", i, got[i], want[i])
			}
			diff++
		}
	}
	if diff > 0 {
		t.Fatalf("%d of %d entries differ", diff, len(got))
	}
}

// TestDeterministic: the table does not depend on the worker count.
func TestDeterministic(t *testing.T) {
	for _, p := range []*puzzle.Pattern{
		mustPattern(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4, 5, 6, 7, 8}),
		mustPattern(t, 4, 4, "blank-last", []uint8{1, 2, 3, 4, 7}),
		mustPattern(t, 5, 5, "blank-last", []uint8{1, 2, 3}),
	} {
		var first []uint8
		for _, j := range []int{1, 2, 4, 7} {
			v, err := builder.Build(context.Background(), p, builder.Options{Workers: j})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = v
			} else if !bytes.Equal(first, v) {
				t.Fatalf("%s: table with %d workers differs from 1 worker", p, j)
			}
		}
	}
}

// TestHistogramA089473: the exact 8-puzzle table against the published
// state counts per distance (OEIS A089473; copied into testdata).
func TestHistogramA089473(t *testing.T) {
	want := pdbtest.ReadCounts(t, "testdata/a089473.txt")
	for _, goal := range []string{"blank-last", "blank-first"} {
		p := mustPattern(t, 3, 3, goal, []uint8{1, 2, 3, 4, 5, 6, 7, 8})
		v, err := builder.Build(context.Background(), p, builder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := make([]uint64, 32)
		for _, x := range v {
			if int(x) >= len(got) {
				t.Fatalf("%s: value %d beyond radius 31", goal, x)
			}
			got[x]++
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s histogram\n got %v\nwant %v", goal, got, want)
		}
	}
}

// TestPublishedMeans checks two 15-puzzle PDBs against the entry counts,
// maximum and mean published for the same tile sets (../shared
// reference/facts.md, "Means of other PDBs", blank-last goal).
func TestPublishedMeans(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 6-tile tables")
	}
	for _, c := range []struct {
		tiles []uint8
		max   int
		mean  string
	}{
		{[]uint8{1, 2, 3, 4, 5, 6}, 27, "17.2635"},
		{[]uint8{7, 8, 12}, 13, "7.1827"},
		{[]uint8{3, 4, 7, 8, 12}, 22, "13.6386"},
	} {
		p := mustPattern(t, 4, 4, "blank-last", c.tiles)
		v, err := builder.Build(context.Background(), p, builder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		mx := 0
		for _, x := range v {
			sum += float64(x)
			mx = max(mx, int(x))
		}
		if mean := fmt.Sprintf("%.4f", sum/float64(len(v))); mx != c.max || mean != c.mean {
			t.Errorf("%s: max %d mean %s, published %d %s", p, mx, mean, c.max, c.mean)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := mustPattern(t, 4, 4, "blank-last", []uint8{1, 2, 3, 4, 7})
	if _, err := builder.Build(ctx, p, builder.Options{}); !errors.Is(err, builder.ErrCanceled) {
		t.Fatalf("got %v, want ErrCanceled", err)
	}
}

func TestProgressEvents(t *testing.T) {
	p := mustPattern(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4, 5, 6, 7, 8})
	var levels int
	var last builder.Event
	_, err := builder.Build(context.Background(), p, builder.Options{Workers: 2, Progress: func(ev builder.Event) {
		if ev.LevelDone {
			levels++
			last = ev
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// 31 levels produce states, the 32nd expands the two hardest states.
	if levels != 32 || last.Reached != 181440 || last.Total != 181440 || last.NewStates != 0 {
		t.Fatalf("levels %d, last event %+v", levels, last)
	}
}
