// Package shardbeam builds a tilepdb pattern database on Apache Beam: the
// builder's shard kernel (builder.ShardPlan) run as one Beam pipeline per
// BFS level, with the shards' data between levels in a work folder on any
// file system Beam reaches (a local folder, gs://, s3://).
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
// under names that depend only on level and shard (idempotent: a retried
// bundle rewrites the same bytes). The driver reads the stats records of
// the level, gives the next level only the shards that have states
// pending or batches coming, and stops when no state of the next level
// exists anywhere;
// it then turns the value logs into the table's values, shard by shard
// (Result.Source, a format.ValueSource for format.EncodeStream).
package shardbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Options configure Build. The zero value runs on the runner beamx.Run
// selects (--runner; Prism in-process by default) with an automatic shard
// count.
type Options struct {
	// Work is the work folder of this table: a local path, gs://... or
	// s3://...; every worker must reach it. Build writes its files there;
	// Result.Close removes them (and an empty local folder).
	Work string
	// Shards is the shard count, 1..builder.MaxShards; 0 picks
	// AutoShards. The table does not depend on it.
	Shards int
	// Lanes is the number of independent branches per level pipeline
	// (the shards are dealt round-robin); 0 means runtime.NumCPU().
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
	// Log gets one line per level (nil: none).
	Log io.Writer
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

// Report is what a Build did.
type Report struct {
	Shards, Lanes, Jobs int
	Levels              []LevelReport
	Processes           []int   // the distinct worker process ids that ran a Step
	ValuesSec           float64 // decoding the value logs (Result.Source)
}

// Overhead is the pipelines' wall time beyond the busiest lane's work,
// summed over levels: what Beam (submission, scheduling, bundle set-up)
// adds to the critical path.
func (r *Report) Overhead() time.Duration {
	var d time.Duration
	for _, l := range r.Levels {
		if o := l.Wall - time.Duration(l.LaneSec*float64(time.Second)); o > 0 {
			d += o
		}
	}
	return d
}

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

// Build runs the search of the additive pattern p on Beam and returns
// the finished search: its Result gives the values (index = the
// pattern's rank, byte for byte as builder.Build returns them) one shard
// at a time. It fails for an exact pattern (build those with
// builder.Build), on a work folder holding another table's shards, and on
// any pipeline error; the work folder keeps the files of a failed build.
func Build(ctx context.Context, p *puzzle.Pattern, opt Options) (*Result, error) {
	if p.Exact {
		return nil, fmt.Errorf("shardbeam: %s is an exact table: build it with builder.Build", p)
	}
	if opt.Lanes <= 0 {
		opt.Lanes = runtime.NumCPU()
	}
	if opt.Jobs <= 0 {
		opt.Jobs = 1
	}
	if opt.Lanes < opt.Jobs {
		opt.Lanes = opt.Jobs
	}
	if opt.StepWorkers <= 0 {
		opt.StepWorkers = runtime.NumCPU()
	}
	if opt.Shards == 0 {
		opt.Shards = AutoShards(p, opt.Lanes)
	}
	if opt.Run == nil {
		opt.Run = func(ctx context.Context, _ int, p *beam.Pipeline) error { return beamx.Run(ctx, p) }
	}
	spec := specOf(p, opt.Shards)
	pl, err := planFor(spec, opt.StepWorkers)
	if err != nil {
		return nil, err
	}
	wf, err := openWork(ctx, opt.Work)
	if err != nil {
		return nil, err
	}
	defer func() {
		if wf != nil {
			wf.Close()
		}
	}()
	if err := claimWork(ctx, wf, pl.Fingerprint()); err != nil {
		return nil, err
	}
	rep := &Report{Shards: opt.Shards, Lanes: opt.Lanes, Jobs: opt.Jobs}
	S := opt.Shards
	senders := make([][]int, S)  // who sent shard s a batch at the level before
	stateLevel := make([]int, S) // the level whose Step wrote shard s's state (-1: Init)
	pending := make([]bool, S)   // shard s's state holds states of the next level
	for s := range S {
		stateLevel[s], pending[s] = -1, true // Init's pending state is unknown here: run every shard at level 0
	}
	logLevels := make([][]int, S)
	procs := map[int]bool{}
	var expanded uint64
	level := 0
	for ; ; level++ {
		if level > builder.MaxLevel {
			return nil, fmt.Errorf("shardbeam: %s: the search did not end by level %d", p, builder.MaxLevel)
		}
		// A shard with nothing pending and no batch coming sits the level
		// out: its state serves any later level (builder.ShardPlan.Step).
		var tasks []Task
		for s := range S {
			if pending[s] || len(senders[s]) > 0 {
				tasks = append(tasks, Task{Shard: s, StateLevel: stateLevel[s], Senders: senders[s]})
			}
		}
		t0 := time.Now()
		if err := runLevel(ctx, opt, spec, level, tasks); err != nil {
			return nil, fmt.Errorf("shardbeam: %s: level %d: %w", p, level, err)
		}
		lr := LevelReport{Level: level, Wall: time.Since(t0), Shards: len(tasks)}
		next := make([][]int, S)
		lane := make([]float64, opt.Lanes)
		var more uint64
		for i, t := range tasks {
			s := t.Shard
			js, err := wf.read(ctx, statsName(level, s))
			if err != nil {
				return nil, fmt.Errorf("shardbeam: %s: level %d finished without shard %d's record: %w", p, level, s, err)
			}
			var rec stepRecord
			if err := json.Unmarshal(js, &rec); err != nil {
				return nil, fmt.Errorf("shardbeam: %s: %w", wf.path(statsName(level, s)), err)
			}
			st := rec.Stats
			if st.Shard != s || st.Level != level {
				return nil, fmt.Errorf("shardbeam: %s: record of shard %d level %d, want shard %d level %d", wf.path(statsName(level, s)), st.Shard, st.Level, s, level)
			}
			more += st.Marked + st.Sent
			for _, to := range rec.SentTo {
				next[to] = append(next[to], s)
			}
			if rec.ValueLog {
				logLevels[s] = append(logLevels[s], level)
			}
			// The inputs this Step consumed are no longer needed.
			if t.StateLevel >= 0 {
				wf.remove(ctx, wf.path(stateName(t.StateLevel, s)))
			}
			for _, from := range t.Senders {
				wf.remove(ctx, wf.path(batchName(level-1, s, from)))
			}
			wf.remove(ctx, wf.path(statsName(level, s)))
			stateLevel[s], pending[s] = level, st.Marked > 0
			procs[rec.PID] = true
			lr.ReadSec += rec.ReadSec
			lr.StepSec += rec.StepSec
			lr.WriteSec += rec.WriteSec
			lane[i%opt.Lanes] += rec.ReadSec + rec.StepSec + rec.WriteSec
			lr.Frontier += st.Frontier
			lr.BytesOut += st.BytesOut
			lr.StateOut += st.StateBytes
			lr.LogBytes += st.ValueLogBytes
		}
		for _, b := range lane {
			lr.LaneSec = max(lr.LaneSec, b)
		}
		expanded += lr.Frontier
		rep.Levels = append(rep.Levels, lr)
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "%s: level %d: %d of %d shards ran, %d states expanded (%d of %d), %d batch bytes, %.2fs (shards busy %.2fs, busiest lane %.2fs)\n",
				p, level, len(tasks), S, lr.Frontier, expanded, pl.States(), lr.BytesOut, lr.Wall.Seconds(), lr.ReadSec+lr.StepSec+lr.WriteSec, lr.LaneSec)
		}
		senders = next
		if more == 0 {
			break
		}
	}
	if total := pl.States(); expanded != total {
		return nil, fmt.Errorf("shardbeam: %s: %d of %d abstract states expanded", p, expanded, total)
	}
	for pid := range procs {
		rep.Processes = append(rep.Processes, pid)
	}
	sort.Ints(rep.Processes)
	res := &Result{Report: rep, pl: pl, wf: wf, logLevels: logLevels, lastLevel: level, cur: -1}
	wf = nil // the Result owns it now
	return res, nil
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
// i%Lanes, lane l in job l%Jobs, the jobs at the same time. Each lane is
// Create -> step ParDo -> GroupByKey: the GroupByKey only gives the step's
// stage an output (stepFn says why Prism needs one).
func runLevel(ctx context.Context, opt Options, spec Spec, level int, tasks []Task) error {
	lanes := make([][]Task, opt.Lanes)
	for i, t := range tasks {
		lanes[i%opt.Lanes] = append(lanes[i%opt.Lanes], t)
	}
	fn := &stepFn{Work: opt.Work, Spec: spec, Level: level, Workers: opt.StepWorkers}
	errs := make([]error, opt.Jobs)
	var wg sync.WaitGroup
	for j := range opt.Jobs {
		p, root := beam.NewPipelineWithRoot()
		n := 0
		for l := j; l < opt.Lanes; l += opt.Jobs {
			if len(lanes[l]) == 0 {
				continue
			}
			s := root.Scope(fmt.Sprintf("lane%d", l))
			beam.GroupByKey(s, beam.ParDo(s, fn, beam.CreateList(s, lanes[l])))
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
