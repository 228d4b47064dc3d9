package verify

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestSetFile: a good set file passes, also deep (the part looked up
// through the transpose is rebuilt by Reference and compared entry by
// entry, a cross-check of puzzle.MapPattern's rule); one whose symmetry
// does not map the goal cells fails with ErrSet (bad data) naming the part;
// a missing file is trouble, not bad data.
func TestSetFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(p *puzzle.Pattern, name string) *format.Table {
		v, err := Reference(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := format.NewTable(p, v, "test")
		if err != nil {
			t.Fatal(err)
		}
		if err := format.WriteFile(filepath.Join(dir, name), tb, 1); err != nil {
			t.Fatal(err)
		}
		return tb
	}
	a := pdbtest.Pattern(t, 4, 4, "", 2, 3, 4)
	b := pdbtest.Pattern(t, 4, 4, "", 5, 9, 13)
	ta := write(a, "a.pdb")
	pa, err := format.NewSetPart(a, a, puzzle.Identity, "a.pdb", ta.Header.RawSHA256)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := format.NewSetPart(b, a, puzzle.Transpose, "a.pdb", ta.Header.RawSHA256)
	if err != nil {
		t.Fatal(err)
	}
	sf := &format.SetFile{Version: format.SetVersion, Width: 4, Height: 4, Parts: []format.SetPart{pa, pb}}
	for _, c := range a.Goal {
		sf.Goal = append(sf.Goal, int(c))
	}
	path := filepath.Join(dir, "s"+format.SetFileExt)
	if err := format.WriteSetFile(path, sf); err != nil {
		t.Fatal(err)
	}
	for _, deep := range []bool{false, true} {
		s, probs, err := SetFile(ctx, path, Options{Deep: deep})
		if err != nil || len(probs) > 0 || len(s.Parts) != 2 || len(s.Tables) != 1 {
			t.Fatalf("deep=%v: %v %v", deep, probs, err)
		}
	}
	sf.Parts[1].Symmetry = "flip-tb"
	js, _ := json.Marshal(sf)
	if err := os.WriteFile(path, js, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, probs, err := SetFile(ctx, path, Options{}); err != nil || len(probs) != 1 || !errors.Is(probs[0], format.ErrSet) || !format.IsBadData(probs[0]) || !strings.Contains(probs[0].Error(), "part 2") {
		t.Fatalf("wrong symmetry: %v %v", probs, err)
	}
	// every problem is reported, not only the first: part 1's tile_map,
	// part 2's symmetry, and the keys of a third part
	sf.Parts[0].TileMap = []int{9, 9, 9}
	js, _ = json.Marshal(sf)
	js = append(js[:len(js)-2], `,{"tiles":"x","table":"a.pdb","table_tiles":[2,3,4],"symmetry":"identity","tile_map":[2,3,4],"table_raw_sha256":""}]}`...)
	if err := os.WriteFile(path, js, 0o644); err != nil {
		t.Fatal(err)
	}
	_, probs, err := SetFile(ctx, path, Options{})
	var msgs []string
	for _, p := range probs {
		msgs = append(msgs, p.Error())
	}
	want := []string{`part 3: key "tiles": want an array of integers, found string`, "part 1: tile_map [9 9 9]", "part 2 (tiles"}
	if err != nil || len(probs) != len(want) {
		t.Fatalf("3 problems: got %q, %v", msgs, err)
	}
	for i, w := range want {
		if !strings.Contains(msgs[i], w) || !format.IsBadData(probs[i]) {
			t.Errorf("problem %d: %q, want %q", i+1, msgs[i], w)
		}
	}
	if _, probs, err := SetFile(ctx, filepath.Join(dir, "none.set.json"), Options{}); err != nil || len(probs) != 1 || format.IsBadData(probs[0]) {
		t.Fatalf("missing file: %v %v", probs, err)
	}
}
