package shardbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Spec names a sharded search so that a worker process can rebuild its
// ShardPlan: the board, the goal (cell contents, 0 the blank), the
// pattern tiles and the shard count. It travels inside the DoFn (Beam
// serialises a DoFn's exported fields as JSON).
type Spec struct {
	W, H   int
	Goal   []int
	Tiles  []int
	Shards int
}

// specOf is the Spec of pattern p in shards shards.
func specOf(p *puzzle.Pattern, shards int) Spec {
	sp := Spec{W: p.Geom.W, H: p.Geom.H, Shards: shards}
	for _, c := range p.Goal {
		sp.Goal = append(sp.Goal, int(c))
	}
	for _, t := range p.Tiles {
		sp.Tiles = append(sp.Tiles, int(t))
	}
	return sp
}

// pattern rebuilds the pattern of sp.
func (sp Spec) pattern() (*puzzle.Pattern, error) {
	g, err := puzzle.NewGeometry(sp.W, sp.H)
	if err != nil {
		return nil, err
	}
	goal := make(puzzle.Board, len(sp.Goal))
	for i, c := range sp.Goal {
		goal[i] = uint8(c)
	}
	tiles := make([]uint8, len(sp.Tiles))
	for i, t := range sp.Tiles {
		tiles[i] = uint8(t)
	}
	return puzzle.NewPattern(g, goal, tiles)
}

// plans caches one ShardPlan per Spec in each process: a plan's set-up
// costs about as much as building a small table, and every DoFn instance
// of every level of a build needs the same one.
var plans struct {
	sync.Mutex
	m map[string]*planEntry
}

type planEntry struct {
	once sync.Once
	pl   *builder.ShardPlan
	err  error
}

// planFor returns the process's ShardPlan for sp, with workers goroutines
// per Step (the outputs do not depend on it).
func planFor(sp Spec, workers int) (*builder.ShardPlan, error) {
	key := fmt.Sprint(sp)
	plans.Lock()
	if plans.m == nil {
		plans.m = map[string]*planEntry{}
	}
	e := plans.m[key]
	if e == nil {
		e = &planEntry{}
		plans.m[key] = e
	}
	plans.Unlock()
	e.once.Do(func() {
		p, err := sp.pattern()
		if err != nil {
			e.err = err
			return
		}
		e.pl, e.err = builder.NewShardPlan(p, sp.Shards)
		if e.err == nil {
			e.pl.SetWorkers(workers)
		}
	})
	return e.pl, e.err
}

// TableSpec is one table of a level's pipeline: its work folder and its
// Spec.
type TableSpec struct {
	Work string
	Spec Spec
}

// Task is one element of a level's pipeline: a table (its index in the
// step's Tables), a shard of it, the level whose
// Step wrote the shard's state (-1: the initial state, builder.ShardPlan.
// Init; older than the level before when the shard sat idle) and the
// shards that sent it a batch at the level before. The driver knows both
// from the stats records, so a worker opens only files that exist.
type Task struct {
	Table      int
	Shard      int
	StateLevel int
	Senders    []int
}

// stepRecord is what one Step leaves in the work folder beside its
// outputs (stats-<s>.json), written last: the kernel's counts, which
// shards it sent batches to, whether it wrote a value log, and where the
// time went. The driver sums the records of a level to decide whether the
// search goes on.
type stepRecord struct {
	Stats    builder.StepStats
	SentTo   []int   // shards that got a non-empty batch
	ValueLog bool    // a value log was written
	ReadSec  float64 // reading the state and the batches
	StepSec  float64 // the kernel's Step
	WriteSec float64 // writing the outputs
	PID      int     // the worker process (tests check that several ran)
	Host     string
}

