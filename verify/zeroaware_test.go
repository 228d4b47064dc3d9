package verify_test

import (
	"context"
	"slices"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

func zeroAwareTable(t *testing.T, w, h int, goal string, tiles ...uint8) *format.Table {
	t.Helper()
	p := pdbtest.Pattern(t, w, h, goal, tiles...)
	v, err := builder.BuildZeroAware(context.Background(), p, builder.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	r, err := puzzle.NewRegions(p)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := format.NewZeroAwareTable(r, v, "verify test")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestZeroAware: real zero-aware tables pass every check (with Deep too);
// a spoilt entry is found by the zero-aware check, also when the spoiling
// leaves the minimum over regions, hence every check of the additive
// table, intact (the values of two regions of one placement swapped).
func TestZeroAware(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{3, 3, "blank-last", []uint8{1, 2, 3}},
		{3, 3, "blank-first", []uint8{1, 3, 5, 7}},
		{4, 4, "blank-last", []uint8{2, 3, 4}},
		{4, 4, "blank-last", []uint8{1, 2, 5, 6}},
	} {
		tb := zeroAwareTable(t, c.w, c.h, c.goal, c.tiles...)
		p, r := tb.Pattern, tb.Regions
		rep, err := verify.Table(ctx, tb, verify.Options{Deep: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Total() != 0 || !slices.Contains(rep.Checked, verify.CheckZeroAware) || !slices.Contains(rep.Checked, verify.CheckReference) || !slices.Contains(rep.Checked, verify.CheckDescent) {
			t.Fatalf("%s: %d findings %v, checked %v", p, rep.Total(), rep.Findings, rep.Checked)
		}
		// A placement with two regions whose values differ: swap them.
		swapped := false
		for i := uint64(0); i < r.Size() && !swapped; i++ {
			rank, region := r.Placement(i)
			if region != 0 || r.Count(rank%p.Combinations()) < 2 || tb.Values[i] == tb.Values[i+1] {
				continue
			}
			bad := *tb
			bad.Values = slices.Clone(tb.Values)
			bad.Values[i], bad.Values[i+1] = bad.Values[i+1], bad.Values[i]
			rep, err := verify.Table(ctx, &bad, verify.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Counts[verify.CheckZeroAware] == 0 || rep.Total() != rep.Counts[verify.CheckZeroAware] {
				t.Fatalf("%s: regions of index %d swapped: counts %v", p, i, rep.Counts)
			}
			swapped = true
		}
		if !swapped {
			t.Errorf("%s: no placement with two regions of different values", p)
		}
		for _, delta := range []int{2, -2} {
			bad := *tb
			bad.Values = slices.Clone(tb.Values)
			i := uint64(len(bad.Values)) / 3
			bad.Values[i] = uint8(int(bad.Values[i]) + delta)
			rep, err := verify.Table(ctx, &bad, verify.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Counts[verify.CheckZeroAware] == 0 {
				t.Fatalf("%s: index %d changed by %d: counts %v", p, i, delta, rep.Counts)
			}
		}
		bad := *tb
		bad.Values = tb.Values[:len(tb.Values)-1]
		rep, err = verify.Table(ctx, &bad, verify.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Counts[verify.CheckHeader] == 0 {
			t.Fatalf("%s: one value short: counts %v", p, rep.Counts)
		}
	}
}
