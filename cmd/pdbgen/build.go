package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// job is one table to build: its pattern and output file name.
type job struct {
	pattern *puzzle.Pattern
	file    string
}

func runBuild(e *env, args []string) error {
	fs := newFlags(e, "build")
	workers := fs.Int("j", runtime.NumCPU(), "worker goroutines per BFS level (the output does not depend on it)")
	out := fs.String("o", "data", "output directory (created if missing)")
	quiet := fs.Bool("quiet", false, "no progress output")
	presets := fs.String("preset", "", "comma-separated preset names (see 'pdbgen presets'); default: "+strings.Join(builder.DefaultPresets(), ","))
	board := fs.String("board", "", "board size WxH for a custom pattern, 2x2 to 5x5")
	var tiles stringList
	fs.Var(&tiles, "tiles", "pattern tiles for --board, e.g. 1,2,3 or 1-8; repeat for a disjoint set; all tiles = the exact table")
	goal := fs.String("goal", puzzle.GoalBlankLast, "goal: blank-last, blank-first, or a board such as '1,2,3,4,5,6,7,8,0'")
	manifest := fs.String("manifest", "", "check every built table against this manifest (name, entries, max, raw SHA-256); a mismatch is written nowhere and exits 1")
	writeManifest := fs.String("write-manifest", "", "write a manifest of the built tables to this file")
	maxMem := fs.String("max-memory", "", "refuse tables needing more than this many bytes (e.g. 4G); default: available memory")
	fileFormat := fs.Int("format", format.MajorVersion, "file format version to write: 2 (Manhattan-delta encoding, smaller) or 1 (format 1.0, for readers that predate format 2)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("unexpected argument %q (flags only)", pos[0])
	}
	if *workers < 1 {
		return usageErr("-j must be at least 1")
	}
	if *fileFormat != format.MajorVersion && *fileFormat != format.MajorVersion1 {
		return usageErr("--format must be %d or %d", format.MajorVersion, format.MajorVersion1)
	}
	jobs, err := buildJobs(*presets, *board, tiles, *goal)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	limit, err := memoryLimit(*maxMem)
	if err != nil {
		return usageErr("%v", err)
	}
	for _, j := range jobs {
		if need := memoryNeed(j.pattern); limit > 0 && need > limit {
			what := "the " + humanBytes(limit) + " available (set --max-memory to override)"
			if *maxMem != "" {
				what = "the --max-memory limit of " + humanBytes(limit)
			}
			return usageErr("%s needs about %s of memory, more than %s", j.file, humanBytes(need), what)
		}
	}
	var want map[string]manifestEntry
	if *manifest != "" {
		if want, err = readManifest(*manifest); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var built []manifestEntry
	var mismatches int
	for _, j := range jobs {
		if !*quiet {
			fmt.Fprintf(e.stderr, "building %s: %s, %d entries, about %s of memory\n",
				j.file, j.pattern, j.pattern.Size(), humanBytes(memoryNeed(j.pattern)))
		}
		start := time.Now()
		prog := newProgress(e.stderr, j.file, e.stderrIsTTY, *quiet)
		values, err := builder.Build(ctx, j.pattern, builder.Options{Workers: *workers, Progress: prog.event})
		prog.done()
		if err != nil {
			return fmt.Errorf("%s: %w (nothing written)", j.file, err)
		}
		buildTime := time.Since(start)
		// The search's state array is garbage now; return it before the
		// encoder allocates, so the peak is the search, not search + file.
		// (Small tables skip it: it costs about 30 ms each.)
		if builder.MemoryEstimate(j.pattern) > 64<<20 {
			debug.FreeOSMemory()
		}
		t, err := format.NewTable(j.pattern, values, generator)
		if err != nil {
			return fmt.Errorf("%s: %w", j.file, err)
		}
		t.Header.Major = uint16(*fileFormat)
		me := manifestEntry{name: j.file, entries: t.Header.Entries, max: t.Header.MaxValue, sha: t.Header.RawSHA256}
		if want != nil {
			w, ok := want[j.file]
			switch {
			case !ok:
				fmt.Fprintf(e.stderr, "%s: not in manifest %s (not written)\n", j.file, *manifest)
				mismatches++
				continue
			case w != me:
				fmt.Fprintf(e.stderr, "%s: differs from manifest %s: got %d entries, max %d, sha256 %s; want %d, %d, %s (not written)\n",
					j.file, *manifest, me.entries, me.max, me.sha, w.entries, w.max, w.sha)
				mismatches++
				continue
			}
		}
		path := filepath.Join(*out, j.file)
		if err := format.WriteFile(path, t, *workers); err != nil {
			return err
		}
		built = append(built, me)
		st, _ := os.Stat(path)
		var size int64
		if st != nil {
			size = st.Size()
		}
		if !*quiet {
			fmt.Fprintf(e.stderr, "wrote %s: %d entries, max %d, %s on disk, built in %.2fs, total %.2fs\n",
				path, me.entries, me.max, humanBytes(uint64(size)), buildTime.Seconds(), time.Since(start).Seconds())
		}
		fmt.Fprintln(e.stdout, path)
	}
	if !*quiet {
		fmt.Fprintf(e.stderr, "peak RSS %s\n", humanBytes(peakRSS()))
	}
	if *writeManifest != "" {
		if err := writeManifestFile(*writeManifest, built); err != nil {
			return err
		}
	}
	if mismatches > 0 {
		return dataErr(fmt.Errorf("%d table(s) differ from the manifest", mismatches))
	}
	return nil
}

// memoryNeed is the peak memory a build of p is expected to take: the
// builder's arrays (builder.MemoryEstimate) times 1.25, the ratio of peak
// RSS to those arrays measured on the 15-78 preset (1000 MiB for 836 MiB:
// the arrays, then the table and its compressed frames, plus
// garbage-collector headroom), plus 32 MiB for the runtime.
func memoryNeed(p *puzzle.Pattern) uint64 {
	return builder.MemoryEstimate(p)*5/4 + 32<<20
}

// buildJobs resolves the preset or custom-pattern flags into tables.
func buildJobs(presets, board string, tiles []string, goal string) ([]job, error) {
	if board != "" || len(tiles) > 0 {
		if presets != "" {
			return nil, errors.New("use either --preset or --board/--tiles, not both")
		}
		if board == "" || len(tiles) == 0 {
			return nil, errors.New("--board and --tiles go together")
		}
		g, err := puzzle.ParseGeometry(board)
		if err != nil {
			return nil, err
		}
		gb, err := puzzle.ParseGoal(goal, g)
		if err != nil {
			return nil, err
		}
		var jobs []job
		var used uint32
		for _, ts := range tiles {
			list, err := puzzle.ParseTiles(ts)
			if err != nil {
				return nil, err
			}
			p, err := puzzle.NewPattern(g, gb, list)
			if err != nil {
				return nil, err
			}
			for _, t := range p.Tiles {
				if used&(1<<t) != 0 {
					return nil, fmt.Errorf("tile %d is in more than one --tiles set; the sets of one build must be disjoint", t)
				}
				used |= 1 << t
			}
			jobs = append(jobs, job{pattern: p, file: builder.FileName(g.String(), p)})
		}
		return jobs, nil
	}
	names := builder.DefaultPresets()
	if presets != "" {
		names = strings.Split(presets, ",")
	}
	var jobs []job
	seen := map[string]bool{}
	for _, name := range names {
		name = strings.TrimSpace(name)
		if seen[name] {
			continue
		}
		seen[name] = true
		pr, err := builder.FindPreset(name)
		if err != nil {
			return nil, err
		}
		ps, err := pr.Patterns(goal)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			jobs = append(jobs, job{pattern: p, file: builder.FileName(pr.Name, p)})
		}
	}
	return jobs, nil
}

