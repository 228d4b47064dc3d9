package verify_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/verify"
)

// TestFileFrames: the frame-by-frame verification passes a good table,
// skips the rules on neighbouring entries with the reason, and reports
// the same findings as File for the rules on one entry (a value of the
// wrong parity, a 255) in a format 1 file.
func TestFileFrames(t *testing.T) {
	ctx := context.Background()
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)
	values, err := builder.Build(ctx, p, builder.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, vals []uint8, major uint16) string {
		tb, err := format.NewTable(p, vals, "test")
		if err != nil {
			t.Fatal(err)
		}
		tb.Header.Major, tb.Header.FrameSize = major, 2048
		path := filepath.Join(dir, name)
		if err := format.WriteFile(path, tb, 2); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.pdb", values, format.MajorVersion)
	rep, err := verify.FileFrames(ctx, good, verify.Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("good table: %d findings", rep.Total())
	}
	for _, c := range []string{verify.CheckIntegrity, verify.CheckHeader, verify.CheckRanking, verify.CheckManhattan} {
		if !slices.Contains(rep.Checked, c) {
			t.Errorf("%s not checked: %v", c, rep.Checked)
		}
	}
	if len(rep.Skipped) != 4 || !strings.Contains(rep.Skipped[0], "frame by frame") {
		t.Errorf("skipped: %q", rep.Skipped)
	}
	bad := slices.Clone(values)
	bad[100]++
	bad[5000] += 3
	badPath := write("bad.pdb", bad, format.MajorVersion1)
	got, err := verify.FileFrames(ctx, badPath, verify.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want, err := verify.File(ctx, badPath, verify.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got.Counts[verify.CheckManhattan] != 2 || got.Counts[verify.CheckManhattan] != want.Counts[verify.CheckManhattan] {
		t.Errorf("manhattan findings %d, File's %d, want 2", got.Counts[verify.CheckManhattan], want.Counts[verify.CheckManhattan])
	}
	// A corrupt payload is an integrity finding.
	exact := pdbtest.Pattern(t, 3, 3, "blank-last")
	ev, _ := builder.Build(ctx, exact, builder.Options{Workers: 1})
	et, _ := format.NewTable(exact, ev, "test")
	ep := filepath.Join(dir, "exact.pdb")
	if err := format.WriteFile(ep, et, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := verify.FileFrames(ctx, ep, verify.Options{}); err == nil {
		t.Error("exact table accepted")
	}
}
