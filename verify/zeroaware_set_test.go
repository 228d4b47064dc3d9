package verify

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestSetFileZeroAware: a set file whose part {5,9,13} is looked up
// through the transpose in the zero-aware table of {2,3,4} passes the
// deep check: every (placement, blank region) state of the part, read
// through the symmetry, equals ReferenceZeroAware of the part's own
// pattern (the region numbering differs between the two frames).
func TestSetFileZeroAware(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := pdbtest.Pattern(t, 4, 4, "", 2, 3, 4)
	b := pdbtest.Pattern(t, 4, 4, "", 5, 9, 13)
	v, err := ReferenceZeroAware(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	r, err := puzzle.NewRegions(a)
	if err != nil {
		t.Fatal(err)
	}
	ta, err := format.NewZeroAwareTable(r, v, "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := format.WriteFile(filepath.Join(dir, "a_za.pdb"), ta, 1); err != nil {
		t.Fatal(err)
	}
	pa, err := format.NewSetPart(a, a, puzzle.Identity, "a_za.pdb", ta.Header.RawSHA256)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := format.NewSetPart(b, a, puzzle.Transpose, "a_za.pdb", ta.Header.RawSHA256)
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
	s, probs, err := SetFile(ctx, path, Options{Deep: true})
	if err != nil || len(probs) > 0 || len(s.Parts) != 2 || !s.Tables[0].ZeroAware() {
		t.Fatalf("set %v, problems %v, error %v", s, probs, err)
	}
	// The check can fail: the same comparison against the part's own
	// values with the regions of one multi-region placement swapped.
	bad := *ta
	bad.Values = append([]uint8(nil), ta.Values...)
	swapped := false
	for i := uint64(0); i+1 < uint64(len(bad.Values)) && !swapped; i++ {
		rank, region := r.Placement(i)
		if region == 0 && r.Count(rank%a.Combinations()) > 1 && bad.Values[i] != bad.Values[i+1] {
			bad.Values[i], bad.Values[i+1] = bad.Values[i+1], bad.Values[i]
			swapped = true
		}
	}
	set, err := format.NewSetParts([]format.Part{{Pattern: a, Table: &bad}, {Pattern: b, Table: &bad, Sym: puzzle.Transpose}})
	if err != nil {
		t.Fatal(err)
	}
	prob, err := zaSetPart(ctx, path, set.PartName(1), set.Parts[1])
	if err != nil || prob == nil {
		t.Fatalf("a spoilt table passed the deep check of the symmetric part (%v, %v)", prob, err)
	}
}