// manifestEntry is one line of a manifest: file name, entries, maximum
// value and the SHA-256 of the raw table (which, unlike the compressed
// file, does not depend on the zstd library version).
type manifestEntry struct {
	name    string
	entries uint64
	max     int
	sha     string
}

// readManifest parses a manifest: '#' comments, then tab- or
// space-separated lines "name entries max sha256".
func readManifest(path string) (map[string]manifestEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	defer f.Close()
	out := map[string]manifestEntry{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Fields(s)
		if len(f) != 4 {
			return nil, dataErr(fmt.Errorf("manifest %s:%d: want 4 fields (name entries max sha256), got %d", path, line, len(f)))
		}
		n, err1 := strconv.ParseUint(f[1], 10, 64)
		m, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || len(f[3]) != 64 {
			return nil, dataErr(fmt.Errorf("manifest %s:%d: malformed line", path, line))
		}
		out[f[0]] = manifestEntry{name: f[0], entries: n, max: m, sha: f[3]}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return out, nil
}

func writeManifestFile(path string, entries []manifestEntry) error {
	var sb strings.Builder
	sb.WriteString("# tilepdb manifest: file\tentries\tmax value\tSHA-256 of the raw table (pdbgen info shows it as raw_sha256)\n")
	for _, m := range entries {
		fmt.Fprintf(&sb, "%s\t%d\t%d\t%s\n", m.name, m.entries, m.max, m.sha)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(sb.String()), 0o644); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("manifest: %w", err)
	}
	return nil
}

// memoryLimit is --max-memory, or the MemAvailable of /proc/meminfo (0 when
// unknown: no check).
func memoryLimit(flagValue string) (uint64, error) {
	if flagValue != "" {
		return parseBytes(flagValue)
	}
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, nil
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseUint(f[0], 10, 64)
				if err == nil {
					return kb * 1024, nil
				}
			}
		}
	}
	return 0, nil
}

// parseBytes parses "123", "512M", "4G" (powers of 1024).
func parseBytes(s string) (uint64, error) {
	mult := uint64(1)
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("--max-memory %q: want a size such as 512M or 4G", s)
	}
	return uint64(v * float64(mult)), nil
}

func humanBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// peakRSS is the process's peak resident set size (getrusage ru_maxrss,
// which Linux reports in KiB).
func peakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return uint64(ru.Maxrss) * 1024
}
