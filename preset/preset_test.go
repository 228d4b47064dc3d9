package preset_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestPresets checks every preset for both goal conventions: the tile sets
// are disjoint and cover the board, and the entry counts are the products
// N!/(N-k)! (and N!/2 for the exact table) worked out by hand.
func TestPresets(t *testing.T) {
	wantEntries := map[string]uint64{
		"8puzzle":           181440,
		"15-555":            3 * 524160,
		"15-663":            2*5765760 + 3360,
		"15-78":             518918400 + 57657600,
		"24-6666":           2 * 127512000,
		"24-6666-reinefeld": 2 * 127512000,
		"35-puzzle":         2*(36*35*34*33*32*31) + 36*35*34*33*32,
		"35-catalogue":      4*(36*35*34*33*32*31) + 36*35*34*33*32,
		"48-puzzle":         2*(49*48*47*46*45*44) + 49*48*47*46*45 + 49,
		"48-5tile":          6*(49*48*47*46*45) + 3*(49*48*47*46) + 2*(49*48*47),
		"24-best":           11 * 127512000, // placements; the zero-aware tables hold one entry per placement and blank region
		"24-7tile":          6*(25*24*23*22*21*20*19) + 2*(25*24*23) + 2*(25*24*23*22) + 11*127512000,
	}
	for _, pr := range preset.All {
		for _, goal := range []string{"blank-last", "blank-first"} {
			ps, err := pr.Patterns(goal)
			if err != nil {
				t.Fatal(err)
			}
			tables, partitions, err := pr.PlanCatalogue(goal)
			if err != nil {
				t.Fatal(err)
			}
			if pr.IsCatalogue() {
				// Patterns are the tables; Plan refuses a catalogue.
				if len(ps) != len(tables) {
					t.Fatalf("%s: %d patterns for %d tables", pr.Name, len(ps), len(tables))
				}
				if _, _, err := pr.Plan(goal); err == nil {
					t.Errorf("%s: Plan accepts a catalogue", pr.Name)
				}
			} else {
				tables2, parts, err := pr.Plan(goal)
				if err != nil {
					t.Fatal(err)
				}
				if len(partitions) != 1 || len(parts) != len(ps) || len(partitions[0]) != len(parts) || len(tables2) != len(tables) {
					t.Fatalf("%s: %d partitions, %d parts for %d patterns", pr.Name, len(partitions), len(parts), len(ps))
				}
				for i, part := range parts {
					if part.Pattern.String() != ps[i].String() {
						t.Errorf("%s: part %d is %s, pattern %s", pr.Name, i, part.Pattern, ps[i])
					}
				}
			}
			for pi, parts := range partitions {
				var used uint64
				for i, part := range parts {
					if _, err := puzzle.MapPattern(part.Pattern, tables[part.Table], part.Sym); err != nil && part.Pattern != tables[part.Table] {
						t.Errorf("%s: partition %d part %d: %v", pr.Name, pi+1, i+1, err)
					}
					for _, tile := range part.Pattern.Tiles {
						if used&(1<<tile) != 0 {
							t.Errorf("%s: partition %d: tile %d in two patterns", pr.Name, pi+1, tile)
						}
						used |= 1 << tile
					}
				}
				if all := puzzle.FullMask(pr.W*pr.H) &^ 1; used != all {
					t.Errorf("%s %s: partition %d: tiles %b do not cover the board", pr.Name, goal, pi+1, used)
				}
			}
			var entries uint64
			for _, p := range tables {
				entries += p.Size()
			}
			if entries != wantEntries[pr.Name] {
				t.Errorf("%s: %d entries, want %d", pr.Name, entries, wantEntries[pr.Name])
			}
		}
	}
	// Blank-first 15-78 is Korf & Felner's {1..7}/{8..15} split.
	pr, _ := preset.Find("15-78")
	ps, _ := pr.Patterns("blank-first")
	if fmt.Sprintf("%d %d", ps[0].Tiles, ps[1].Tiles) != "[8 9 10 11 12 13 14 15] [1 2 3 4 5 6 7]" {
		t.Errorf("blank-first 15-78 = %v %v", ps[0].Tiles, ps[1].Tiles)
	}
	// Blank-first 24-6666 is Korf & Felner's partition, with 2 tables.
	pr, _ = preset.Find("24-6666")
	ps, _ = pr.Patterns("blank-first")
	if got := fmt.Sprintf("%d %d %d %d", ps[0].Tiles, ps[1].Tiles, ps[2].Tiles, ps[3].Tiles); got != "[1 2 5 6 7 12] [3 4 8 9 13 14] [10 11 15 16 20 21] [17 18 19 22 23 24]" {
		t.Errorf("blank-first 24-6666 = %s", got)
	}
	if _, err := preset.Find("nope"); err == nil {
		t.Error("unknown preset accepted")
	}
}

