package solver

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// long enables the tests that solve all 100 of Korf's instances.
var long = flag.Bool("long", false, "run the long tests (all of Korf's 100 instances with 6-6-3 and 5-5-5 tables)")

// Partitions used in the tests: the shipped presets 15-663 (Korf &
// Felner's 6-6-3 partition {1,2,4,5,8,9} {3,6,7,10,11,15} {12,13,14} in
// blank-first terms, mapped by t -> 16-t) and 15-555, blank-last goal.
var (
	part663 = presetPartition("15-663")
	part555 = presetPartition("15-555")
)

func presetPartition(name string) [][]uint8 {
	pr, err := preset.Find(name)
	if err != nil {
		panic(err)
	}
	return pr.Partition
}

// tableCache keeps the tables built in this test binary, by description.
var tableCache sync.Map // string -> *tableEntry

type tableEntry struct {
	once sync.Once
	t    *format.Table
	err  error
}

// table builds (once per test binary) the table of tiles on a w x h board
// with the named goal; no tiles means the exact table.
func table(tb testing.TB, w, h int, goal string, tiles ...uint8) *format.Table {
	tb.Helper()
	key := fmt.Sprintf("%dx%d %s %v", w, h, goal, tiles)
	e, _ := tableCache.LoadOrStore(key, &tableEntry{})
	ent := e.(*tableEntry)
	p := pdbtest.Pattern(tb, w, h, goal, tiles...)
	ent.once.Do(func() {
		v, err := builder.Build(context.Background(), p, builder.Options{})
		if err != nil {
			ent.err = err
			return
		}
		ent.t, ent.err = format.NewTable(p, v, "solver test")
	})
	if ent.err != nil {
		tb.Fatalf("table %s: %v", key, ent.err)
	}
	return ent.t
}

// set groups the tables of a partition.
func set(tb testing.TB, w, h int, goal string, parts ...[]uint8) *format.Set {
	tb.Helper()
	var ts []*format.Table
	if len(parts) == 0 {
		ts = append(ts, table(tb, w, h, goal))
	}
	for _, p := range parts {
		ts = append(ts, table(tb, w, h, goal, p...))
	}
	s, err := format.NewSet(ts...)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// newSolver is New or a fatal error.
func newSolver(tb testing.TB, s *format.Set, opt Options) *Solver {
	tb.Helper()
	sv, err := New(s, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return sv
}

// korfInstance is one line of testdata/korf100.tsv.
type korfInstance struct {
	id, length int
	board      puzzle.Board // blank-first convention
}

// tsvRows reads the rows of testdata/name (tab-separated, '#' comments and
// blank lines skipped), each of exactly cols columns.
func tsvRows(tb testing.TB, name string, cols int) [][]string {
	tb.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		row := strings.Split(strings.TrimRight(line, "\r"), "\t")
		if len(row) != cols {
			tb.Fatalf("%s: bad line %q", name, line)
		}
		rows = append(rows, row)
	}
	return rows
}

// korf100 reads testdata/korf100.tsv.
func korf100(tb testing.TB) []korfInstance {
	tb.Helper()
	var out []korfInstance
	for _, cols := range tsvRows(tb, "korf100.tsv", 3) {
		id, err1 := strconv.Atoi(cols[0])
		l, err2 := strconv.Atoi(cols[1])
		b, err3 := puzzle.ParseBoard(cols[2], 16)
		if err1 != nil || err2 != nil || err3 != nil {
			tb.Fatalf("korf100.tsv: bad line %q", strings.Join(cols, "\t"))
		}
		out = append(out, korfInstance{id, l, b})
	}
	if len(out) != 100 {
		tb.Fatalf("korf100.tsv: %d instances, want 100", len(out))
	}
	return out
}

// checkReplay fails unless moves take b to goal on g in exactly length moves.
func checkReplay(tb testing.TB, g puzzle.Geometry, b, goal puzzle.Board, moves string, length int) {
	tb.Helper()
	if len(moves) != length {
		tb.Fatalf("%v: %d moves %q for length %d", b, len(moves), moves, length)
	}
	end, err := Apply(g, b, moves)
	if err != nil {
		tb.Fatalf("%v: replay %q: %v", b, moves, err)
	}
	if !end.Equal(goal) {
		tb.Fatalf("%v: moves %q end at %v, not the goal %v", b, moves, end, goal)
	}
}

// improves reports whether the anytime report r improves on the earlier
// report p: a shorter solution, or the same length with a higher proven
// lower bound.
func improves(r, p Bounded) bool {
	return r.Length < p.Length || r.Length == p.Length && r.Lower > p.Lower
}
