package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver"
	"github.com/tilepdb/tilepdb/verify"
)

// readErr classifies an error opening or decoding a table: a file that is
// not there or cannot be read is trouble (2); one that is corrupt,
// truncated or of an unsupported version is bad data (1).
func readErr(err error) error {
	var uv *format.UnsupportedVersionError
	if errors.Is(err, format.ErrFormat) || errors.Is(err, format.ErrChecksum) || errors.As(err, &uv) {
		return dataErr(err)
	}
	return err
}

func runVerify(e *env, args []string) error {
	fs := newFlags(e, "verify")
	deep := fs.Bool("deep", false, "also rebuild each table with the simple reference BFS and compare every entry")
	workers := fs.Int("j", runtime.NumCPU(), "worker goroutines")
	maxFind := fs.Int("max-findings", verify.DefaultMaxFindings, "findings printed per check (all are counted)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen verify [--deep] FILE...)")
	}
	if *workers < 1 || *maxFind < 1 {
		return usageErr("-j and --max-findings must be at least 1")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bad, trouble := 0, 0
	for _, f := range files {
		rep, err := verify.File(ctx, f, verify.Options{Deep: *deep, Workers: *workers, MaxFindingsPerCheck: *maxFind})
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", f, err)
			trouble++
			continue
		}
		if err := rep.WriteText(e.stdout); err != nil {
			return err
		}
		if !rep.OK() {
			bad++
		}
	}
	switch {
	case trouble > 0:
		return &exitError{code: 2, err: fmt.Errorf("%d of %d file(s) could not be checked", trouble, len(files))}
	case bad > 0:
		return dataErr(fmt.Errorf("%d of %d file(s) failed verification", bad, len(files)))
	}
	return nil
}

// infoJSON is the object `info --json` prints per file: the header plus
// the file name and size.
type infoJSON struct {
	File    string `json:"file"`
	Size    int64  `json:"file_size"`
	Version string `json:"format"` // file format version, "1.0" or "2.0"
	*format.Header
}

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
			fmt.Fprintf(e.stderr, "%v\n", err)
			code = max(code, exitCodeOf(readErr(err)))
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

func exitCodeOf(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 2
}

func writeInfoText(w io.Writer, file string, size int64, h *format.Header) {
	var compressed int64
	for _, f := range h.Frames {
		compressed += f
	}
	fmt.Fprintf(w, "%s\n", file)
	fmt.Fprintf(w, "  board      %dx%d, goal %s (%s)\n", h.Width, h.Height, h.GoalName, intsString(h.Goal))
	fmt.Fprintf(w, "  kind       %s, tiles %s\n", h.Kind, intsString(h.Tiles))
	fmt.Fprintf(w, "  ranking    %s v%d\n", h.Ranking, h.RankingVersion)
	enc := "raw bytes"
	if h.Encoding != "" {
		enc = h.Encoding
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
		humanBytes(uint64(size)), len(h.Frames), h.FrameSize, humanBytes(uint64(compressed)),
		float64(h.Entries)/float64(max(compressed, 1)))
	fmt.Fprintf(w, "  raw sha256 %s\n", h.RawSHA256)
	fmt.Fprintf(w, "  generator  %s\n", h.Generator)
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

func intsString(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func runLookup(e *env, args []string) error {
	fs := newFlags(e, "lookup")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen lookup FILE... < boards)")
	}
	set, err := openSet(files)
	if err != nil {
		return err
	}
	n := set.Geom.N()
	sc := bufio.NewScanner(e.stdin)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	out := bufio.NewWriter(e.stdout)
	bad := 0
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		if len(s) > solver.MaxLineLen {
			out.Flush()
			fmt.Fprintf(e.stderr, "line %d: line longer than %d bytes\n", line, solver.MaxLineLen)
			bad++
			continue
		}
		b, err := puzzle.ParseBoard(s, n)
		var h int
		if err == nil {
			switch {
			case puzzle.Solvable(set.Geom, b, set.Goal):
				h, err = set.HeuristicBoard(b)
			case set.Tables[0].Pattern.Exact:
				err = fmt.Errorf("board is not solvable for goal %s; the exact table has no entry for it", puzzle.GoalName(set.Geom, set.Goal))
			default:
				// Additive tables hold every placement of their tiles, so
				// the sum is defined (HeuristicBoard refuses the board).
				h = set.Heuristic(b.Positions())
			}
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(e.stderr, "line %d: %v\n", line, err)
			bad++
			continue
		}
		if _, err := fmt.Fprintf(out, "%s\t%d\n", b, h); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	flushErr := out.Flush()
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading boards: %w", err)
	}
	if flushErr != nil {
		return fmt.Errorf("writing output: %w", flushErr)
	}
	if bad > 0 {
		return dataErr(fmt.Errorf("%d bad line(s)", bad))
	}
	return nil
}

// openSet reads the tables and checks that they form one heuristic.
func openSet(files []string) (*format.Set, error) {
	set, err := format.OpenSet(files...)
	if err != nil {
		return nil, readErr(err)
	}
	return set, nil
}

func runSolve(e *env, args []string) error {
	fs := newFlags(e, "solve")
	reflect := fs.Bool("reflect", false, "also look up the state reflected about the main diagonal and take the maximum")
	workers := fs.Int("j", runtime.NumCPU(), "boards solved in parallel (each search is single-threaded)")
	asJSON := fs.Bool("json", false, "one JSON object per board: board, length, moves, nodes, solvable")
	from := fs.String("from", "", "convention of the input boards when it differs from the tables' goal: blank-first")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen solve [flags] FILE... < boards)")
	}
	if *from != "" && *from != puzzle.GoalBlankFirst {
		return usageErr("--from: only %q is supported", puzzle.GoalBlankFirst)
	}
	if *workers < 1 {
		return usageErr("-j must be at least 1")
	}
	set, err := openSet(files)
	if err != nil {
		return err
	}
	s, err := solver.New(set, solver.Options{Reflect: *reflect, Workers: *workers, JSON: *asJSON, FromBlankFirst: *from != ""})
	if err != nil {
		return usageErr("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := solver.Run(ctx, s, e.stdin, e.stdout, e.stderr); err != nil {
		if errors.Is(err, solver.ErrBadInput) {
			return dataErr(err)
		}
		return err
	}
	return nil
}
