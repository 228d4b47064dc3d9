package verify

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// goodTable builds the table of p with Reference.
func goodTable(t testing.TB, p *puzzle.Pattern) *format.Table {
	t.Helper()
	tb, err := format.NewTable(p, mustReference(t, p), "verify test")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// tableWith wraps values with a consistent header (histogram, maximum...),
// so that only the checks on the entries can notice a corruption.
func tableWith(t testing.TB, p *puzzle.Pattern, values []uint8) *format.Table {
	t.Helper()
	tb, err := format.NewTable(p, values, "verify test")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func mustVerify(t testing.TB, tb *format.Table, opts Options) *Report {
	t.Helper()
	r, err := Table(context.Background(), tb, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func reportText(r *Report) string {
	var b bytes.Buffer
	_ = r.WriteText(&b)
	return b.String()
}

var testPatterns = []struct {
	w, h     int
	goal     string
	tiles    []uint8
	symmetry bool // some board symmetry fixes the goal and tile set
}{
	{2, 2, "blank-last", nil, true},
	{3, 2, "blank-first", nil, false},
	{3, 3, "blank-last", nil, true},
	{3, 3, "blank-first", nil, true},
	{3, 3, "1 2 3 4 0 5 6 7 8", nil, true},
	{3, 3, "blank-last", []uint8{1, 2, 3, 4}, false},
	{3, 3, "blank-last", []uint8{5, 6, 7, 8}, false},
	{3, 3, "blank-first", []uint8{1, 3, 4}, true},
	{3, 3, "1 2 3 4 0 5 6 7 8", []uint8{1, 3, 6, 8}, true},
	{3, 3, "blank-last", []uint8{2, 4, 6}, false},
	{2, 3, "blank-last", []uint8{1, 2, 3}, false},
	{4, 3, "blank-last", []uint8{1, 2, 3}, false},
	{4, 4, "blank-first", []uint8{1, 4, 5}, true},
	{4, 4, "blank-last", []uint8{13, 14, 15}, false},
	{5, 5, "blank-first", []uint8{1, 5, 6}, true},
	{5, 4, "blank-last", []uint8{1, 2, 3}, false},
}

// TestCorrectTablesPass checks that tables built by Reference pass every
// check, including the deep comparison.
func TestCorrectTablesPass(t *testing.T) {
	for _, c := range testPatterns {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		r := mustVerify(t, goodTable(t, p), Options{Deep: true})
		if !r.OK() {
			t.Errorf("%s: %d findings on a correct table:\n%s", p, r.Total(), reportText(r))
		}
		want := []string{CheckHeader, CheckRanking, CheckGoal, CheckUnreached, CheckManhattan, CheckDescent, CheckStep}
		if c.symmetry {
			want = append(want, CheckSymmetry)
		}
		want = append(want, CheckReference)
		if !reflect.DeepEqual(r.Checked, want) {
			t.Errorf("%s: checked %v, want %v", p, r.Checked, want)
		}
	}
}

// connectedIndex returns a non-goal entry of an additive pattern whose
// placement and all neighbouring placements have connected empty cells,
// with a value of at least minValue.
func connectedIndex(t *testing.T, p *puzzle.Pattern, values []uint8, minValue uint8) uint64 {
	t.Helper()
	g := p.Geom
	full := puzzle.FullMask(g.N())
	nbrs := g.Neighbors()
	cells := make([]uint8, p.K())
	conn := func(cells []uint8) bool {
		var occ uint64
		for _, x := range cells {
			occ |= 1 << x
		}
		return connectedCells(g, full&^occ)
	}
	goal := p.RankCells(p.GoalCells())
	for i := uint64(0); i < p.Size(); i++ {
		if i == goal || values[i] < minValue {
			continue
		}
		p.Unrank(i, cells)
		ok := conn(cells)
		for j, x := range cells {
			for _, y := range nbrs[x] {
				if !ok {
					break
				}
				if !distinctCells(append(append([]uint8{}, cells[:j]...), append([]uint8{y}, cells[j+1:]...)...), g.N()) {
					continue
				}
				cells[j] = y
				ok = conn(cells)
				cells[j] = x
			}
		}
		if ok {
			return i
		}
	}
	t.Fatalf("%s: no entry with connected neighbourhood", p)
	return 0
}

// indexWithValue returns the first non-goal entry holding v.
func indexWithValue(t *testing.T, p *puzzle.Pattern, values []uint8, v uint8) uint64 {
	t.Helper()
	goal := p.RankCells(p.GoalCells())
	for i, x := range values {
		if x == v && uint64(i) != goal {
			return uint64(i)
		}
	}
	t.Fatalf("%s: no entry with value %d", p, v)
	return 0
}

// TestCorruptionsCaught corrupts correct tables in the ways a broken
// builder or file would and checks that the right check reports it, and
// that the deep comparison counts exactly the entries changed.
func TestCorruptionsCaught(t *testing.T) {
	exact := pdbtest.Pattern(t, 3, 3, "blank-last")
	additive := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3, 4)
	symmetric := pdbtest.Pattern(t, 3, 3, "1 2 3 4 0 5 6 7 8", 1, 3, 6, 8)
	ref := map[*puzzle.Pattern][]uint8{}
	for _, p := range []*puzzle.Pattern{exact, additive, symmetric} {
		ref[p] = mustReference(t, p)
	}
	type corruption struct {
		name    string
		p       *puzzle.Pattern
		corrupt func(v []uint8) // changes the values in place
		want    []string        // checks that must report something
		changed uint64          // entries changed (reference findings)
	}
	var cases []corruption
	for _, p := range []*puzzle.Pattern{exact, additive} {
		v := ref[p]
		goal := p.RankCells(p.GoalCells())
		var plus2 uint64
		if p.Exact {
			plus2 = indexWithValue(t, p, v, 12)
		} else {
			plus2 = connectedIndex(t, p, v, 3)
		}
		plus1 := indexWithValue(t, p, v, 7)
		lo, hi := indexWithValue(t, p, v, 4), indexWithValue(t, p, v, 10)
		cases = append(cases,
			corruption{"plus2", p, func(v []uint8) { v[plus2] += 2 }, []string{CheckStep}, 1},
			corruption{"plus1", p, func(v []uint8) { v[plus1]++ }, []string{CheckManhattan}, 1},
			corruption{"unreached", p, func(v []uint8) { v[plus1] = 255 }, []string{CheckUnreached}, 1},
			corruption{"goal1", p, func(v []uint8) { v[goal] = 1 }, []string{CheckGoal, CheckManhattan}, 1},
			corruption{"swap", p, func(v []uint8) { v[lo], v[hi] = v[hi], v[lo] }, nil, 2},
			corruption{"minus2", p, func(v []uint8) { v[plus2] -= 2 }, nil, 1},
		)
	}
	// In this pattern the corner tiles' placements are symmetric under all
	// board symmetries fixing the centre blank.
	sym := symmetric
	symIdx := connectedIndex(t, sym, ref[sym], 4)
	cases = append(cases, corruption{"symmetric plus2", sym, func(v []uint8) { v[symIdx] += 2 }, []string{CheckSymmetry}, 1})

	for _, c := range cases {
		t.Run(c.name+"/"+c.p.String(), func(t *testing.T) {
			values := append([]uint8(nil), ref[c.p]...)
			c.corrupt(values)
			var tb *format.Table
			if bytes.IndexByte(values, 255) >= 0 {
				tb = goodTable(t, c.p) // NewTable refuses 255: corrupt after
				tb.Values = values
			} else {
				tb = tableWith(t, c.p, values)
			}
			r := mustVerify(t, tb, Options{Deep: true})
			for _, w := range c.want {
				if r.Counts[w] == 0 {
					t.Errorf("check %s found nothing:\n%s", w, reportText(r))
				}
			}
			var others uint64
			for _, name := range []string{CheckGoal, CheckUnreached, CheckManhattan, CheckDescent, CheckStep, CheckSymmetry} {
				others += r.Counts[name]
			}
			if others == 0 {
				t.Errorf("no check on the entries found the corruption:\n%s", reportText(r))
			}
			if r.Counts[CheckReference] != c.changed {
				t.Errorf("reference check counted %d differing entries, want %d:\n%s", r.Counts[CheckReference], c.changed, reportText(r))
			}
			if r.Counts[CheckRanking] != 0 {
				t.Errorf("ranking findings on a value corruption:\n%s", reportText(r))
			}
		})
	}
}

// TestExactComplete corrupts every entry of the exact 2x3 table in turn by
// each of several amounts: the fast checks are complete for exact tables,
// so every corruption must be found without the deep comparison.
func TestExactComplete(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 2, "blank-last")
	good := mustReference(t, p)
	for i := range good {
		for _, d := range []int{-2, -1, 1, 2, 5} {
			nv := int(good[i]) + d
			if nv < 0 || nv > 254 {
				continue
			}
			values := append([]uint8(nil), good...)
			values[i] = uint8(nv)
			r := mustVerify(t, tableWith(t, p, values), Options{Workers: 1})
			if r.Counts[CheckHeader] != 0 || r.Total() == 0 {
				t.Fatalf("entry %d %+d: %d header findings, %d in all:\n%s", i, d, r.Counts[CheckHeader], r.Total(), reportText(r))
			}
		}
	}
}

// TestFindingCap checks that findings beyond MaxFindingsPerCheck are counted
// but not kept, the first ones in index order are kept, and the report
// does not depend on the number of workers.
func TestFindingCap(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3)
	values := mustReference(t, p)
	goal := p.RankCells(p.GoalCells())
	for i := range values {
		if uint64(i) != goal {
			values[i]++
		}
	}
	tb := tableWith(t, p, values)
	var first *Report
	for _, workers := range []int{1, 2, 5} {
		r := mustVerify(t, tb, Options{Workers: workers, MaxFindingsPerCheck: 7})
		if got, want := r.Counts[CheckManhattan], p.Size()-1; got != want {
			t.Errorf("workers %d: %d manhattan findings, want %d", workers, got, want)
		}
		kept := 0
		last := int64(-1)
		for _, f := range r.Findings {
			if f.Check == CheckManhattan {
				kept++
				if f.Index <= last {
					t.Errorf("findings out of index order: %d after %d", f.Index, last)
				}
				last = f.Index
			}
		}
		if kept != 7 {
			t.Errorf("workers %d: %d manhattan findings kept, want 7", workers, kept)
		}
		r.Elapsed, r.Wall = nil, 0
		if first == nil {
			first = r
		} else if !reflect.DeepEqual(first, r) {
			t.Errorf("report with %d workers differs from the one with 1", workers)
		}
	}
	if !strings.Contains(reportText(first), "more findings not shown") {
		t.Errorf("text report does not mention the findings not shown:\n%s", reportText(first))
	}
}

// TestHeaderCheck checks that header fields disagreeing with the pattern or
// the values are reported.
func TestHeaderCheck(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2)
	tb := goodTable(t, p)
	tb.Header.Tiles = []int{1, 3}
	tb.Header.Histogram[0] = 5
	tb.Header.MaxValue++
	tb.Header.Kind = format.KindExact
	r := mustVerify(t, tb, Options{})
	if r.Counts[CheckHeader] != 4 {
		t.Errorf("%d header findings, want 4:\n%s", r.Counts[CheckHeader], reportText(r))
	}
	tb.Values = tb.Values[:10]
	r = mustVerify(t, tb, Options{})
	if len(r.Checked) != 1 || r.Counts[CheckHeader] == 0 {
		t.Errorf("short values: checked %v, header findings %d", r.Checked, r.Counts[CheckHeader])
	}
}

