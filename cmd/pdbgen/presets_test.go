package main

import (
	"strings"
	"testing"
)

// TestPresets: one line per preset, name and board first, the default set
// marked.
func TestPresets(t *testing.T) {
	r := pdbgen(t, "", "presets")
	wantCode(t, r, 0)
	if r.stderr != "" {
		t.Errorf("presets wrote to stderr:\n%v", r)
	}
	ls := lines(r.stdout)
	if len(ls) != 12 {
		t.Fatalf("presets printed %d lines, want 12\n%v", len(ls), r)
	}
	for i, want := range []struct{ name, size string }{
		{"8puzzle", "3x3"}, {"15-555", "4x4"}, {"15-663", "4x4"}, {"15-78", "4x4"}, {"24-6666", "5x5"}, {"24-6666-reinefeld", "5x5"},
		{"35-puzzle", "6x6"}, {"35-catalogue", "6x6"}, {"48-puzzle", "7x7"}, {"48-5tile", "7x7"}, {"24-best", "5x5"}, {"24-7tile", "5x5"},
	} {
		f := strings.Fields(ls[i])
		if len(f) < 3 || f[0] != want.name || f[1] != want.size {
			t.Errorf("presets line %d = %q, want %s %s ...", i+1, ls[i], want.name, want.size)
		}
		isDefault := strings.HasSuffix(ls[i], "(default)")
		if wantDefault := i < 3; isDefault != wantDefault {
			t.Errorf("presets line %q: default marker %v, want %v", ls[i], isDefault, wantDefault)
		}
	}
}
