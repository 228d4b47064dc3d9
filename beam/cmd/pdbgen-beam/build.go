package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/tilepdb/tilepdb/beam/shardbeam"
	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// version and generator must equal pdbgen's (cmd/pdbgen/version.go): the
// generator string is part of every file header, and the tables are
// byte-identical to pdbgen build's only with the same one
// (TestGeneratorMatchesPdbgen checks).
const (
	version   = "0.1.0"
	generator = "tilepdb pdbgen " + version
)

// buildConfig is the parsed command line of build.
type buildConfig struct {
	out, work      string
	presets, board string
	tiles          []string
	goal           string
	quiet          bool
	fileFormat     int
	shards, lanes  int
	stepWorkers    int
	pools          []string
	logLevel       string
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, " ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func parseBuildFlags(args []string, stderr io.Writer) (*buildConfig, error) {
	cfg := &buildConfig{}
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.out, "o", "data", "output directory (created if missing)")
	fs.StringVar(&cfg.presets, "preset", "", "comma-separated preset names (see 'pdbgen presets'); default: "+strings.Join(preset.Defaults(), ","))
	fs.StringVar(&cfg.board, "board", "", "board size WxH for a custom pattern, 2x2 to 5x5")
	fs.Var((*stringList)(&cfg.tiles), "tiles", "pattern tiles for --board, e.g. 1,2,3 or 1-8; repeat for a disjoint set")
	fs.StringVar(&cfg.goal, "goal", puzzle.GoalBlankLast, "goal: blank-last, blank-first, or a board such as '1,2,3,4,5,6,7,8,0'")
	fs.IntVar(&cfg.fileFormat, "format", format.MajorVersion, "file format version to write: 2 or 1 (as pdbgen build)")
	fs.BoolVar(&cfg.quiet, "quiet", false, "no progress output")
	fs.StringVar(&cfg.work, "work", "", "work folder for the shard data between levels: a local folder, gs://BUCKET/PATH or s3://BUCKET/PATH that every worker reaches (default: a new temporary local folder, removed at the end)")
	fs.IntVar(&cfg.shards, "shards", 0, "shards per table (0: automatic; the table does not depend on it)")
	fs.IntVar(&cfg.lanes, "lanes", runtime.NumCPU(), "independent branches per level pipeline: the shards a runner may run at the same time")
	fs.IntVar(&cfg.stepWorkers, "j", runtime.NumCPU(), "goroutines per shard step (the output does not depend on it)")
	var pools string
	fs.StringVar(&pools, "worker_pools", "", "comma-separated worker-pool addresses (pdbgen-beam worker-pool): each level runs one job per pool on the job server --endpoint, each job in an EXTERNAL environment on its pool (Prism runs one SDK worker per job and environment)")
	fs.StringVar(&cfg.logLevel, "beam_log_level", "warn", "level of Beam's and Prism's logs on stderr: debug, info, warn or error")
	beamFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q (flags only)", fs.Arg(0))
	}
	if cfg.fileFormat != format.MajorVersion && cfg.fileFormat != format.MajorVersion1 {
		return nil, usagef("--format must be %d or %d", format.MajorVersion, format.MajorVersion1)
	}
	if cfg.shards < 0 || cfg.shards > builder.MaxShards {
		return nil, usagef("--shards must be between 0 and %d, got %d", builder.MaxShards, cfg.shards)
	}
	if cfg.lanes < 1 || cfg.lanes > 4096 {
		return nil, usagef("--lanes must be between 1 and 4096, got %d", cfg.lanes)
	}
	if cfg.stepWorkers < 1 || cfg.stepWorkers > 1024 {
		return nil, usagef("-j must be between 1 and 1024, got %d", cfg.stepWorkers)
	}
	if pools != "" {
		for _, a := range strings.Split(pools, ",") {
			if a = strings.TrimSpace(a); a == "" {
				return nil, usagef("--worker_pools: empty address in %q", pools)
			}
			cfg.pools = append(cfg.pools, strings.TrimSpace(a))
		}
		if *jobopts.Endpoint == "" {
			return nil, usagef("--worker_pools needs --endpoint (the job server, e.g. pdbgen-beam job-server)")
		}
	}
	if err := setupBeamLogging(cfg.logLevel); err != nil {
		return nil, err
	}
	return cfg, nil
}