// TestConnectedCells compares connectedCells with a breadth-first flood
// over every set of cells of several boards.
func TestConnectedCells(t *testing.T) {
	for _, wh := range [][2]int{{2, 2}, {3, 3}, {4, 3}, {3, 4}, {4, 4}} {
		g, _ := puzzle.NewGeometry(wh[0], wh[1])
		nbrs := g.Neighbors()
		for set := uint64(0); set < 1<<g.N(); set++ {
			want := true
			if set != 0 {
				seen := set & -set
				stack := []int{0}
				for c := 0; c < g.N(); c++ {
					if seen&(1<<c) != 0 {
						stack[0] = c
					}
				}
				for len(stack) > 0 {
					c := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					for _, n := range nbrs[c] {
						if set&(1<<n) != 0 && seen&(1<<n) == 0 {
							seen |= 1 << n
							stack = append(stack, int(n))
						}
					}
				}
				want = seen == set
			}
			if got := connectedCells(g, set); got != want {
				t.Fatalf("%s: connectedCells(%b) = %v, want %v", g, set, got, want)
			}
		}
	}
}

// TestSymmetries checks which board symmetries are found for some goals.
func TestSymmetries(t *testing.T) {
	for _, c := range []struct {
		p    *puzzle.Pattern
		want int
	}{
		{pdbtest.Pattern(t, 3, 3, "blank-first"), 1},
		{pdbtest.Pattern(t, 3, 3, "blank-last"), 1},
		{pdbtest.Pattern(t, 3, 3, "1 2 3 4 0 5 6 7 8"), 7},
		{pdbtest.Pattern(t, 3, 3, "1 2 3 4 0 5 6 7 8", 1, 2), 0},
		{pdbtest.Pattern(t, 3, 3, "1 2 3 4 0 5 6 7 8", 2, 4, 5, 7), 7},
		{pdbtest.Pattern(t, 3, 3, "1 2 3 4 0 5 6 7 8", 2, 7), 3},
		{pdbtest.Pattern(t, 4, 4, "blank-first", 1, 2, 3), 0},
		{pdbtest.Pattern(t, 3, 2, "blank-first"), 0},
	} {
		if got := symmetries(c.p); len(got) != c.want {
			var names []string
			for _, s := range got {
				names = append(names, s.name)
			}
			t.Errorf("%s: %d symmetries %v, want %d", c.p, len(got), names, c.want)
		}
	}
}

