package fsm

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

var (
	update = flag.Bool("update", false, "rewrite forbidden.txt.zst from Generate(EmbeddedDepth) (with -long; about 6 minutes and 17 GB at depth 16)")
	long   = flag.Bool("long", false, "run the long tests (generating the shipped depth takes minutes)")
)

// TestForbiddenFile: the shipped strings are Generate's. The quick form
// checks the strings up to depth 10 (the generator is level by level, so
// they are the shipped strings of length <= 10); -long checks all.
func TestForbiddenFile(t *testing.T) {
	depth := 10
	switch {
	case *long:
		depth = EmbeddedDepth
	case raceEnabled:
		depth = 8
	}
	want, err := Generate(depth)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if depth != EmbeddedDepth {
			t.Fatal("-update needs -long")
		}
		packed, err := packForbidden(header(depth) + "\n" + strings.Join(want, "\n") + "\n")
		if err != nil {
			t.Fatal(err)
		}
		tmp := "forbidden.txt.zst.tmp"
		if err := os.WriteFile(tmp, packed, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, "forbidden.txt.zst"); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := Embedded(depth)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("forbidden.txt.zst up to depth %d: %d strings, Generate: %d (regenerate with -long -update)", depth, len(got), len(want))
	}
}

// board is a W×H board for the exhaustive checks, cells in reading order.
type board struct{ w, h int }

// step is the cell reached from c by move m, or -1 off the board.
func (b board) step(c, m int) int {
	x, y := c%b.w+dx[m], c/b.w+dy[m]
	if x < 0 || y < 0 || x >= b.w || y >= b.h {
		return -1
	}
	return y*b.w + x
}

// uncut checks that the automaton a keeps, on board b, the smallest
// shortest path (shorter first, then lexicographic in the move order
// "udlr") from each start to every state at most maxLen moves away
// (maxLen < 0: every reachable state). It is a complete check for all
// instances of the board within that distance: an instance is a start and
// a goal, and relabelling the tiles makes the start the board with tile c
// on cell c and the blank on some cell, while the order of move strings
// does not depend on labels. Breadth-first search over states, each level
// in the order of the states' smallest paths, children in move order,
// reaches every state first by its smallest shortest path, along which the
// automaton is stepped. It returns the first path the automaton cuts ("" if
// none), and the number of states checked and of children cut (on paths
// that were not smallest).
func uncut(t *testing.T, a *Automaton, b board, maxLen int) (cut string, states, pruned int) {
	n := b.w * b.h
	if n > 16 {
		t.Fatalf("board %dx%d: states are packed 4 bits a cell", b.w, b.h)
	}
	type node struct {
		key   uint64
		blank int8
		fsm   int32
		path  string
	}
	for start := 0; start < n; start++ {
		var key uint64 // cell c holds tile c, the blank (tile start) on start
		for c := 0; c < n; c++ {
			key |= uint64(c) << (4 * c)
		}
		seen := map[uint64]bool{key: true}
		level := []node{{key, int8(start), 0, ""}}
		for d := 0; len(level) > 0 && (maxLen < 0 || d < maxLen); d++ {
			var next []node
			for _, v := range level {
				bl := int(v.blank)
				for m := 0; m < 4; m++ {
					to := b.step(bl, m)
					if to < 0 {
						continue
					}
					tile := v.key >> (4 * to) & 15
					blankTile := v.key >> (4 * bl) & 15
					k := v.key&^(15<<(4*to))&^(15<<(4*bl)) | blankTile<<(4*to) | tile<<(4*bl)
					st := a.Next(v.fsm, uint8(m))
					if seen[k] {
						if st == Dead {
							pruned++
						}
						continue
					}
					seen[k] = true
					p := v.path + string(Letters[m])
					if st == Dead {
						return p, states, pruned
					}
					next = append(next, node{k, int8(to), st, p})
				}
			}
			states += len(next)
			level = next
		}
	}
	return "", states, pruned
}