// resolveTables turns --preset or --board/--tiles/--goal into tables and
// set files as pdbgen build does (preset.Resolve), and refuses zero-aware
// tables: the shard kernel builds plain additive tables only (pdbgen build
// builds those).
func resolveTables(cfg *buildConfig) ([]preset.Table, []preset.Set, error) {
	tables, sets, err := preset.Resolve(cfg.presets, cfg.board, cfg.tiles, cfg.goal)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	for _, t := range tables {
		if t.Kind == format.KindZeroAware {
			return nil, nil, usagef("%s is a zero-aware table: pdbgen-beam builds plain tables only (pdbgen build builds it)", t.File)
		}
	}
	return tables, sets, nil
}

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseBuildFlags(args, stderr)
	if err != nil {
		return err
	}
	tables, sets, err := resolveTables(cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	// Beam's loopback mode leaves an empty temporary file per pipeline
	// (one per level): keep the SDK's temporaries in a folder of ours.
	sdkTmp, err := os.MkdirTemp("", "pdbgen-beam-sdk-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(sdkTmp)
	defer restoreEnv("TMPDIR")()
	os.Setenv("TMPDIR", sdkTmp)
	beam.Init()

	workRoot := cfg.work
	if workRoot == "" {
		if workRoot, err = os.MkdirTemp("", "pdbgen-beam-work-*"); err != nil {
			return err
		}
		defer os.RemoveAll(workRoot)
	}
	opt := shardbeam.Options{Shards: cfg.shards, Lanes: cfg.lanes, StepWorkers: cfg.stepWorkers}
	if !cfg.quiet {
		opt.Log = stderr
	}
	if len(cfg.pools) > 0 {
		if err := usePools(cfg, sdkTmp, &opt); err != nil {
			return err
		}
	}
	results, err := searchTables(ctx, cfg, tables, workRoot, opt, stderr)
	if err != nil {
		return err
	}
	defer func() {
		for _, r := range results {
			r.Close()
		}
	}()
	sha := map[string]string{}
	next := 0 // the result of the next additive table
	for _, pt := range tables {
		path := filepath.Join(cfg.out, pt.File)
		var raw string
		if pt.Pattern.Exact {
			raw, err = buildExact(ctx, cfg, pt, path, stderr)
		} else {
			raw, err = writeSearched(cfg, pt, results[next], path, stderr)
			results[next].Close() // its work folder is no longer needed
			next++
		}
		if err != nil {
			return err
		}
		sha[pt.File] = raw
		fmt.Fprintln(stdout, path)
	}
	for _, ps := range sets {
		if err := writeSetFile(cfg, ps, sha); err != nil {
			return err
		}
		fmt.Fprintln(stdout, filepath.Join(cfg.out, ps.File))
	}
	return nil
}

// usePools checks that the job server and every worker pool answer and
// sets opt to run each level's job j on pool j (runOnPool).
func usePools(cfg *buildConfig, sdkTmp string, opt *shardbeam.Options) error {
	for i, a := range append([]string{*jobopts.Endpoint}, cfg.pools...) {
		c, err := net.DialTimeout("tcp", a, 10*time.Second)
		if err != nil {
			what := "worker pool"
			if i == 0 {
				what = "job server (--endpoint)"
			}
			return usagef("%s %s: %v", what, a, err)
		}
		c.Close()
	}
	placeholder := filepath.Join(sdkTmp, "worker-placeholder")
	if err := os.WriteFile(placeholder, []byte("pdbgen-beam: the worker pools run the harness in-process\n"), 0o644); err != nil {
		return err
	}
	opt.Jobs = len(cfg.pools)
	opt.Run = func(ctx context.Context, job int, p *beam.Pipeline) error {
		return runOnPool(ctx, p, *jobopts.Endpoint, cfg.pools[job], placeholder)
	}
	return nil
}

// searchTables runs the searches of the additive tables together on
// Apache Beam, level L of each in the same pipelines (shardbeam.BuildSet),
// each in its work folder under workRoot; it returns their results in
// table order (none when every table is exact), for the caller to close.
func searchTables(ctx context.Context, cfg *buildConfig, tables []preset.Table, workRoot string, opt shardbeam.Options, stderr io.Writer) ([]*shardbeam.Result, error) {
	var set []shardbeam.Table
	for _, pt := range tables {
		if !pt.Pattern.Exact {
			set = append(set, shardbeam.Table{Pattern: pt.Pattern, Shards: cfg.shards,
				Work: strings.TrimRight(workRoot, "/") + "/" + strings.TrimSuffix(pt.File, preset.FileSuffix)})
		}
	}
	if len(set) == 0 {
		return nil, nil
	}
	start := time.Now()
	if !cfg.quiet {
		for _, t := range set {
			fmt.Fprintf(stderr, "searching %s on Apache Beam: %d entries, work folder %s\n", t.Pattern, t.Pattern.Size(), t.Work)
		}
	}
	results, srep, err := shardbeam.BuildSet(ctx, set, opt)
	if err != nil {
		return nil, &failedError{fmt.Errorf("%w (nothing written)", err)}
	}
	if !cfg.quiet {
		var busy float64
		for _, l := range srep.Levels {
			busy += l.ReadSec + l.StepSec + l.WriteSec
		}
		fmt.Fprintf(stderr, "searched %d table(s): %d levels (the tables' level L in the same pipelines), %d lanes, %d job(s) per level, worker processes %v; %.2fs: shard steps %.2fs, Beam overhead %.2fs (%.3fs per level)\n",
			len(set), len(srep.Levels), srep.Lanes, srep.Jobs, srep.Processes, time.Since(start).Seconds(), busy, srep.Overhead().Seconds(), srep.Overhead().Seconds()/float64(len(srep.Levels)))
	}
	return results, nil
}

// buildExact builds an exact table (at most 4x3's 239,500,800 entries;
// the shard kernel does not split those) with builder.Build in this
// process and writes it to path; it returns the table's raw SHA-256 (for
// a set file).
func buildExact(ctx context.Context, cfg *buildConfig, pt preset.Table, path string, stderr io.Writer) (string, error) {
	start := time.Now()
	failed := func(err error) error { return &failedError{fmt.Errorf("%s: %w (nothing written)", pt.File, err)} }
	if !cfg.quiet {
		fmt.Fprintf(stderr, "building %s: %s, %d entries, exact: in this process (the shard kernel splits additive patterns only)\n", pt.File, pt.Pattern, pt.Pattern.Size())
	}
	values, err := builder.Build(ctx, pt.Pattern, builder.Options{Workers: cfg.stepWorkers})
	if err != nil {
		return "", failed(err)
	}
	t, err := format.NewTable(pt.Pattern, values, generator)
	if err != nil {
		return "", failed(err)
	}
	t.Header.Major = uint16(cfg.fileFormat)
	if err := format.WriteFile(path, t, cfg.stepWorkers); err != nil {
		return "", err
	}
	if !cfg.quiet {
		fmt.Fprintf(stderr, "wrote %s: %d entries, max %d, in %.2fs\n", path, t.Header.Entries, t.Header.MaxValue, time.Since(start).Seconds())
	}
	return t.Header.RawSHA256, nil
}

// writeSearched writes the table whose search on Beam res holds to path,
// encoded from the shards' values one shard at a time
// (format.EncodeStream: the table is never whole in memory); it returns
// the table's raw SHA-256 (for a set file).
func writeSearched(cfg *buildConfig, pt preset.Table, res *shardbeam.Result, path string, stderr io.Writer) (string, error) {
	start := time.Now()
	failed := func(err error) error { return &failedError{fmt.Errorf("%s: %w (nothing written)", pt.File, err)} }
	st, err := format.EncodeStream(pt.Pattern, res.Source, format.StreamOptions{
		Major: uint16(cfg.fileFormat), Workers: cfg.stepWorkers, Generator: generator, TempDir: cfg.out})
	if err != nil {
		return "", failed(err)
	}
	defer st.Close()
	if err := st.WriteFile(path); err != nil {
		return "", err
	}
	if !cfg.quiet {
		rep := res.Report
		var busy float64
		var batches, maxBatches, maxState, logs uint64
		for _, l := range rep.Levels {
			busy += l.ReadSec + l.StepSec + l.WriteSec
			batches += l.BytesOut
			maxBatches = max(maxBatches, l.BytesOut)
			maxState = max(maxState, l.StateOut)
			logs += l.LogBytes
		}
		const mib = 1 << 20
		fmt.Fprintf(stderr, "%s: work folder traffic: shard states %.1f MiB written and read per level, batches %.1f MiB in all (at most %.1f MiB at a level), value logs %.1f MiB\n",
			pt.File, float64(maxState)/mib, float64(batches)/mib, float64(maxBatches)/mib, float64(logs)/mib)
		fmt.Fprintf(stderr, "%s: %d levels, %d shards, worker processes %v; shard steps %.2fs; values and encoding %.2fs (value logs %.2fs)\n",
			pt.File, len(rep.Levels), rep.Shards, rep.Processes, busy, time.Since(start).Seconds(), rep.ValuesSec)
		fmt.Fprintf(stderr, "wrote %s: %d entries, max %d\n", path, st.Header.Entries, st.Header.MaxValue)
	}
	return st.Header.RawSHA256, nil
}

// writeSetFile writes the set file of a preset whose parts share tables,
// as pdbgen build does.
func writeSetFile(cfg *buildConfig, ps preset.Set, sha map[string]string) error {
	sf, err := ps.SetFile(sha)
	if err != nil {
		return err
	}
	return format.WriteSetFile(filepath.Join(cfg.out, ps.File), sf)
}

// restoreEnv returns a function that gives the environment variable name
// back the value it has now.
func restoreEnv(name string) func() {
	old, had := os.LookupEnv(name)
	return func() {
		if had {
			os.Setenv(name, old)
		} else {
			os.Unsetenv(name)
		}
	}
}
