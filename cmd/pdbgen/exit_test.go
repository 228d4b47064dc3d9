package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"testing"

	"github.com/tilepdb/tilepdb/format"
)

// TestExitCode is the rule of exitCode, case by case.
func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"success", nil, exitOK},
		{"help", flag.ErrHelp, exitOK},
		{"usage", usageErr("-j must be at least 1"), exitTrouble},
		{"bad data", dataErr(errors.New("3 bad line(s)")), exitBadData},
		{"silent with code", &exitError{code: exitBadData, err: errSilent}, exitBadData},
		{"corrupt table", fmt.Errorf("a.pdb: %w", format.ErrFormat), exitBadData},
		{"checksum", fmt.Errorf("a.pdb: %w", format.ErrChecksum), exitBadData},
		{"unsupported version", fmt.Errorf("a.pdb: %w", &format.UnsupportedVersionError{}), exitBadData},
		{"missing file", fmt.Errorf("open a.pdb: %w", fs.ErrNotExist), exitTrouble},
		{"other", errors.New("disk on fire"), exitTrouble},
		{"explicit code wins", &exitError{code: exitTrouble, err: format.ErrFormat}, exitTrouble},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("%s: exitCode(%v) = %d, want %d", tt.name, tt.err, got, tt.want)
		}
	}
}

// TestTablesThatDoNotCombine (issue 22 item 5): tables given together that
// do not form one heuristic (another goal, an exact table among others,
// shared tiles) are bad data, exit 1 as the exit table of docs/commands.md says, not 2.
func TestTablesThatDoNotCombine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"goals", []string{fixture(t, fx123bf), fixture(t, fx456)}, "has goal"},
		{"exact among others", []string{fixture(t, fx8), fixture(t, fx456)}, "must be used alone"},
		{"shared tiles", []string{fixture(t, fx456), fixture(t, fx456)}, "not disjoint"},
	} {
		for _, cmd := range []string{"lookup", "solve"} {
			r := pdbgen(t, goal8+"\n", append([]string{cmd}, tc.files...)...)
			wantCode(t, r, exitBadData)
			oneErrorLine(t, r, cmd, tc.want)
		}
	}
}
