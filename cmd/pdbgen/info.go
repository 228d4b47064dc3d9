package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// infoCmd is "pdbgen info": its usage line, summary and help (the flags are
// defined where it parses them).
var infoCmd = &command{name: "info", usage: "[--json] FILE...", short: "print header and value histogram of table files, or what a set file lists",
	help: `Reads only each file's header (cheap). For a set file (format/SPEC.md sections
10 and 12) it prints what the set file lists (version, board, partitions,
parts and tables) once it passes the checks of pdbgen lookup that need
only its tables' headers (board, goal, tiles, raw_sha256, symmetries,
overlaps); otherwise it prints the one-line error lookup would give. The
tables' payloads are not read: pdbgen verify checks them.
Exit status: 0 success; 1 a corrupt header or set file, or a set file
that does not fit its tables' headers; 2 a missing or unreadable file
(also a table a set file names), or a write error on stdout.`,
	run: runInfo}

// infoJSON is the object `info --json` prints per file: the header plus
// the file name and size.
type infoJSON struct {
	File    string `json:"file"`
	Size    int64  `json:"file_size"`
	Version string `json:"format"` // file format version, "1.0" or "2.0"
	*format.Header
}

// runInfo prints each file's header (format.PlanSet, one open) as text or
// JSON, and for a set file what it lists (infoSetFile); a file that cannot
// be read, or a set file with a problem its tables' headers show, is
// reported in one line and the others printed. A write error on stdout
// ends the command.
func runInfo(e *env, args []string) error {
	fs := newFlags(e, "info")
	asJSON := fs.Bool("json", false, "print one JSON object per file (the header, plus file and file_size)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen info [--json] FILE...)")
	}
	out := &checkedWriter{w: e.stdout}
	code := 0 // worst exit status so far: 2 (trouble) outranks 1 (bad data)
	for _, f := range files {
		if err := infoFile(out, f, *asJSON); err != nil {
			fmt.Fprintf(e.stderr, "%v\n", err)
			code = max(code, exitCode(err))
		}
		if out.err != nil {
			return fmt.Errorf("writing output: %w", out.err)
		}
	}
	if code != 0 {
		return &exitError{code: code, err: errSilent}
	}
	return nil
}

// infoFile prints to w what info shows of the file f (a table's header, or
// what a set file lists) and returns the file's problem, if any (writes
// to w are checked by the caller).
func infoFile(w io.Writer, f string, asJSON bool) error {
	plan := format.PlanSet(f) // f opened once: a set file read, or a table's header
	h, sf, err := plan.File(0)
	if sf != nil || errors.Is(err, format.ErrSet) {
		return infoSetFile(w, f, plan, asJSON) // what it lists, from the set file and its tables' headers
	}
	if err != nil {
		return err
	}
	var size int64
	if st, err := os.Stat(f); err == nil {
		size = st.Size()
	}
	if asJSON {
		b, err := json.Marshal(infoJSON{File: f, Size: size, Version: h.Version(), Header: h})
		if err != nil {
			return err
		}
		fmt.Fprintln(w, string(b)) // a write error: the caller's checked writer has it
		return nil
	}
	writeInfoText(w, f, size, h)
	return nil
}

func writeInfoText(w io.Writer, file string, size int64, h *format.Header) {
	var compressed int64
	for _, f := range h.Frames {
		compressed += f
	}
	// The header's strings come from the file: printed escaped (%q) when
	// they hold control characters, so they cannot drive the terminal.
	q := regular.Name
	fmt.Fprintf(w, "%s\n", q(file))
	fmt.Fprintf(w, "  board      %dx%d, goal %s (%s)\n", h.Width, h.Height, q(h.GoalName), tileList(h.Goal))
	fmt.Fprintf(w, "  kind       %s, tiles %s\n", q(string(h.Kind)), tileList(h.Tiles))
	fmt.Fprintf(w, "  ranking    %s v%d\n", q(h.Ranking), h.RankingVersion)
	enc := "raw bytes"
	if h.Encoding != "" {
		enc = q(h.Encoding)
	}
	fmt.Fprintf(w, "  format     %s, encoding %s\n", h.Version(), enc)
	fmt.Fprintf(w, "  entries    %d x %d bits, max value %d\n", h.Entries, h.BitsPerEntry, h.MaxValue)
	var sum float64
	for v, c := range h.Histogram {
		sum += float64(v) * float64(c)
	}
	if h.Entries > 0 {
		fmt.Fprintf(w, "  mean       %.4f\n", sum/float64(h.Entries))
	}
	fmt.Fprintf(w, "  file       %s (%d frames of %d entries, payload %s, ratio %.1fx)\n",
		sysmem.FormatSize(uint64(size)), len(h.Frames), h.FrameSize, sysmem.FormatSize(uint64(compressed)),
		float64(h.Entries)/float64(max(compressed, 1)))
	fmt.Fprintf(w, "  raw sha256 %s\n", q(h.RawSHA256))
	fmt.Fprintf(w, "  generator  %s\n", q(h.Generator))
	fmt.Fprintf(w, "  histogram (value: count)\n")
	var peak uint64
	for _, c := range h.Histogram {
		peak = max(peak, c)
	}
	const width = 50
	for v, c := range h.Histogram {
		bar := 0
		if peak > 0 {
			bar = int((c*width + peak - 1) / peak)
		}
		fmt.Fprintf(w, "  %4d %12d %s\n", v, c, strings.Repeat("#", bar))
	}
}

