package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tilepdb/tilepdb/manifest"
	"github.com/tilepdb/tilepdb/verify"
)

// What build did with a table (tableResult.Action).
const (
	actionKept     = "kept"     // --if-needed: the file there was good and is untouched
	actionBuilt    = "built"    // built and written (with --if-needed: the file was missing)
	actionReplaced = "replaced" // --if-needed: the file there was bad; built and written over it
	actionFailed   = "failed"   // not written: not in the manifest, the table built differs from it, or fails verify
)

// buildJSONVersion is the version of the tableResult JSON schema (fields
// may be added within a version).
const buildJSONVersion = 1

// tableResult is what build did with one table; `build --json` prints it
// as one line.
type tableResult struct {
	Version   int                `json:"version"`            // buildJSONVersion
	File      string             `json:"file"`               // output path of the table
	Action    string             `json:"action"`             // kept, built, replaced or failed
	Reason    string             `json:"reason,omitempty"`   // why: what was wrong with the file replaced, why nothing was written, what a kept file passed
	Manifest  string             `json:"manifest,omitempty"` // "FILE:LINE" of the table's manifest entry
	Entries   uint64             `json:"entries"`            // identity of the table kept or built (0, 0, "" when none was)
	MaxValue  int                `json:"max_value"`          //
	RawSHA256 string             `json:"raw_sha256"`         //
	Seconds   float64            `json:"seconds"`            // wall time spent on the table: checks, search, encoding, writing
	Verify    *verify.JSONReport `json:"verify,omitempty"`   // the verification of the file kept or the table built (--if-needed)
}

// buildOne does build's work for one table: with --if-needed, check the
// file there and keep it when good; else build, compare with the manifest,
// verify (--if-needed) and write. The error is trouble that stops the
// whole command (I/O, interruption, memory); a table that is not written
// is an actionFailed result.
func buildOne(ctx context.Context, e *env, cfg *buildConfig, plan *buildPlan, pt plannedTable) (*tableResult, error) {
	start := time.Now()
	path := filepath.Join(cfg.out, pt.file)
	res := &tableResult{Version: buildJSONVersion, File: path}
	defer func() { res.Seconds = time.Since(start).Round(time.Microsecond).Seconds() }()
	var want *manifest.Entry
	if plan.want != nil {
		w, ok := plan.want.Lookup(pt.file)
		if !ok {
			res.Action, res.Reason = actionFailed, fmt.Sprintf("not in manifest %s (not built)", plan.want.Path)
			return res, nil
		}
		want = &w
		res.Manifest = plan.want.Where(w)
	}
	vopts := verify.Options{Workers: cfg.workers}
	action, why := actionBuilt, ""
	if cfg.ifNeeded {
		// Verifying the file there must fit in memory too: checkExisting
		// refuses it (an *exitError) after reading the header.
		ex, err := checkExisting(ctx, path, pt.pattern, cfg.fileFormat, want, res.Manifest, vopts, plan.budget)
		var refused *exitError
		if errors.As(err, &refused) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w (left as it is)", path, err)
		}
		if ex.keep {
			res.Action, res.Reason = actionKept, "verified"
			if want != nil {
				res.Reason = "header matches " + res.Manifest + ", verified"
			}
			res.Entries, res.MaxValue, res.RawSHA256 = ex.header.Entries, ex.header.MaxValue, ex.header.RawSHA256
			res.Verify = ex.report.JSON()
			return res, nil
		}
		why = ex.reason
		if !ex.missing {
			action = actionReplaced
		}
		if err := plan.checkMemory(cfg, pt); err != nil {
			return nil, err
		}
		if err := checkWritable(path); err != nil { // before the search, not after
			return nil, err
		}
	}
	if pt.ooc != nil {
		return buildOneOutOfCore(ctx, e, cfg, pt, res, want, start)
	}
	t, buildTime, err := buildTable(ctx, e, cfg, pt)
	if err != nil {
		return nil, err
	}
	h := &t.Header
	res.Entries, res.MaxValue, res.RawSHA256 = h.Entries, h.MaxValue, h.RawSHA256
	if want != nil {
		if d := want.Diff(manifest.FromHeader(pt.file, h)); d != "" {
			res.Action = actionFailed
			res.Reason = fmt.Sprintf("differs from manifest %s: %s (not written)", res.Manifest, d)
			return res, nil
		}
	}
	if cfg.ifNeeded {
		// Nothing replaces a file, good or bad, without passing verify.
		rep, err := verify.Table(ctx, t, vopts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w (nothing written)", path, err)
		}
		rep.Path = path
		res.Verify = rep.JSON()
		if !rep.OK() {
			res.Action = actionFailed
			res.Reason = fmt.Sprintf("the table built fails verify with %d finding(s) (not written)", rep.Total())
			return res, nil
		}
	}
	if err := writeTable(e, cfg, pt, t, start, buildTime); err != nil {
		return nil, err
	}
	res.Action, res.Reason = action, why
	return res, nil
}

// reportTable prints what build did with a table: with --json one object
// on stdout; with --if-needed one line on stdout ("kept PATH: why",
// "built PATH: missing", "replaced PATH because why", "failed PATH:
// why"); otherwise the written path on stdout, or the reason nothing was
// written on stderr.
func reportTable(e *env, cfg *buildConfig, res *tableResult) error {
	var err error
	switch {
	case cfg.asJSON:
		err = writeJSONLine(e.stdout, res)
	case cfg.ifNeeded && res.Action == actionReplaced:
		_, err = fmt.Fprintf(e.stdout, "%s %s because %s\n", res.Action, res.File, res.Reason)
	case cfg.ifNeeded:
		_, err = fmt.Fprintf(e.stdout, "%s %s: %s\n", res.Action, res.File, res.Reason)
	case res.Action == actionFailed:
		fmt.Fprintf(e.stderr, "%s: %s\n", filepath.Base(res.File), res.Reason)
	default:
		_, err = fmt.Fprintln(e.stdout, res.File)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// buildOneOutOfCore is buildOne's build, compare and write for a table
// built out of core (not with --if-needed): the stream's header is
// compared with the manifest before anything is written.
func buildOneOutOfCore(ctx context.Context, e *env, cfg *buildConfig, pt plannedTable, res *tableResult, want *manifest.Entry, start time.Time) (*tableResult, error) {
	s, buildTime, err := buildOutOfCore(ctx, e, cfg, pt)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	h := &s.Header
	res.Entries, res.MaxValue, res.RawSHA256 = h.Entries, h.MaxValue, h.RawSHA256
	if want != nil {
		if d := want.Diff(manifest.FromHeader(pt.file, h)); d != "" {
			res.Action = actionFailed
			res.Reason = fmt.Sprintf("differs from manifest %s: %s (not written; shard folder %s kept)", res.Manifest, d, pt.ooc.dir)
			return res, nil
		}
	}
	if err := writeStream(e, cfg, pt, s, start, buildTime); err != nil {
		return nil, err
	}
	res.Action = actionBuilt
	return res, nil
}
