// Package shardbeam builds tilepdb pattern databases on Apache Beam: the
// builder's shard kernel (builder.ShardPlan) run as one Beam pipeline per
// BFS level, with the shards' data between levels in a work folder on any
// file system Beam reaches (a local folder, gs://, s3://). BuildSet runs
// the searches of several tables in the same pipelines: level L of every
// table that is still searching is one pipeline, so a set costs as many
// pipelines as its deepest table has levels.
//
// A level's pipeline has one element per shard (a Task), never one per
// state: per-element overhead is microseconds, a shard's Step is
// milliseconds to minutes. The elements are spread over independent
// branches ("lanes", each a Create followed by the step ParDo), because a
// runner may run one branch's elements one after the other (Prism puts
// all pending elements of a stage into one bundle) but runs separate
// branches at the same time. The step ParDo reads shard s's state and the
// batches other shards sent it, runs builder.ShardPlan.Step, and writes
// the new state, the outgoing batches, the value log and a stats record
// under names that depend only on table, level and shard (idempotent: a
// retried bundle rewrites the same bytes). The driver reads the stats
// records of the level, gives the next level only the shards that have
// states pending or batches coming, and ends a table's search when no
// state of its next level exists anywhere; it then turns the value logs
// into the table's values, shard by shard (Result.Source, a
// format.ValueSource for format.EncodeStream).
package shardbeam

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Options configure Build and BuildSet. The zero value runs on the
// runner beamx.Run selects (--runner; Prism in-process by default) with
// an automatic shard count.
type Options struct {
	// Work is the work folder of Build's table: a local path, gs://... or
	// s3://...; every worker must reach it. Build writes its files there;
	// Result.Close removes them (and an empty local folder). BuildSet
	// takes each table's from its Table.
	Work string
	// Shards is Build's shard count, 1..builder.MaxShards; 0 picks
	// AutoShards. The table does not depend on it. BuildSet takes each
	// table's from its Table.
	Shards int
	// Lanes is the number of independent branches per level pipeline
	// (the shards of all tables are dealt over them, the biggest
	// expected Step first to the least loaded lane); 0 means
	// runtime.NumCPU().
	Lanes int
	// StepWorkers is the goroutines one Step uses; 0 means
	// runtime.NumCPU().
	StepWorkers int
	// Jobs is the number of pipelines per level, run at the same time,
	// each with its share of the lanes (0 or 1: one). Run gets the job's
	// number: a driver can send each job to another worker pool.
	Jobs int
	// Run runs one pipeline; nil means beamx.Run.
	Run func(ctx context.Context, job int, p *beam.Pipeline) error
	// Log gets one line per table and level (nil: none).
	Log io.Writer
}

// Table is one table of BuildSet: an additive pattern, its work folder
// (as Options.Work; one folder per table) and its shard count (as
// Options.Shards).
type Table struct {
	Pattern *puzzle.Pattern
	Work    string
	Shards  int
}

// LevelReport is what one level cost.
type LevelReport struct {
	Level    int
	Shards   int           // the shards that ran a Step (the others had nothing to do)
	Wall     time.Duration // the level's pipelines, submission to completion
	ReadSec  float64       // summed over shards: reading inputs
	StepSec  float64       // summed over shards: the kernel's Step
	WriteSec float64       // summed over shards: writing outputs
	LaneSec  float64       // the busiest lane's read+step+write
	Frontier uint64        // states expanded
	BytesOut uint64        // batch bytes exchanged
	StateOut uint64        // state bytes written
	LogBytes uint64        // value-log bytes written
}

// Report is what a Build did, or one table's part of a BuildSet: there,
// a level's Wall and LaneSec are those of the level's pipelines, which
// ran the Steps of the set's other tables too (SetReport has the sums).
type Report struct {
	Shards, Lanes, Jobs int
	Levels              []LevelReport
	Processes           []int   // the distinct worker process ids that ran a Step
	ValuesSec           float64 // decoding the value logs (Result.Source)
}

// Overhead is the pipelines' wall time beyond the busiest lane's work,
// summed over levels: what Beam (submission, scheduling, bundle set-up)
// adds to the critical path.
func (r *Report) Overhead() time.Duration { return overhead(r.Levels) }

func overhead(levels []LevelReport) time.Duration {
	var d time.Duration
	for _, l := range levels {
		if o := l.Wall - time.Duration(l.LaneSec*float64(time.Second)); o > 0 {
			d += o
		}
	}
	return d
}