// TestFile writes a correct table, verifies it, then flips a payload byte
// and truncates it and checks the integrity findings; a file that is not a
// table at all is bad data too, while a missing file is an error.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	p := pdbtest.Pattern(t, 4, 3, "blank-last", 1, 2, 3, 4)
	tb := goodTable(t, p)
	tb.Header.FrameSize = format.MinFrameSize * 4 // several frames
	path := filepath.Join(dir, "good.pdb")
	if err := format.WriteFile(path, tb, 2); err != nil {
		t.Fatal(err)
	}
	r, err := File(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || r.Checked[0] != CheckIntegrity || r.Path != path {
		t.Fatalf("correct file: %s", reportText(r))
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		t.Helper()
		pth := filepath.Join(dir, name)
		if err := os.WriteFile(pth, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return pth
	}
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)-10] ^= 0x40 // inside the last frame
	headerFlip := append([]byte(nil), data...)
	headerFlip[40] ^= 0x01 // inside the JSON header
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"payload-flip", flipped},
		{"header-flip", headerFlip},
		{"truncated", data[:len(data)-7]},
		{"not-a-table", []byte("hello, world: this is not a table file\n")},
		{"empty", nil},
	} {
		r, err := File(context.Background(), write(c.name, c.data), Options{})
		if err != nil {
			t.Errorf("%s: error %v, want a report", c.name, err)
			continue
		}
		if r.Counts[CheckIntegrity] == 0 {
			t.Errorf("%s: no integrity finding:\n%s", c.name, reportText(r))
		}
	}
	if _, err := File(context.Background(), filepath.Join(dir, "missing.pdb"), Options{}); err == nil {
		t.Errorf("missing file: no error")
	}
	if _, err := File(context.Background(), dir, Options{}); err == nil {
		t.Errorf("directory: no error")
	}
}

