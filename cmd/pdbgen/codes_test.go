package main

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestSolveCodes: with every plain table held as codes (codesMinEntries
// lowered to 1), solve prints exactly what it prints with the tables in
// bytes (lengths, moves, node counts) for IDA* with and without
// --reflect, weighted A* and beam search, with nothing on stderr, lookup
// prints the same values per part, and the load is planned smaller.
func TestSolveCodes(t *testing.T) {
	dir := t.TempDir()
	wantCode(t, pdbgen(t, "", "build", "--quiet", "-j", "2", "-o", dir, "--preset", "15-555"), 0)
	files, err := filepath.Glob(filepath.Join(dir, "15-555_*.pdb"))
	if err != nil || len(files) != 3 {
		t.Fatalf("tables %v (%v)", files, err)
	}
	// A set whose second part looks its table up through the transpose.
	sym := []string{filepath.Join("..", "..", "readers", "testdata", "sets", "good-a.set.json")}
	g, _ := puzzle.NewGeometry(4, 4)
	rng := rand.New(rand.NewPCG(5, 55))
	var in strings.Builder
	for range 4 {
		in.WriteString(pdbtest.RandomWalk(rng, g, puzzle.BlankLastGoal(g), 50).String() + "\n")
	}
	runs := [][]string{{"-t", "1"}, {"--reflect", "-t", "2"}, {"--algorithm", "wastar", "--weight", "1.4"}, {"--algorithm", "beam", "--width", "30"}}
	solveAll := func() []result {
		var out []result
		for _, fs := range [][]string{files, sym} {
			for _, args := range runs {
				if len(fs) == 1 && args[0] == "--algorithm" {
					args = []string{"--reflect"} // a beam over 6 of 15 tiles runs out of new states
				}
				r := pdbgen(t, in.String(), append(append([]string{"solve", "-j", "1"}, args...), fs...)...)
				wantCode(t, r, 0)
				out = append(out, r)
			}
		}
		return out
	}
	want := solveAll()
	wantLookup := map[int]string{}
	for _, fs := range [][]string{files, sym} {
		r := pdbgen(t, in.String(), append([]string{"lookup", "--parts"}, fs...)...)
		wantCode(t, r, 0)
		wantLookup[len(fs)] = r.stdout
	}
	e := &env{}
	bytesNeed := heldLoadMemoryNeed(e, files, false)
	old := codesMinEntries
	codesMinEntries = 1
	defer func() { codesMinEntries = old }()
	if !anyHeldAsCodes(e, files) || !anyHeldAsCodes(e, sym) {
		t.Fatal("no table held as codes")
	}
	if need := heldLoadMemoryNeed(e, files, false); need >= bytesNeed {
		t.Fatalf("load planned at %d bytes as codes, %d in bytes", need, bytesNeed)
	}
	for _, fs := range [][]string{files, sym} {
		args := append([]string{"lookup", "--parts"}, fs...)
		if got := pdbgen(t, in.String(), args...); got.stdout != wantLookup[len(fs)] || got.code != 0 || got.stderr != "" {
			t.Fatalf("lookup as codes:\n%v\nin bytes:\n%s", got, wantLookup[len(fs)])
		}
	}
	for i, got := range solveAll() {
		if got.stdout != want[i].stdout || got.stderr != "" || len(lines(got.stdout)) != 4 {
			t.Fatalf("solve %v:\ncodes:\n%v\nbytes:\n%v", runs[i%len(runs)], got, want[i])
		}
	}
}