// SetReport is what the pipelines of a BuildSet cost, all its tables
// together: one LevelReport per level (the sums over tables; Shards
// counts the Steps of all tables).
type SetReport struct {
	Lanes, Jobs int
	Levels      []LevelReport
	Processes   []int // the distinct worker process ids that ran a Step
}

// Overhead is as Report.Overhead, for the set's pipelines.
func (r *SetReport) Overhead() time.Duration { return overhead(r.Levels) }

// AutoShards is the shard count Build picks for p: one to four per lane
// (one per 2^22 table entries and lane: a small table pays a Step's fixed
// costs per shard and level, a big one needs several shards per lane to
// keep the lanes balanced as the frontier moves), more when a shard would
// exceed 2^24 table entries (a few MiB to tens of MiB of state and
// batches per element); at most k! (the blocks).
func AutoShards(p *puzzle.Pattern, lanes int) int {
	perLane := min(max((p.Size()+1<<22-1)>>22, 1), 4)
	n := lanes * int(perLane)
	if m := int((p.Size() + 1<<24 - 1) >> 24); m > n {
		n = m
	}
	if b := puzzle.Factorial(len(p.Tiles)); b > 0 && uint64(n) > b {
		n = int(b)
	}
	return max(n, 1)
}

// AutoSetShards is the shard counts BuildSet picks for the tables ps
// searched together: each table gets its share of the lanes, in
// proportion to its entries (at least one lane; all of them for a table
// alone), and AutoShards for that share. The other tables' Steps fill the
// other lanes, and a shard costs a Step's fixed costs at every level
// (its files, a batch file to every other shard), so a small table of a
// set gets one shard: the default set's 15-puzzle 5-tile tables one each
// instead of two, its 6-tile tables two instead of four.
func AutoSetShards(ps []*puzzle.Pattern, lanes int) []int {
	var total float64
	for _, p := range ps {
		total += float64(p.Size())
	}
	out := make([]int, len(ps))
	for i, p := range ps {
		share := max(1, int(math.Round(float64(lanes)*float64(p.Size())/total)))
		out[i] = AutoShards(p, share)
	}
	return out
}

