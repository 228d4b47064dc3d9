package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/internal/sysmem"
)

// infoCmd is "pdbgen info": its usage line, summary and help (the flags are
// defined where it parses them).
var infoCmd = &command{name: "info", usage: "[--json] FILE...", short: "print header and value histogram of table files",
	help: `Reads only each file's header (cheap). Exit status: 0 success; 1 a corrupt
header; 2 a missing or unreadable file, or a write error on stdout.`,
	run: runInfo}

// infoJSON is the object `info --json` prints per file: the header plus
// the file name and size.
type infoJSON struct {
	File    string `json:"file"`
	Size    int64  `json:"file_size"`
	Version string `json:"format"` // file format version, "1.0" or "2.0"
	*format.Header
}

// runInfo prints each file's header (format.ReadHeaderFile) as text or
// JSON; a file that cannot be read is reported and the others printed.
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
	code := 0 // worst exit status so far: 2 (trouble) outranks 1 (bad data)
	for _, f := range files {
		h, err := format.ReadHeaderFile(f)
		if err != nil {
			if set, _ := format.IsSetFile(f); set {
				// not corruption: the wrong kind of file for info
				fmt.Fprintf(e.stderr, "%s: a set file (format/SPEC.md section 10), not a table: info reads table headers (pdbgen verify checks a set file and its tables)\n", f)
				code = max(code, exitTrouble)
				continue
			}
			fmt.Fprintf(e.stderr, "%v\n", err)
			code = max(code, exitCode(err))
			continue
		}
		var size int64
		if st, err := os.Stat(f); err == nil {
			size = st.Size()
		}
		if *asJSON {
			b, err := json.Marshal(infoJSON{File: f, Size: size, Version: h.Version(), Header: h})
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, string(b))
			continue
		}
		writeInfoText(e.stdout, f, size, h)
	}
	if code != 0 {
		return &exitError{code: code, err: errSilent}
	}
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
	fmt.Fprintf(w, "  kind       %s, tiles %s\n", q(h.Kind), tileList(h.Tiles))
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
