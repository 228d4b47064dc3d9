package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/manifest"
	"github.com/tilepdb/tilepdb/verify"
)

// folderJSON is the object `verify --manifest M --json DIR` prints per
// file: the verify report (checks empty when the file was not verified)
// plus where the manifest lists it and the folder status.
type folderJSON struct {
	*verify.JSONReport
	Manifest string `json:"manifest,omitempty"` // "FILE:LINE" of the manifest entry; absent for unlisted files
	Status   string `json:"status"`             // a manifest.Status: ok, missing, mismatch, corrupt, unreadable, unlisted
	Reason   string `json:"reason,omitempty"`   // why, for every status but ok
}

// verifyFolder checks the folder dir against the manifest at manPath:
// every listed table present with the listed identity (manifest.CheckDir)
// and passing verifyOne (runVerify's memory check and verify.File);
// unlisted tables are reported but do not fail.
// Exit 1 when a listed table is missing, different, corrupt or fails a
// check, or the manifest is malformed; 2 when the manifest or the folder
// cannot be read or a table cannot be checked.
func verifyFolder(e *env, manPath, dir string, verifyOne func(string) (*verify.Report, error), asJSON bool) error {
	ctx := e.context()
	m, err := readManifestFile(manPath)
	if err != nil {
		return err
	}
	statuses, err := manifest.CheckDir(dir, m)
	if err != nil {
		return err // a *manifest.DirError: trouble
	}
	bad, trouble, listed, unlisted := 0, 0, 0, 0
	for _, fs := range statuses {
		out := folderJSON{Status: string(fs.Status), Reason: fs.Reason}
		if fs.Status != manifest.Unlisted {
			listed++
			out.Manifest = m.Where(fs.Entry)
		}
		var rep *verify.Report
		switch fs.Status {
		case manifest.OK:
			rep, err = verifyOne(fs.Path)
			if err != nil {
				if ctx.Err() != nil {
					return err
				}
				fmt.Fprintf(e.stderr, "%v\n", err)
				trouble++
				out.JSONReport = verify.ErrorJSON(fs.Path, err)
				out.Status, out.Reason = string(manifest.Unreadable), oneLine(err)
				break
			}
			out.JSONReport = rep.JSON()
			if !rep.OK() {
				bad++
			}
		case manifest.Unreadable:
			fmt.Fprintf(e.stderr, "%s: %s\n", regular.Name(fs.Path), fs.Reason)
			trouble++
			out.JSONReport = verify.ErrorJSON(fs.Path, errors.New(fs.Reason))
		case manifest.Unlisted:
			unlisted++
		default: // missing, mismatch, corrupt
			bad++
		}
		if out.JSONReport == nil {
			out.JSONReport = &verify.JSONReport{Version: verify.JSONVersion, File: fs.Path, Checks: []verify.JSONCheck{}}
			if fs.Header != nil {
				out.Entries = fs.Header.Entries
			}
		}
		if asJSON {
			if err := writeJSONLine(e.stdout, out); err != nil {
				return err
			}
			continue
		}
		if err := writeFolderText(e.stdout, fs, out, rep); err != nil {
			return err
		}
	}
	note := ""
	if unlisted > 0 {
		note = fmt.Sprintf("; %d unlisted table file(s) in %s", unlisted, dir)
	}
	switch {
	case trouble > 0:
		return &exitError{code: exitTrouble, err: fmt.Errorf("%d of %d listed table(s) could not be checked%s", trouble, listed, note)}
	case bad > 0:
		return dataErr(fmt.Errorf("%d of %d listed table(s) missing, different, corrupt or failing verification%s", bad, listed, note))
	}
	if !asJSON || note != "" {
		// One line of summary: the reports above are per table.
		if note != "" {
			note += " (not an error)"
		}
		fmt.Fprintf(e.stderr, "all %d listed table(s) of %s present in %s, matching and verified%s\n", listed, manPath, dir, note)
	}
	return nil
}

// writeFolderText prints the text report of one file of the folder: its
// verify report, or one line for a file not verified (an unreadable one
// is already on stderr).
func writeFolderText(w io.Writer, fs manifest.FileStatus, out folderJSON, rep *verify.Report) error {
	var err error
	switch {
	case rep != nil:
		err = rep.WriteText(w)
	case fs.Status == manifest.Unreadable || out.Status == string(manifest.Unreadable):
	case fs.Status == manifest.Unlisted:
		_, err = fmt.Fprintf(w, "%s: unlisted: %s\n", regular.Name(fs.Path), fs.Reason) // a name from the folder: escaped
	default:
		_, err = fmt.Fprintf(w, "%s: %s: %s (listed on %s)\n", regular.Name(fs.Path), fs.Status, fs.Reason, out.Manifest)
	}
	return err
}