// Build runs the search of the additive pattern p on Apache Beam and returns
// the finished search: its Result gives the values (index = the
// pattern's rank, byte for byte as builder.Build returns them) one shard
// at a time. It fails for an exact pattern (build those with
// builder.Build), on a work folder holding another table's shards, and on
// any pipeline error; the work folder keeps the files of a failed build.
func Build(ctx context.Context, p *puzzle.Pattern, opt Options) (*Result, error) {
	rs, _, err := BuildSet(ctx, []Table{{Pattern: p, Work: opt.Work, Shards: opt.Shards}}, opt)
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// BuildSet runs the searches of several tables as Build does, level by
// level in the same pipelines: level L's pipeline runs the Steps of every
// table that has not finished by level L, so the set costs as many
// pipelines as its deepest table has levels instead of the sum (a
// pipeline costs a runner tens of milliseconds of CPU whatever it runs).
// It returns one Result per table, in order, and what the pipelines cost.
// The tables do not depend on which others share their pipelines. Each
// table needs its own work folder; a Table's Shards of 0 picks
// AutoSetShards. On an error no Result is returned and the work folders
// keep their files.
func BuildSet(ctx context.Context, tables []Table, opt Options) ([]*Result, *SetReport, error) {
	if len(tables) == 0 {
		return nil, nil, errors.New("shardbeam: no table to build")
	}
	opt = opt.withDefaults()
	searches := make([]*search, len(tables))
	defer func() {
		for _, sr := range searches {
			if sr != nil && sr.wf != nil {
				sr.wf.Close()
			}
		}
	}()
	specs, err := startSearches(ctx, tables, opt, searches)
	if err != nil {
		return nil, nil, err
	}
	srep := &SetReport{Lanes: opt.Lanes, Jobs: opt.Jobs}
	procs := map[int]bool{}
	for level := 0; ; level++ {
		sum, done, err := runSetLevel(ctx, opt, searches, specs, level, procs)
		if err != nil {
			return nil, nil, err
		}
		if done {
			break
		}
		srep.Levels = append(srep.Levels, sum)
	}
	srep.Processes = sortedPIDs(procs)
	for _, sr := range searches {
		if total := sr.pl.States(); sr.expanded != total {
			return nil, nil, fmt.Errorf("shardbeam: %s: %d of %d abstract states expanded", sr.p, sr.expanded, total)
		}
		sr.rep.Processes = sortedPIDs(sr.procs)
	}
	results := make([]*Result, len(searches))
	for i, sr := range searches {
		results[i] = &Result{Report: sr.rep, pl: sr.pl, wf: sr.wf, logLevels: sr.logLevels, lastLevel: sr.lastLevel, cur: -1}
		sr.wf = nil // the Result owns it now
	}
	return results, srep, nil
}

// withDefaults is opt with its zero fields filled in: Lanes and
// StepWorkers runtime.NumCPU() (Lanes at least Jobs), Jobs 1, Run
// beamx.Run.
func (opt Options) withDefaults() Options {
	if opt.Lanes <= 0 {
		opt.Lanes = runtime.NumCPU()
	}
	if opt.Jobs <= 0 {
		opt.Jobs = 1
	}
	opt.Lanes = max(opt.Lanes, opt.Jobs)
	if opt.StepWorkers <= 0 {
		opt.StepWorkers = runtime.NumCPU()
	}
	if opt.Run == nil {
		opt.Run = func(ctx context.Context, _ int, p *beam.Pipeline) error { return beamx.Run(ctx, p) }
	}
	return opt
}

// startSearches claims every table's work folder (no two tables may
// share one) and fills searches, one per table (a Table's Shards of 0
// picks AutoSetShards); it returns the tables' specs for the pipelines.
// On an error the searches started so far are in searches, to be closed.
func startSearches(ctx context.Context, tables []Table, opt Options, searches []*search) ([]TableSpec, error) {
	var ps []*puzzle.Pattern
	works := map[string]bool{}
	for _, t := range tables {
		ps = append(ps, t.Pattern)
		w := strings.TrimRight(t.Work, "/")
		if works[w] {
			return nil, fmt.Errorf("shardbeam: %s: work folder %s is another table's too", t.Pattern, w)
		}
		works[w] = true
	}
	auto := AutoSetShards(ps, opt.Lanes)
	specs := make([]TableSpec, len(tables))
	for i, t := range tables {
		if t.Shards == 0 {
			t.Shards = auto[i]
		}
		sr, err := newSearch(ctx, t, opt)
		if err != nil {
			return nil, err
		}
		searches[i] = sr
		specs[i] = TableSpec{Work: sr.work, Spec: sr.spec}
	}
	return specs, nil
}

// runSetLevel runs level of every search not yet finished in the same
// pipelines, collects the Steps' records (their worker processes into
// procs) and closes the level of each search; it returns the level's
// sums over the set, or done when no search had a Step left.
func runSetLevel(ctx context.Context, opt Options, searches []*search, specs []TableSpec, level int, procs map[int]bool) (sum LevelReport, done bool, err error) {
	var tasks []Task
	var est []uint64
	for i, sr := range searches {
		if sr.finished {
			continue
		}
		if level > builder.MaxLevel {
			return sum, false, fmt.Errorf("shardbeam: %s: the search did not end by level %d", sr.p, builder.MaxLevel)
		}
		for _, t := range sr.tasks() {
			t.Table = i
			tasks = append(tasks, t)
			est = append(est, sr.estimate(t))
		}
	}
	if len(tasks) == 0 {
		return sum, true, nil
	}
	lanes := dealLanes(est, opt.Lanes)
	t0 := time.Now()
	if err := runLevel(ctx, opt, specs, level, tasks, lanes); err != nil {
		return sum, false, fmt.Errorf("shardbeam: level %d: %w", level, err)
	}
	wall := time.Since(t0)
	laneSec := make([]float64, opt.Lanes)
	reps := make([]LevelReport, len(searches))
	for i, t := range tasks {
		rec, err := searches[t.Table].collect(ctx, level, t)
		if err != nil {
			return sum, false, err
		}
		procs[rec.PID] = true
		laneSec[lanes[i]] += rec.ReadSec + rec.StepSec + rec.WriteSec
		addRecord(&reps[t.Table], rec)
	}
	sum = LevelReport{Level: level, Wall: wall, Shards: len(tasks), LaneSec: slices.Max(laneSec)}
	for i, sr := range searches {
		if sr.finished {
			continue
		}
		lr := reps[i]
		lr.Level, lr.Wall, lr.LaneSec = level, wall, sum.LaneSec
		sr.endLevel(lr, opt.Log)
		sum.addWork(lr)
	}
	return sum, false, nil
}

// sortedPIDs lists the process ids of procs in increasing order.
func sortedPIDs(procs map[int]bool) []int {
	var out []int
	for pid := range procs {
		out = append(out, pid)
	}
	sort.Ints(out)
	return out
}

// search is the driver's view of one table's search: what each shard's
// next Step reads.
type search struct {
	p     *puzzle.Pattern
	spec  Spec
	pl    *builder.ShardPlan
	wf    *workFolder
	work  string
	level int // the level the next tasks run

	senders    [][]int  // who sent shard s a batch at the level before
	stateLevel []int    // the level whose Step wrote shard s's state (-1: Init)
	pending    []bool   // shard s's state holds states of the next level
	incoming   []uint64 // the states sent to shard s at the level before (an estimate: sums of senders' Sent per receiver)
	marked     []uint64 // shard s's own next-level states
	logLevels  [][]int  // the levels at which shard s wrote a value log
	procs      map[int]bool
	expanded   uint64
	recs       []*stepRecord // the records of the level being collected
	finished   bool
	lastLevel  int
	rep        *Report
}

func newSearch(ctx context.Context, t Table, opt Options) (*search, error) {
	p := t.Pattern
	if p.Exact {
		return nil, fmt.Errorf("shardbeam: %s is an exact table: build it with builder.Build", p)
	}
	shards := t.Shards
	spec := specOf(p, shards)
	pl, err := planFor(spec, opt.StepWorkers)
	if err != nil {
		return nil, err
	}
	wf, err := openWork(ctx, t.Work)
	if err != nil {
		return nil, err
	}
	if err := claimWork(ctx, wf, pl.Fingerprint()); err != nil {
		wf.Close()
		return nil, err
	}
	sr := &search{
		p: p, spec: spec, pl: pl, wf: wf, work: t.Work,
		senders:    make([][]int, shards),
		stateLevel: make([]int, shards),
		pending:    make([]bool, shards),
		incoming:   make([]uint64, shards),
		marked:     make([]uint64, shards),
		logLevels:  make([][]int, shards),
		procs:      map[int]bool{},
		rep:        &Report{Shards: shards, Lanes: opt.Lanes, Jobs: opt.Jobs},
	}
	for s := range shards {
		sr.stateLevel[s], sr.pending[s] = -1, true // Init's pending state is unknown here: run every shard at level 0
	}
	return sr, nil
}

// tasks are the Steps of the search's next level: a shard with nothing
// pending and no batch coming sits the level out (its state serves any
// later level: builder.ShardPlan.Step).
func (sr *search) tasks() []Task {
	var tasks []Task
	for s := range sr.pl.Shards() {
		if sr.pending[s] || len(sr.senders[s]) > 0 {
			tasks = append(tasks, Task{Shard: s, StateLevel: sr.stateLevel[s], Senders: sr.senders[s]})
		}
	}
	return tasks
}

// estimate is a Step's expected cost, to deal the Steps over lanes: the
// states it will merge and expand, and a fixed cost (at level 0, the
// shard's size).
func (sr *search) estimate(t Task) uint64 {
	const fixed = 1 << 12
	if sr.level == 0 {
		lo, hi := sr.pl.EntryRange(t.Shard)
		return fixed + (hi-lo)>>4
	}
	return fixed + sr.marked[t.Shard] + sr.incoming[t.Shard]
}

// collect reads the record of task t's Step at level and removes the
// inputs that Step consumed.
func (sr *search) collect(ctx context.Context, level int, t Task) (*stepRecord, error) {
	s, wf := t.Shard, sr.wf
	js, err := wf.read(ctx, statsName(level, s))
	if err != nil {
		return nil, fmt.Errorf("shardbeam: %s: level %d finished without shard %d's record: %w", sr.p, level, s, err)
	}
	var rec stepRecord
	if err := json.Unmarshal(js, &rec); err != nil {
		return nil, fmt.Errorf("shardbeam: %s: %w", wf.path(statsName(level, s)), err)
	}
	st := rec.Stats
	if st.Shard != s || st.Level != level {
		return nil, fmt.Errorf("shardbeam: %s: record of shard %d level %d, want shard %d level %d", wf.path(statsName(level, s)), st.Shard, st.Level, s, level)
	}
	if rec.ValueLog {
		sr.logLevels[s] = append(sr.logLevels[s], level)
	}
	// The inputs this Step consumed are no longer needed.
	if t.StateLevel >= 0 {
		wf.remove(ctx, wf.path(stateName(t.StateLevel, s)))
	}
	for _, from := range t.Senders {
		wf.remove(ctx, wf.path(batchName(level-1, s, from)))
	}
	wf.remove(ctx, wf.path(statsName(level, s)))
	sr.stateLevel[s], sr.pending[s], sr.marked[s] = level, st.Marked > 0, st.Marked
	sr.procs[rec.PID] = true
	sr.recs = append(sr.recs, &rec)
	return &rec, nil
}

// addRecord adds a Step's counts and times to lr.
func addRecord(lr *LevelReport, rec *stepRecord) {
	st := rec.Stats
	lr.Shards++
	lr.addWork(LevelReport{ReadSec: rec.ReadSec, StepSec: rec.StepSec, WriteSec: rec.WriteSec,
		Frontier: st.Frontier, BytesOut: st.BytesOut, StateOut: st.StateBytes, LogBytes: st.ValueLogBytes})
}

// addWork adds o's times and counts summed over shards (ReadSec, StepSec,
// WriteSec, Frontier, BytesOut, StateOut, LogBytes) to lr.
func (lr *LevelReport) addWork(o LevelReport) {
	lr.ReadSec += o.ReadSec
	lr.StepSec += o.StepSec
	lr.WriteSec += o.WriteSec
	lr.Frontier += o.Frontier
	lr.BytesOut += o.BytesOut
	lr.StateOut += o.StateOut
	lr.LogBytes += o.LogBytes
}

// endLevel closes the level whose records collect read: the senders of
// the next level, its report and log line, and whether the search ended
// (no state marked or sent anywhere).
func (sr *search) endLevel(lr LevelReport, log io.Writer) {
	S := sr.pl.Shards()
	next := make([][]int, S)
	clear(sr.incoming)
	var more uint64
	for _, rec := range sr.recs {
		st := rec.Stats
		more += st.Marked + st.Sent
		for _, to := range rec.SentTo {
			next[to] = append(next[to], st.Shard)
			sr.incoming[to] += st.Sent / uint64(len(rec.SentTo))
		}
	}
	for s := range next {
		slices.Sort(next[s]) // the records came in task order; keep the senders in shard order
	}
	sr.recs = sr.recs[:0]
	sr.senders = next
	sr.expanded += lr.Frontier
	sr.rep.Levels = append(sr.rep.Levels, lr)
	if log != nil {
		fmt.Fprintf(log, "%s: level %d: %d of %d shards ran, %d states expanded (%d of %d), %d batch bytes, %.2fs (shards busy %.2fs, busiest lane %.2fs)\n",
			sr.p, sr.level, lr.Shards, S, lr.Frontier, sr.expanded, sr.pl.States(), lr.BytesOut, lr.Wall.Seconds(), lr.ReadSec+lr.StepSec+lr.WriteSec, lr.LaneSec)
	}
	sr.lastLevel = sr.level
	sr.level++
	if more == 0 {
		sr.finished = true
	}
}

// dealLanes gives each task (est: its expected cost) a lane: the most
// costly first, each to the lane with the least expected work so far
// (ties: the lowest lane). The tables do not depend on it.
func dealLanes(est []uint64, lanes int) []int {
	order := make([]int, len(est))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(est[b], est[a]) })
	load := make([]uint64, lanes)
	lane := make([]int, len(est))
	for _, i := range order {
		l := 0
		for j := range load {
			if load[j] < load[l] {
				l = j
			}
		}
		lane[i] = l
		load[l] += est[i]
	}
	return lane
}