// shipped is ForDepth(depth) or a fatal error.
func shipped(t *testing.T, depth int) *Automaton {
	t.Helper()
	a, err := ForDepth(depth)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestUncutSmallBoards: on every board up to 2x4 and 3x3 (all states, from
// every start; 2x5 with -long; 3x3 up to 16 moves with the race detector)
// and on 3x4 up to 14 moves (20 with -long, 10 with the race detector), the
// shipped automaton never cuts the smallest shortest path to a state, and
// it does cut duplicates.
func TestUncutSmallBoards(t *testing.T) {
	a := shipped(t, EmbeddedDepth)
	deep, wide, full := 14, 0, -1
	switch {
	case *long:
		deep, wide = 20, -1
	case raceEnabled:
		deep, full = 10, 16
	}
	for _, tc := range []struct {
		b      board
		maxLen int
	}{
		{board{2, 2}, -1}, {board{2, 3}, -1}, {board{3, 2}, -1}, {board{2, 4}, -1}, {board{4, 2}, -1},
		{board{3, 3}, full}, {board{2, 5}, wide}, {board{5, 2}, wide}, {board{3, 4}, deep}, {board{4, 3}, deep},
	} {
		if tc.maxLen == 0 {
			continue
		}
		cut, states, pruned := uncut(t, a, tc.b, tc.maxLen)
		if cut != "" {
			t.Errorf("%dx%d: the automaton cuts the smallest shortest path %s", tc.b.w, tc.b.h, cut)
		}
		if pruned == 0 {
			t.Errorf("%dx%d: nothing pruned", tc.b.w, tc.b.h)
		}
		t.Logf("%dx%d (max %d moves): %d states, %d duplicate children cut", tc.b.w, tc.b.h, tc.maxLen, states, pruned)
	}
}

// TestUncutCatchesWrongStrings: the check of TestUncutSmallBoards fails
// for an automaton that forbids one string too many: the kept partner
// "druldr" of a 2x2 pair, strings of length 8 or 10 that Generate keeps,
// or "dllurdrulldru", which Generate(14) would forbid without the
// bounding-box condition (its smaller equivalents leave its 3x2 box).
func TestUncutCatchesWrongStrings(t *testing.T) {
	boxed, err := Embedded(10)
	if err != nil {
		t.Fatal(err)
	}
	right, err := Compile(boxed)
	if err != nil {
		t.Fatal(err)
	}
	for _, wrong := range []string{"druldr", "urdldrul", "ldrurdlulu", "dllurdrulldru"} {
		if right.Run(wrong) == Dead {
			t.Fatalf("%s is cut already", wrong)
		}
		a, err := Compile(append(slices.Clone(boxed), wrong))
		if err != nil {
			t.Fatal(err)
		}
		caught := false
		for _, b := range []board{{2, 3}, {3, 2}, {3, 3}, {2, 4}, {4, 2}} {
			if cut, _, _ := uncut(t, a, b, -1); cut != "" {
				t.Logf("with %s: %dx%d: cuts %s", wrong, b.w, b.h, cut)
				caught = true
				break
			}
		}
		if !caught {
			t.Errorf("with %s: the wrong automaton passes the check", wrong)
		}
	}
}

// TestBoxCondition: up to depth 10 (12 with -long) dropping the
// bounding-box condition changes no forbidden string: on the unbounded
// board every smaller equivalent found stays within the forbidden string's
// box. (At depth 14 it does change 38 of them, in about 25 minutes of a
// loaded machine; TestUncutCatchesWrongStrings uses one.)
func TestBoxCondition(t *testing.T) {
	depth := 10
	if *long {
		depth = 12
	}
	unboxed, err := generate(depth, false)
	if err != nil {
		t.Fatal(err)
	}
	boxed, err := Embedded(depth)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(unboxed, boxed) {
		t.Errorf("depth %d: %d strings without the box condition, %d with it", depth, len(unboxed), len(boxed))
	}
}

// TestTwoByTwo: to depth 6 the forbidden strings are the immediate
// reversals and the four six-move strings of the solver's former 2x2 rule.
func TestTwoByTwo(t *testing.T) {
	got, err := Generate(6)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ud", "du", "lr", "rl", "lurdlu", "ldruld", "ruldru", "rdlurd"}
	if !slices.Equal(got, want) {
		t.Errorf("Generate(6) = %q, want %q", got, want)
	}
}

// arrangement plays s from the origin of an unbounded grid and returns the
// tiles on every cell that changed (a map printed in key order) and the
// bounding box of the visited cells: a plain restatement of what generate
// computes, for the brute-force check.
func arrangement(s string) (string, box) {
	type cell struct{ x, y int }
	tiles := map[cell]cell{}
	at := func(c cell) cell {
		if t, ok := tiles[c]; ok {
			return t
		}
		return c
	}
	var b box
	blank := cell{}
	for i := 0; i < len(s); i++ {
		m := strings.IndexByte(Letters, s[i])
		to := cell{blank.x + dx[m], blank.y + dy[m]}
		tiles[blank], tiles[to] = at(to), at(blank)
		blank = to
		b.x0, b.x1 = min(b.x0, int8(to.x)), max(b.x1, int8(to.x))
		b.y0, b.y1 = min(b.y0, int8(to.y)), max(b.y1, int8(to.y))
	}
	var parts []string
	for c, t := range tiles {
		if c != t {
			parts = append(parts, fmt.Sprint(c, t))
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, " "), b
}

// allStrings lists every move string of length 0..n, in order.
func allStrings(n int) []string {
	out := []string{""}
	level := []string{""}
	for range n {
		var next []string
		for _, p := range level {
			for i := range 4 {
				next = append(next, p+Letters[i:i+1])
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// TestGenerateBruteForce: up to depth 8 (7 with the race detector), Generate's strings are exactly
// the minimal forbidden strings of the definition, computed over all 4^n
// strings (reversals included) without the survivor shortcut; and the
// automaton reaches Dead on exactly the strings containing one of them.
func TestGenerateBruteForce(t *testing.T) {
	depth := 8
	if raceEnabled {
		depth = 7
	}
	all := allStrings(depth)
	byKey := map[string][]box{}
	forb := map[string]bool{}
	for _, s := range all { // in order: earlier strings are in byKey
		k, b := arrangement(s)
		for _, o := range byKey[k] {
			if o.within(b) {
				forb[s] = true
				break
			}
		}
		byKey[k] = append(byKey[k], b)
	}
	var want []string
	for _, s := range all {
		if !forb[s] {
			continue
		}
		minimal := true
		for i := 0; i < len(s) && minimal; i++ {
			for j := i + 1; j <= len(s); j++ {
				if j-i < len(s) && forb[s[i:j]] {
					minimal = false
					break
				}
			}
		}
		if minimal {
			want = append(want, s)
		}
	}
	got, err := Generate(depth)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Generate(%d) = %d strings %q,\nbrute force %d %q", depth, len(got), got, len(want), want)
	}
	a, err := Compile(got)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		contains := false
		for _, f := range got {
			if strings.Contains(s, f) {
				contains = true
				break
			}
		}
		if dead := a.Run(s) == Dead; dead != contains {
			t.Fatalf("Run(%q) dead %v, contains a forbidden string %v", s, dead, contains)
		}
	}
}

// TestCompileErrors: bad strings are refused with a clear error.
func TestCompileErrors(t *testing.T) {
	for _, f := range [][]string{{""}, {"ux"}, {"UD"}} {
		if _, err := Compile(f); err == nil {
			t.Errorf("Compile(%q) succeeded", f)
		}
	}
	if _, err := Generate(-1); err == nil {
		t.Error("Generate(-1) succeeded")
	}
	if _, err := Generate(MaxDepth + 1); err == nil {
		t.Error("Generate(MaxDepth+1) succeeded")
	}
	if _, err := ForDepth(EmbeddedDepth + 1); err == nil {
		t.Error("ForDepth(EmbeddedDepth+1) succeeded")
	}
}