// infoSetJSON is the object `info --json` prints for a set file.
type infoSetJSON struct {
	File       string   `json:"file"`
	Size       int64    `json:"file_size"`
	Set        bool     `json:"set"`         // always true: a set file, not a table
	Version    int      `json:"tilepdb_set"` // 1 (parts) or 2 (a catalogue of partitions)
	Width      int      `json:"width"`
	Height     int      `json:"height"`
	Goal       []int    `json:"goal"`
	Partitions []int    `json:"partitions,omitempty"` // a catalogue: the number of parts of each partition
	Parts      int      `json:"parts"`                // the parts listed (of all partitions)
	Tables     []string `json:"tables"`               // the table files named, each once, in order of first use
}

// infoSetFile prints to w what the set file at path lists (version, board
// and goal, each partition's parts and the tables), as text or one JSON
// object, after checking it as lookup and verify would, but with only
// its tables' headers read (format.SetPlan.CheckHeaders, on the plan of
// path alone: every problem but a corrupt table payload). A set file with a problem prints nothing and
// returns the problem: the first error lookup would give.
func infoSetFile(w io.Writer, path string, plan *format.SetPlan, asJSON bool) error {
	if err := plan.CheckHeaders(); err != nil {
		return err
	}
	_, sf, err := plan.File(0)
	if err != nil {
		return err
	}
	var size int64
	if st, err := os.Stat(path); err == nil {
		size = st.Size()
	}
	groups := [][]format.SetPart{sf.Parts}
	if sf.Version == format.CatalogueVersion {
		groups = sf.Partitions
	}
	r := infoSetJSON{File: path, Size: size, Set: true, Version: sf.Version, Width: sf.Width, Height: sf.Height, Goal: sf.Goal, Tables: []string{}}
	seen := map[string]bool{}
	for _, ps := range groups {
		if sf.Version == format.CatalogueVersion {
			r.Partitions = append(r.Partitions, len(ps))
		}
		r.Parts += len(ps)
		for _, p := range ps {
			if !seen[p.Table] {
				seen[p.Table] = true
				r.Tables = append(r.Tables, p.Table)
			}
		}
	}
	if asJSON {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, string(b)) // a write error: the caller's checked writer has it
		return nil
	}
	q := regular.Name // names from the file: escaped when they hold control characters
	what := "additive set"
	if sf.Version == format.CatalogueVersion {
		what = fmt.Sprintf("catalogue of %d partitions (the maximum of their sums)", len(groups))
	}
	fmt.Fprintf(w, "%s\n", regular.Name(path))
	fmt.Fprintf(w, "  set file   version %d, %s\n  parts      %d, through %d table files (their headers checked; pdbgen verify checks the tables whole)\n", sf.Version, what, r.Parts, len(r.Tables))
	goal := tileList(sf.Goal)
	if g, err := puzzle.NewGeometry(sf.Width, sf.Height); err == nil && len(sf.Goal) == g.N() {
		b := make(puzzle.Board, len(sf.Goal))
		for i, t := range sf.Goal {
			b[i] = uint8(t)
		}
		if b.Validate(g.N()) == nil {
			goal = puzzle.GoalName(g, b) + " (" + goal + ")"
		}
	}
	fmt.Fprintf(w, "  board      %dx%d, goal %s\n", sf.Width, sf.Height, goal)
	for i, ps := range groups {
		if sf.Version == format.CatalogueVersion {
			fmt.Fprintf(w, "  partition %d (%d parts)\n", i+1, len(ps))
		}
		for _, p := range ps {
			fmt.Fprintf(w, "    tiles %s through %s of table %s (tiles %s)\n", tileList(p.Tiles), q(p.Symmetry), q(p.Table), tileList(p.TableTiles))
		}
	}
	return nil
}