// Result is a finished Build: its report, and the table's values, read
// back from the value logs in the work folder one shard at a time. Close
// it to remove the work folder's files.
type Result struct {
	Report *Report

	pl        *builder.ShardPlan
	wf        *workFolder
	logLevels [][]int // the levels at which each shard wrote a value log
	lastLevel int
	cur       int     // the shard whose values curVals holds (-1: none)
	curLo     uint64  // its first entry
	curVals   []uint8 // its values
}

// Source fills dst with the values of the entries lo, lo+1, ...,
// lo+len(dst)-1 (a format.ValueSource): it reads and decodes the value
// logs of the shards the range touches, keeping one shard's values in
// memory. Any order of calls works; increasing ranges read each shard
// once.
func (r *Result) Source(lo uint64, dst []uint8) error {
	ctx := context.Background()
	for len(dst) > 0 {
		if r.cur < 0 || lo < r.curLo || lo >= r.curLo+uint64(len(r.curVals)) {
			s := sort.Search(r.pl.Shards(), func(i int) bool { _, hi := r.pl.EntryRange(i); return hi > lo })
			if s == r.pl.Shards() {
				return fmt.Errorf("shardbeam: entry %d is past the table's %d", lo, r.pl.Pattern().Size())
			}
			t0 := time.Now()
			logs := make([][]byte, 0, len(r.logLevels[s]))
			for _, l := range r.logLevels[s] {
				b, err := r.wf.read(ctx, vlogName(l, s))
				if err != nil {
					return err
				}
				logs = append(logs, b)
			}
			v, err := r.pl.Values(s, logs)
			if err != nil {
				return fmt.Errorf("shardbeam: %s: %w", r.pl.Pattern(), err)
			}
			r.cur, r.curVals = s, v
			r.curLo, _ = r.pl.EntryRange(s)
			r.Report.ValuesSec += time.Since(t0).Seconds()
		}
		n := copy(dst, r.curVals[lo-r.curLo:])
		dst, lo = dst[n:], lo+uint64(n)
	}
	return nil
}

