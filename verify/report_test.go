package verify

import (
	"strings"
	"testing"
	"time"
)

// TestWriteTextColumns: every "checked" row of the text report puts its
// status one blank after the longest check name, whatever the check
// ("zero-aware" is the longest) or its status.
func TestWriteTextColumns(t *testing.T) {
	r := &Report{
		Path: "t.pdb", Pattern: "3x3 blank-last tiles 1,2,3", Entries: 504,
		Checked: checkOrder,
		Counts:  map[string]uint64{CheckStep: 12},
		Elapsed: map[string]time.Duration{},
		Passes:  [][]string{{CheckManhattan, CheckDescent}},
	}
	for _, c := range checkOrder {
		r.Elapsed[c] = time.Millisecond
	}
	text := reportText(r)
	prefix := "  checked "
	col := len(prefix) + len(CheckZeroAware) + 1
	rows := 0
	for _, l := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(l, prefix)
		if !ok {
			continue
		}
		rows++
		name, _, _ := strings.Cut(rest, " ")
		status := l[col:]
		if strings.TrimRight(l[:col], " ") != prefix+name || !strings.HasPrefix(status, "ok ") && !strings.HasPrefix(status, "12 findings ") {
			t.Errorf("row %q: the status does not start at column %d", l, col)
		}
	}
	if rows != len(checkOrder) {
		t.Errorf("%d checked rows, want %d:\n%s", rows, len(checkOrder), text)
	}
}