// stepFn runs one BFS level for the shards of its input: read the state
// (or Init at level 0) and the incoming batches from the table's work
// folder, Step, write the new state, the outgoing batches, the value log
// and the stepRecord under deterministic names. Every output but the
// record's timings and process id depends only on the inputs, so a
// retried bundle rewrites the same bytes.
//
// It emits (shard, level) once the shard's files are written: a
// GroupByKey (see runLevel) consumes it, which gives the step's stage an
// output. Prism v2.77.0 busy-waits while a bundle of a stage without
// outputs runs (its progress loop selects on a "data done" channel that
// is closed from the start when there is nothing to wait for), which
// burnt one core for as long as the Steps ran; with an output that
// channel closes at the end of the bundle.
type stepFn struct {
	Tables  []TableSpec
	Level   int
	Workers int // goroutines per Step

	pls []*builder.ShardPlan // by table, set up on first use
	wfs []*workFolder
}

func (f *stepFn) Setup() {
	f.pls = make([]*builder.ShardPlan, len(f.Tables))
	f.wfs = make([]*workFolder, len(f.Tables))
}

func (f *stepFn) Teardown() error {
	var err error
	for _, wf := range f.wfs {
		if wf != nil {
			err = errors.Join(err, wf.Close())
		}
	}
	return err
}

func (f *stepFn) ProcessElement(ctx context.Context, t Task, done func(int, int)) error {
	if t.Table < 0 || t.Table >= len(f.Tables) {
		return fmt.Errorf("level %d: task of table %d, the step has %d", f.Level, t.Table, len(f.Tables))
	}
	if f.pls[t.Table] == nil {
		ts := f.Tables[t.Table]
		pl, err := planFor(ts.Spec, f.Workers)
		if err != nil {
			return err
		}
		wf, err := openWork(ctx, ts.Work)
		if err != nil {
			return err
		}
		f.pls[t.Table], f.wfs[t.Table] = pl, wf
	}
	if _, err := runStep(ctx, f.pls[t.Table], f.wfs[t.Table], f.Level, t); err != nil {
		return fmt.Errorf("%s: level %d shard %d: %w", f.pls[t.Table].Pattern(), f.Level, t.Shard, err)
	}
	done(t.Shard, f.Level)
	return nil
}

// runStep is one shard's level (see stepFn).
func runStep(ctx context.Context, pl *builder.ShardPlan, wf *workFolder, level int, t Task) (*stepRecord, error) {
	s := t.Shard
	t0 := time.Now()
	var state []byte
	var err error
	if t.StateLevel < 0 {
		state = pl.Init(s)
	} else if state, err = wf.read(ctx, stateName(t.StateLevel, s)); err != nil {
		return nil, err
	}
	incoming := make([][]byte, len(t.Senders))
	for i, from := range t.Senders {
		if incoming[i], err = wf.read(ctx, batchName(level-1, s, from)); err != nil {
			return nil, err
		}
	}
	t1 := time.Now()
	out, err := pl.Step(ctx, s, level, state, incoming)
	if err != nil {
		return nil, err
	}
	// state and incoming are dead from here (the compiler's liveness
	// analysis, not an assignment of nil, lets the collector take them
	// during the writes).
	t2 := time.Now()
	rec := &stepRecord{Stats: out.Stats, PID: os.Getpid()}
	rec.Host, _ = os.Hostname()
	if err := wf.write(ctx, stateName(level, s), out.State); err != nil {
		return nil, err
	}
	for to, b := range out.Outgoing {
		if len(b) == 0 {
			continue
		}
		if err := wf.write(ctx, batchName(level, to, s), b); err != nil {
			return nil, err
		}
		rec.SentTo = append(rec.SentTo, to)
	}
	if out.ValueLog != nil {
		if err := wf.write(ctx, vlogName(level, s), out.ValueLog); err != nil {
			return nil, err
		}
		rec.ValueLog = true
	}
	t3 := time.Now()
	rec.ReadSec, rec.StepSec, rec.WriteSec = t1.Sub(t0).Seconds(), t2.Sub(t1).Seconds(), t3.Sub(t2).Seconds()
	js, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	if err := wf.write(ctx, statsName(level, s), js); err != nil {
		return nil, err
	}
	return rec, nil
}

func init() {
	register.DoFn3x1[context.Context, Task, func(int, int), error](&stepFn{})
	register.Emitter2[int, int]()
}