// TestFileName spells out the naming rule of FileName for each goal kind.
func TestFileName(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 3}
	custom := puzzle.Board{2, 1, 3, 4, 5, 6, 7, 8, 0}
	tests := []struct {
		prefix string
		goal   puzzle.Board
		tiles  []uint8
		want   string
	}{
		{"8puzzle", puzzle.BlankLastGoal(g), []uint8{1, 2, 3, 4, 5, 6, 7, 8}, "8puzzle.pdb"},
		{"8puzzle", puzzle.BlankFirstGoal(g), []uint8{1, 2, 3, 4, 5, 6, 7, 8}, "8puzzle-bf.pdb"},
		{"3x3", puzzle.BlankLastGoal(g), []uint8{1, 2, 5}, "3x3_1-2-5.pdb"},
		{"3x3", puzzle.BlankFirstGoal(g), []uint8{3, 4}, "3x3-bf_3-4.pdb"},
		{"3x3", custom, []uint8{1, 2}, "3x3-goal2.1.3.4.5.6.7.8.0_1-2.pdb"},
	}
	for _, tt := range tests {
		p, err := puzzle.NewPattern(g, tt.goal, tt.tiles)
		if err != nil {
			t.Fatal(err)
		}
		if got := preset.FileName(tt.prefix, p); got != tt.want {
			t.Errorf("FileName(%q, %s) = %q, want %q", tt.prefix, p, got, tt.want)
		}
		if !p.Exact {
			want := tt.want[:strings.Index(tt.want, "_")] + ".set.json"
			if got := preset.SetFileName(tt.prefix, p); got != want {
				t.Errorf("SetFileName(%q, %s) = %q, want %q", tt.prefix, p, got, want)
			}
		}
	}
}

