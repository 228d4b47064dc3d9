package preset_test

import (
	"fmt"
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
		"48-puzzle":         6*(49*48*47*46*45) + 3*(49*48*47*46) + 2*(49*48*47),
	}
	for _, pr := range preset.All {
		for _, goal := range []string{"blank-last", "blank-first"} {
			ps, err := pr.Patterns(goal)
			if err != nil {
				t.Fatal(err)
			}
			tables, parts, err := pr.Plan(goal)
			if err != nil {
				t.Fatal(err)
			}
			if len(parts) != len(ps) {
				t.Fatalf("%s: %d parts for %d patterns", pr.Name, len(parts), len(ps))
			}
			for i, part := range parts {
				if part.Pattern.String() != ps[i].String() {
					t.Errorf("%s: part %d is %s, pattern %s", pr.Name, i, part.Pattern, ps[i])
				}
				if _, err := puzzle.MapPattern(part.Pattern, tables[part.Table], part.Sym); err != nil && part.Pattern != tables[part.Table] {
					t.Errorf("%s: part %d: %v", pr.Name, i, err)
				}
			}
			var entries uint64
			for _, p := range tables {
				entries += p.Size()
			}
			var used uint64
			for _, p := range ps {
				for _, tile := range p.Tiles {
					if used&(1<<tile) != 0 {
						t.Errorf("%s: tile %d in two patterns", pr.Name, tile)
					}
					used |= 1 << tile
				}
			}
			if all := puzzle.FullMask(pr.W*pr.H) &^ 1; used != all {
				t.Errorf("%s %s: tiles %b do not cover the board", pr.Name, goal, used)
			}
			if entries != wantEntries[pr.Name] {
				t.Errorf("%s: %d entries, want %d", pr.Name, entries, wantEntries[pr.Name])
			}
		}
	}
	// Blank-first 15-78 is Korf & Felner's {1..7}/{8..15} split.
	pr, _ := preset.Find("15-78")
	ps, _ := pr.Patterns("blank-first")
	if fmt.Sprint(ps[0].Tiles, ps[1].Tiles) != "[8 9 10 11 12 13 14 15] [1 2 3 4 5 6 7]" {
		t.Errorf("blank-first 15-78 = %v %v", ps[0].Tiles, ps[1].Tiles)
	}
	// Blank-first 24-6666 is Korf & Felner's partition, with 2 tables.
	pr, _ = preset.Find("24-6666")
	ps, _ = pr.Patterns("blank-first")
	if got := fmt.Sprint(ps[0].Tiles, ps[1].Tiles, ps[2].Tiles, ps[3].Tiles); got != "[1 2 5 6 7 12] [3 4 8 9 13 14] [10 11 15 16 20 21] [17 18 19 22 23 24]" {
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
