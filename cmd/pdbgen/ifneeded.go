package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/manifest"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

// existingTable is what build --if-needed found at a target path.
type existingTable struct {
	keep    bool           // the file is good: leave it untouched
	missing bool           // there is no file
	reason  string         // why it is not kept ("missing", "header ...", "verify found ..."); "" when kept
	header  *format.Header // the header read, nil when missing or unreadable
	report  *verify.Report // the full verification, nil when it did not get that far
}

// checkExisting decides whether the file at path already holds the table
// of p: a readable header describing p (board, goal, tiles) in file format
// major (a file in the other format is rebuilt), with the
// identity of the manifest entry want (when not nil; where names its
// line), then a full verify.File with no finding. Cheap checks come
// first, so a wrong file costs only a header read. Verifying the file must
// fit budget b: the header read is checked against it first (verifyFits),
// so the file is opened at most twice (its header, then verify.File). The
// error is reserved for trouble that says nothing about the file's data
// (permission, I/O, interruption, a directory in the way) and for the
// memory refusal (an *exitError, exit 2): the caller must stop rather than
// replace the file.
func checkExisting(ctx context.Context, path string, p *puzzle.Pattern, major int, want *manifest.Entry, where string, opts verify.Options, b sysmem.Budget) (existingTable, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return existingTable{missing: true, reason: "missing"}, nil
	case err != nil:
		return existingTable{}, err
	case st.IsDir():
		return existingTable{}, fmt.Errorf("%s is a directory, in the way of the table file", path)
	}
	h, err := format.ReadHeaderFile(path)
	if err != nil {
		if !format.IsBadData(err) {
			return existingTable{}, err
		}
		// A header that is not strictly good may still declare a size
		// too large to verify: refused as before (checkVerifyMemory
		// reads it leniently, the file's second and last open).
		if err := checkVerifyMemory(b, path, opts); err != nil {
			return existingTable{}, &exitError{code: exitTrouble, err: err}
		}
		return existingTable{reason: "its header does not read: " + strings.TrimPrefix(oneLine(err), path+": ")}, nil
	}
	if err := verifyFits(b, path, h, opts); err != nil {
		return existingTable{}, &exitError{code: exitTrouble, err: err}
	}
	ex := existingTable{header: h}
	if d := patternDiff(h, p); d != "" {
		ex.reason = "it holds " + d
		return ex, nil
	}
	if int(h.Major) != major {
		ex.reason = fmt.Sprintf("it is in format %s, --format asks for %d", h.Version(), major)
		return ex, nil
	}
	if want != nil {
		if d := want.Diff(manifest.FromHeader(want.Name, h)); d != "" {
			ex.reason = fmt.Sprintf("its header differs from manifest %s: %s", where, d)
			return ex, nil
		}
	}
	rep, err := verify.File(ctx, path, opts)
	if err != nil {
		return existingTable{}, err
	}
	ex.report = rep
	if !rep.OK() {
		first := ""
		if len(rep.Findings) > 0 {
			first = " (first: " + oneLine(errors.New(rep.Findings[0].String())) + ")"
		}
		ex.reason = fmt.Sprintf("verify found %d finding(s)%s", rep.Total(), first)
		return ex, nil
	}
	ex.keep = true
	return ex, nil
}

// patternDiff says how the table described by h differs from pattern p in
// board, goal or tiles ("" when it is p's table).
func patternDiff(h *format.Header, p *puzzle.Pattern) string {
	switch {
	case h.Width != p.Geom.W || h.Height != p.Geom.H:
		return fmt.Sprintf("a %dx%d table, not %s", h.Width, h.Height, p.Geom)
	case !slices.Equal(h.Goal, ints(p.Goal)):
		return fmt.Sprintf("a table for goal %s (%s), not %s", tileList(h.Goal), h.GoalName, puzzle.GoalName(p.Geom, p.Goal))
	case !slices.Equal(h.Tiles, ints(p.Tiles)):
		return fmt.Sprintf("tiles %s, not %s", tileList(h.Tiles), tileList(ints(p.Tiles)))
	}
	return ""
}

func ints[T ~uint8](xs []T) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}