// TestCatalogue24Best: preset 24-best's partitions for the blank-first goal
// are the lines of the published small catalogue (testdata, copied from
// ../shared/reference/catalogue-24-small.tsv), in order, and its 56 parts
// go through 11 tables.
func TestCatalogue24Best(t *testing.T) {
	pr, err := preset.Find("24-best")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/catalogue-24-small.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		var sets []string
		for _, f := range fields[1:] {
			ts := strings.Split(strings.Trim(f, "{}"), ",")
			slices.SortFunc(ts, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
			sets = append(sets, strings.Join(ts, " "))
		}
		slices.Sort(sets)
		want = append(want, strings.Join(sets, " | "))
	}
	tables, partitions, err := pr.PlanCatalogue("blank-first")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	parts := 0
	for _, ps := range partitions {
		var sets []string
		for _, p := range ps {
			sets = append(sets, strings.Trim(fmt.Sprintf("%d", p.Pattern.Tiles), "[]"))
			parts++
		}
		slices.Sort(sets)
		got = append(got, strings.Join(sets, " | "))
	}
	if !slices.Equal(got, want) {
		t.Errorf("24-best blank-first partitions:\n%s\nwant the catalogue's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(want) != 14 || parts != 56 || len(tables) != 11 {
		t.Errorf("%d partitions, %d parts, %d tables; want 14, 56, 11", len(want), parts, len(tables))
	}
}

// TestCatalogue24Seven: preset 24-7tile's 22 partitions (blank-first) are
// 4 partitions 7-7-7-3 of the 24 tiles, 4 partitions 7-7-6-4 and 24-best's
// 14 partitions 6-6-6-6,
// each partition's transpose (tile t at row r, column c becomes the tile
// at column r, row c) is one of them, so that the solver skips the
// reflected side (solver.reflectClosed), and its 88 parts go through 6
// tables of 7 tiles, 2 of 3, 2 of 4 and 11 of 6 (the 7-7-6-4 partitions'
// 7- and 6-tile parts reuse tables of the others).
func TestCatalogue24Seven(t *testing.T) {
	pr, err := preset.Find("24-7tile")
	if err != nil {
		t.Fatal(err)
	}
	tables, partitions, err := pr.PlanCatalogue("blank-first")
	if err != nil {
		t.Fatal(err)
	}
	key := partitionKey
	have := map[string]bool{}
	var all [][][]uint8
	for _, ps := range partitions {
		var sets [][]uint8
		var sizes []int
		for _, p := range ps {
			sets = append(sets, p.Pattern.Tiles)
			sizes = append(sizes, len(p.Pattern.Tiles))
		}
		slices.Sort(sizes)
		want := []int{3, 7, 7, 7}
		switch {
		case len(all) >= 8:
			want = []int{6, 6, 6, 6}
		case len(all) >= 4:
			want = []int{4, 6, 7, 7}
		}
		if !slices.Equal(sizes, want) {
			t.Errorf("partition %d %s: sizes %v, want %v", len(all)+1, key(sets), sizes, want)
		}
		have[key(sets)] = true
		all = append(all, sets)
	}
	checkTransposed(t, all, have, func(tile uint8) uint8 { return tile%5*5 + tile/5 }) // blank-first: tile t in cell t
	sizes := map[int]int{}
	for _, p := range tables {
		sizes[len(p.Tiles)]++
	}
	if len(partitions) != 22 || len(tables) != 21 || sizes[7] != 6 || sizes[3] != 2 || sizes[4] != 2 || sizes[6] != 11 {
		t.Errorf("%d partitions, %d tables (by size %v); want 22, 21 (6 of 7 tiles, 2 of 3, 2 of 4, 11 of 6)", len(partitions), len(tables), sizes)
	}
}

// TestCatalogue35: preset 35-catalogue's 4 partitions (blank-last) each
// cover the 35 tiles in five groups of 6 and one of 5, the transpose of
// each (tile 6r+c+1 becomes 6c+r+1) is one of them, so that the solver
// skips the reflected side, and its 24 parts go through 5 tables (the two
// L-shaped groups are rotations of one another, but the blank's goal cell
// is in the region the second encloses and not in the first's: two tables).
func TestCatalogue35(t *testing.T) {
	pr, err := preset.Find("35-catalogue")
	if err != nil {
		t.Fatal(err)
	}
	tables, partitions, err := pr.PlanCatalogue("blank-last")
	if err != nil {
		t.Fatal(err)
	}
	key := partitionKey
	have := map[string]bool{}
	var all [][][]uint8
	for _, ps := range partitions {
		var sets [][]uint8
		var sizes []int
		for _, p := range ps {
			sets = append(sets, p.Pattern.Tiles)
			sizes = append(sizes, len(p.Pattern.Tiles))
		}
		slices.Sort(sizes)
		if !slices.Equal(sizes, []int{5, 6, 6, 6, 6, 6}) {
			t.Errorf("partition %s: sizes %v", key(sets), sizes)
		}
		if have[key(sets)] {
			t.Errorf("partition %s twice", key(sets))
		}
		have[key(sets)] = true
		all = append(all, sets)
	}
	checkTransposed(t, all, have, func(tile uint8) uint8 { return (tile-1)%6*6 + (tile-1)/6 + 1 }) // blank-last 6x6
	if len(partitions) != 4 || len(tables) != 5 {
		t.Errorf("%d partitions, %d tables; want 4 and 5", len(partitions), len(tables))
	}
}

// partitionKey names a partition by its sorted tile sets, sorted.
func partitionKey(sets [][]uint8) string {
	var ss []string
	for _, s := range sets {
		s = slices.Clone(s)
		slices.Sort(s)
		ss = append(ss, fmt.Sprintf("%d", s))
	}
	slices.Sort(ss)
	return strings.Join(ss, " ")
}

// checkTransposed fails t unless the transpose of each partition in all
// (each tile mapped by tr) is a partition of have (partitionKey's).
func checkTransposed(t *testing.T, all [][][]uint8, have map[string]bool, tr func(uint8) uint8) {
	t.Helper()
	for _, sets := range all {
		var out [][]uint8
		for _, s := range sets {
			var ts []uint8
			for _, tile := range s {
				ts = append(ts, tr(tile))
			}
			out = append(out, ts)
		}
		if !have[partitionKey(out)] {
			t.Errorf("the transpose of partition %s is not in the catalogue", partitionKey(sets))
		}
	}
}