// Values returns the whole table (index = the pattern's rank), as
// builder.Build does.
func (r *Result) Values() ([]uint8, error) {
	v := make([]uint8, r.pl.Pattern().Size())
	if err := r.Source(0, v); err != nil {
		return nil, err
	}
	return v, nil
}

// Close removes the build's files from the work folder, and a local
// work folder itself once it is empty.
func (r *Result) Close() error {
	if r.wf == nil {
		return nil
	}
	ctx := context.Background()
	var err error
	for l := 0; l <= r.lastLevel; l++ {
		err = errors.Join(err, r.wf.removeLevel(ctx, l))
	}
	r.wf.remove(ctx, r.wf.path(fingerprintName))
	if !strings.Contains(r.wf.root, "://") {
		r.wf.remove(ctx, r.wf.root) // a local folder, once empty (object stores have no folders)
	}
	err = errors.Join(err, r.wf.Close())
	r.wf, r.curVals = nil, nil
	return err
}

// claimWork writes the plan's fingerprint into the work folder, or
// refuses a folder that holds another plan's shards.
func claimWork(ctx context.Context, wf *workFolder, fp string) error {
	old, err := wf.read(ctx, fingerprintName)
	if err == nil && strings.TrimSpace(string(old)) != fp {
		return fmt.Errorf("shardbeam: work folder %s holds the shards of another build (%s); use an empty folder", wf.root, strings.TrimSpace(string(old)))
	}
	return wf.write(ctx, fingerprintName, []byte(fp+"\n"))
}

// runLevel builds and runs the pipelines of one level: task i in lane
// lanes[i], lane l in job l%Jobs, the jobs at the same time. Each lane is
// Create -> step ParDo -> GroupByKey: the GroupByKey only gives the step's
// stage an output (stepFn says why Prism needs one).
func runLevel(ctx context.Context, opt Options, tables []TableSpec, level int, tasks []Task, lanes []int) error {
	perLane := make([][]Task, opt.Lanes)
	for i, t := range tasks {
		perLane[lanes[i]] = append(perLane[lanes[i]], t)
	}
	fn := &stepFn{Tables: tables, Level: level, Workers: opt.StepWorkers}
	errs := make([]error, opt.Jobs)
	var wg sync.WaitGroup
	for j := range opt.Jobs {
		p, root := beam.NewPipelineWithRoot()
		n := 0
		for l := j; l < opt.Lanes; l += opt.Jobs {
			if len(perLane[l]) == 0 {
				continue
			}
			s := root.Scope(fmt.Sprintf("lane%d", l))
			beam.GroupByKey(s, beam.ParDo(s, fn, beam.CreateList(s, perLane[l])))
			n++
		}
		if n == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[j] = opt.Run(ctx, j, p)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