// TestCancel checks that a cancelled context stops the checks with its
// error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3)
	if _, err := Table(ctx, goodTable(t, p), Options{}); err == nil {
		t.Errorf("no error with a cancelled context")
	}
}

// TestReportText: the text report gives the time of a pass shared by
// several checks once, saying which checks shared it, and names the flag
// that requests the reference comparison.
func TestReportText(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2)
	r := mustVerify(t, goodTable(t, p), Options{Workers: 1})
	text := reportText(r)
	shared := []string{CheckUnreached, CheckManhattan, CheckDescent, CheckStep}
	for _, c := range shared {
		want := regexp.MustCompile(`(?m)^  checked ` + c + ` +ok +\(in the goal pass\)$`)
		if !want.MatchString(text) {
			t.Errorf("no line matching %s in:\n%s", want, text)
		}
	}
	want := regexp.MustCompile(`(?m)^  checked goal +ok +[0-9.]+[mµn]?s \(one pass: goal, unreached, manhattan, descent, step\)$`)
	if !want.MatchString(text) {
		t.Errorf("no line matching %s in:\n%s", want, text)
	}
	if !strings.Contains(text, "skipped reference: not requested (--deep)") || strings.Contains(text, "Deep") {
		t.Errorf("reference skip does not name --deep:\n%s", text)
	}
}

// TestProgress: every pass reports its entries, ending at done = total,
// and the report does not depend on a progress callback being set.
func TestProgress(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 5) // a symmetry fixes it: four passes
	tb := goodTable(t, p)
	var mu sync.Mutex
	last := map[string]uint64{}
	calls := 0
	opts := Options{Workers: 3, Deep: true, Progress: func(pass string, done, total uint64) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if total != p.Size() || done > total {
			t.Errorf("%s: progress %d of %d, table has %d", pass, done, total, p.Size())
		}
		last[pass] = max(last[pass], done)
	}}
	r := mustVerify(t, tb, opts)
	for _, pass := range []string{CheckRanking, CheckGoal, CheckSymmetry, CheckReference} {
		if last[pass] != p.Size() {
			t.Errorf("pass %s reached %d of %d", pass, last[pass], p.Size())
		}
	}
	if calls < 4 {
		t.Errorf("%d progress calls", calls)
	}
	opts.Progress = nil
	plain := mustVerify(t, tb, opts)
	r.Elapsed, plain.Elapsed = nil, nil
	r.Wall, plain.Wall = 0, 0
	if !reflect.DeepEqual(r, plain) {
		t.Error("report differs with a progress callback")
	}
}
