package builder

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/internal/atomicfile"
	"github.com/tilepdb/tilepdb/puzzle"
)

// The shard folder of BuildOutOfCore:
//
//	DIR/PLAN                      the plan's Fingerprint, one line
//	DIR/L007/COMPLETE             level 7's inputs are all written (JSON: level, states expanded before it, states pending, and per shard its pending states and the level of its state file)
//	DIR/L007/batch-00003-00001    the batch shard 1 sent shard 3 for level 7
//	DIR/states/00003-L005         shard 3's state, written by its Step at level 4
//	DIR/values/00003-L006         shard 3's value log of level 6
//
// A shard with nothing pending and no batch to merge is idle: its Step is
// skipped and its state file, of an earlier level, serves (see Step). The
// state files a marker names are removed only when the next marker is
// written.
// Files are written to a temporary name and renamed, so a name holds a
// whole file; a level folder counts only once its COMPLETE marker (written
// with internal/atomicfile, synced) is there. Data files are not synced
// one by one (that would double the build's time on a slow disk): a
// killed process or a full disk loses nothing finished, while after a
// power loss --resume may meet a torn file, which the blobs' CRC-32C
// reports.

// OutOfCoreOptions control BuildOutOfCore.
type OutOfCoreOptions struct {
	Dir    string // the shard folder: created; without Resume it must be absent or empty
	Shards int    // the shard count (OutOfCorePlan chooses one)
	// Resident is the number of shard states kept in memory between
	// levels (shards 0..Resident-1); the others are read from Dir at
	// every level. Every state is written at every level all the same,
	// for Resume.
	Resident int
	Workers  int  // goroutines of a Step (< 1: runtime.NumCPU())
	Resume   bool // continue the build in Dir from its last complete level
	// Progress, when set, is called after every Step (LevelDone false)
	// and every level, from the calling goroutine.
	Progress func(OutOfCoreEvent)
}

// OutOfCoreEvent reports the progress of BuildOutOfCore.
type OutOfCoreEvent struct {
	Level, Shard, Shards int
	LevelDone            bool
	Step                 StepStats // the Step just run (not with LevelDone)
	Expanded, Total      uint64    // states expanded so far, and in all
	Resumed              bool      // the first event after resuming at Level
	// DiskRead and DiskWritten are the bytes of shard data read and
	// written by the Step or, with LevelDone, by the level.
	DiskRead, DiskWritten uint64
}

// OutOfCore is a finished out-of-core search: its shard folder holds the
// value logs, read back shard by shard by Source.
type OutOfCore struct {
	pl   *ShardPlan
	dir  string
	lock *os.File // the folder's lock (atomicfile.LockDir), released by Remove; nil where there is none
}

// levelMarker is the content of a COMPLETE file.
type levelMarker struct {
	Level        int      `json:"level"`
	Expanded     uint64   `json:"expanded"`      // states expanded at the levels before
	Pending      uint64   `json:"pending"`       // states marked or sent for this level
	ShardPending []uint64 `json:"shard_pending"` // per shard: states its own Step marked for this level
	StateLevel   []int    `json:"state_level"`   // per shard: the level of its state file
	// Batches is, per shard, the number of batch files addressed to it
	// in this level's folder, checked before the level runs: a missing
	// batch would otherwise go unnoticed and leave states unreached
	// (nil in the markers of older builds).
	Batches []int `json:"batches,omitempty"`
}

const planFile = "PLAN"

func levelDir(dir string, level int) string { return filepath.Join(dir, fmt.Sprintf("L%03d", level)) }
func stateFile(dir string, s, level int) string {
	return filepath.Join(dir, "states", fmt.Sprintf("%05d-L%03d", s, level))
}
func batchFile(ld string, to, from int) string {
	return filepath.Join(ld, fmt.Sprintf("batch-%05d-%05d", to, from))
}
func valueFile(dir string, s, level int) string {
	return filepath.Join(dir, "values", fmt.Sprintf("%05d-L%03d", s, level))
}

// BuildOutOfCore runs the sharded search of p with the shard states,
// batches and value logs in files under opt.Dir (see the layout above),
// holding opt.Resident shard states in memory plus the one being
// stepped. It returns the finished search; its Source gives the values in
// rank order and Remove deletes the folder. With opt.Resume it continues
// the build in opt.Dir from its last complete level, and refuses a folder
// whose PLAN is not this plan's fingerprint. Errors name the file; a
// write error (a full disk) leaves every complete level for Resume.
func BuildOutOfCore(ctx context.Context, p *puzzle.Pattern, opt OutOfCoreOptions) (*OutOfCore, error) {
	pl, err := NewShardPlan(p, opt.Shards)
	if err != nil {
		return nil, err
	}
	pl.SetWorkers(opt.Workers)
	// One build at a time in a folder: a second one (a --resume while the
	// first still runs) would interleave its levels with the first's and
	// leave a wrong table.
	if !opt.Resume {
		if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("shard folder: %w", err)
		}
	}
	lock, err := atomicfile.LockDir(opt.Dir)
	if errors.Is(err, atomicfile.ErrInUse) {
		return nil, folderError{fmt.Errorf("shard folder %s is in use by another build (wait for it to end, or stop it and --resume)", opt.Dir)}
	}
	if err != nil && (!opt.Resume || !errors.Is(err, fs.ErrNotExist)) {
		return nil, fmt.Errorf("shard folder: %w", err)
	}
	o, err := buildOutOfCore(ctx, p, pl, opt)
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		return nil, err
	}
	o.lock = lock
	return o, nil
}

// buildOutOfCore is BuildOutOfCore once its folder is locked.
func buildOutOfCore(ctx context.Context, p *puzzle.Pattern, pl *ShardPlan, opt OutOfCoreOptions) (*OutOfCore, error) {
	d := &diskRun{pl: pl, dir: opt.Dir, opt: opt, resident: make([]*shardRun, pl.shards)}
	level, mk, err := d.start(ctx)
	if err != nil {
		return nil, err
	}
	resumed := opt.Resume
	for mk.Pending > 0 {
		if level > MaxLevel {
			return nil, fmt.Errorf("builder: %s: distances exceed %d", p, MaxLevel)
		}
		if mk, err = d.level(ctx, level, mk, resumed); err != nil {
			return nil, err
		}
		resumed = false
		level++
	}
	if total := pl.States(); mk.Expanded != total {
		return nil, fmt.Errorf("builder: %s: %d of %d abstract states unreached", p, total-mk.Expanded, total)
	}
	d.resident = nil
	return &OutOfCore{pl: pl, dir: opt.Dir}, nil
}

// diskRun is a running out-of-core search.
type diskRun struct {
	pl       *ShardPlan
	dir      string
	opt      OutOfCoreOptions
	resident []*shardRun // states kept in memory, nil for the others
	// spare is the last shard read from a file and stepped, whose arrays
	// the next read reuses; chunks are the output buffers of the last
	// Step, reused by the next.
	spare  *shardRun
	chunks []chunkOut
}

// ErrShardFolder is wrapped by the errors of BuildOutOfCore that refuse
// its shard folder before the search: a used folder without Resume, or
// with Resume a folder of another plan, shard count or version, or whose
// last finished level's marker is unreadable. Resuming again does not
// help; the folder is left as it was.
var ErrShardFolder = errors.New("unusable shard folder")

// folderError is an error that wraps ErrShardFolder without adding to
// its message.
type folderError struct{ error }

func (e folderError) Is(target error) bool { return target == ErrShardFolder }
func (e folderError) Unwrap() error        { return e.error }

// start prepares the folder (new, or resumed) and returns the level to
// run and its marker.
func (d *diskRun) start(ctx context.Context) (int, levelMarker, error) {
	if !d.opt.Resume {
		return d.startNew(ctx)
	}
	b, err := os.ReadFile(filepath.Join(d.dir, planFile))
	if err != nil {
		return 0, levelMarker{}, folderError{fmt.Errorf("cannot resume: %w", err)}
	}
	if got, fp := strings.TrimSpace(string(b)), d.pl.Fingerprint(); got != fp {
		return 0, levelMarker{}, folderError{fmt.Errorf("cannot resume: shard folder %s is for %q, this build is %q", d.dir, got, fp)}
	}
	ents, err := os.ReadDir(d.dir)
	if err != nil {
		return 0, levelMarker{}, folderError{fmt.Errorf("cannot resume: %w", err)}
	}
	best, levels := finishedLevel(d.dir, ents)
	if best < 0 {
		// Not even level 0 was finished: nothing to keep. The folder
		// itself stays: it holds the lock.
		for _, e := range ents {
			if err := os.RemoveAll(filepath.Join(d.dir, e.Name())); err != nil {
				return 0, levelMarker{}, err
			}
		}
		d.opt.Resume = false
		return d.startNew(ctx)
	}
	// Unfinished levels after the best and finished ones before it go.
	for _, l := range levels {
		if l != best {
			if err := os.RemoveAll(levelDir(d.dir, l)); err != nil {
				return 0, levelMarker{}, err
			}
		}
	}
	mk, err := d.readMarker(best)
	if err != nil {
		return 0, levelMarker{}, folderError{fmt.Errorf("cannot resume: %s: %w", filepath.Join(levelDir(d.dir, best), "COMPLETE"), err)}
	}
	d.removeOldStates(mk)
	return best, mk, nil
}

// startNew makes a new build's folder: the plan, level 0's folder, every
// shard's initial state and level 0's marker.
func (d *diskRun) startNew(ctx context.Context) (int, levelMarker, error) {
	if ents, err := os.ReadDir(d.dir); err == nil && len(ents) > 0 {
		return 0, levelMarker{}, folderError{fmt.Errorf("shard folder %s is not empty (an interrupted build? continue it with --resume, or remove the folder)", d.dir)}
	}
	for _, sub := range []string{"values", "states"} {
		if err := os.MkdirAll(filepath.Join(d.dir, sub), 0o755); err != nil {
			return 0, levelMarker{}, fmt.Errorf("shard folder: %w", err)
		}
	}
	if err := atomicfile.Write(filepath.Join(d.dir, planFile), 0o644, func(w io.Writer) error {
		_, err := io.WriteString(w, d.pl.Fingerprint()+"\n")
		return err
	}); err != nil {
		return 0, levelMarker{}, err
	}
	ld := levelDir(d.dir, 0)
	if err := os.MkdirAll(ld, 0o755); err != nil {
		return 0, levelMarker{}, fmt.Errorf("shard folder: %w", err)
	}
	mk := levelMarker{Level: 0, Pending: 1, ShardPending: make([]uint64, d.pl.shards), StateLevel: make([]int, d.pl.shards), Batches: make([]int, d.pl.shards)}
	for s := range d.pl.shards {
		// A million shards take a while to create: Ctrl-C is honoured
		// between them (the folder is incomplete, without a finished
		// level, so --resume starts it again).
		if err := ctx.Err(); err != nil {
			return 0, levelMarker{}, fmt.Errorf("%w while creating shard %d of %d: %w", ErrCanceled, s+1, d.pl.shards, err)
		}
		r := d.pl.newRun(s)
		if _, err := writeFileRenamed(stateFile(d.dir, s, 0), r.writeState); err != nil {
			return 0, levelMarker{}, err
		}
		if s < d.opt.Resident {
			d.resident[s] = r
		}
		mk.ShardPending[s] = r.pending
	}
	return 0, mk, writeMarker(ld, mk)
}

// finishedLevel returns the last level of the folder dir (whose entries
// are ents) with a COMPLETE marker (-1 when there is none) and every
// level folder there.
func finishedLevel(dir string, ents []fs.DirEntry) (best int, levels []int) {
	best = -1
	for _, e := range ents {
		n, ok := strings.CutPrefix(e.Name(), "L")
		l, err := strconv.Atoi(n)
		if !ok || err != nil || !e.IsDir() {
			continue
		}
		levels = append(levels, l)
		if _, err := os.Stat(filepath.Join(levelDir(dir, l), "COMPLETE")); err == nil && l > best {
			best = l
		}
	}
	return best, levels
}

// readMarker reads and checks the COMPLETE marker of level: its level
// and its shard count. The error does not name the file.
func (d *diskRun) readMarker(level int) (levelMarker, error) {
	var mk levelMarker
	mb, err := os.ReadFile(filepath.Join(levelDir(d.dir, level), "COMPLETE"))
	if err == nil {
		err = json.Unmarshal(mb, &mk)
	}
	if err != nil {
		return mk, err
	}
	if mk.Level != level {
		return mk, fmt.Errorf("marker of level %d in folder L%03d", mk.Level, level)
	}
	if n := d.pl.shards; len(mk.ShardPending) != n || len(mk.StateLevel) != n || (mk.Batches != nil && len(mk.Batches) != n) {
		return mk, fmt.Errorf("marker of %d shards, want %d", len(mk.StateLevel), n)
	}
	return mk, nil
}

// writeMarker writes a level's COMPLETE marker, synced.
func writeMarker(ld string, mk levelMarker) error {
	return atomicfile.Write(filepath.Join(ld, "COMPLETE"), 0o644, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(mk)
	})
}

// level runs one level over every shard and returns the next level's
// marker.
func (d *diskRun) level(ctx context.Context, level int, mk levelMarker, resumed bool) (levelMarker, error) {
	pl := d.pl
	ld, next := levelDir(d.dir, level), levelDir(d.dir, level+1)
	if err := os.RemoveAll(next); err != nil {
		return mk, err
	}
	if err := os.MkdirAll(next, 0o755); err != nil {
		return mk, fmt.Errorf("shard folder: %w", err)
	}
	out := levelMarker{Level: level + 1, Expanded: mk.Expanded, ShardPending: make([]uint64, pl.shards), StateLevel: slices.Clone(mk.StateLevel), Batches: make([]int, pl.shards)}
	incoming, err := incomingBatches(ld, mk, pl.shards)
	if err != nil {
		return mk, err
	}
	var levelRead, levelWritten uint64
	for s := range pl.shards {
		if mk.ShardPending[s] == 0 && len(incoming[s]) == 0 {
			continue // idle
		}
		r, read, err := d.load(s, level, mk, resumed)
		if err != nil {
			return mk, err
		}
		var written uint64
		r.chunks, d.chunks = d.chunks, nil
		st, sentTo, err := d.step(ctx, r, incoming[s], next, level)
		if err != nil {
			return mk, err
		}
		for _, t := range sentTo {
			out.Batches[t]++
		}
		d.chunks, r.chunks = r.chunks, nil
		if chunkBytes(d.chunks) > pl.StateSize(s) {
			// Kept, the buffers of every Step would grow to the largest
			// output each chunk ever had, in any shard: more than one
			// Step's (a 24-puzzle 7-tile build went over --max-memory
			// that way). Beyond a state's worth they go to the collector.
			d.chunks = nil
		}
		if s >= d.opt.Resident {
			d.spare = r
		}
		out.ShardPending[s] = st.Marked
		out.StateLevel[s] = level + 1
		read += st.BytesIn
		written += st.StateBytes + st.BytesOut + st.ValueLogBytes
		if s < d.opt.Resident {
			d.resident[s] = r
		}
		out.Expanded += st.Frontier
		out.Pending += st.Marked + st.Sent
		levelRead += read
		levelWritten += written
		if d.opt.Progress != nil {
			d.opt.Progress(OutOfCoreEvent{Level: level, Shard: s, Shards: pl.shards, Step: st, Expanded: out.Expanded, Total: pl.States(), Resumed: resumed && s == 0, DiskRead: read, DiskWritten: written})
		}
	}
	if err := writeMarker(next, out); err != nil {
		return mk, err
	}
	d.removeOldStates(out)
	if err := os.RemoveAll(ld); err != nil {
		return mk, err
	}
	if d.opt.Progress != nil {
		d.opt.Progress(OutOfCoreEvent{Level: level, Shard: -1, Shards: pl.shards, LevelDone: true, Expanded: out.Expanded, Total: pl.States(), DiskRead: levelRead, DiskWritten: levelWritten})
	}
	return out, nil
}

// incomingBatches lists, per shard, the batch files addressed to it in
// the level folder ld, and checks their count against the level's marker
// mk (a missing batch would leave states unreached).
func incomingBatches(ld string, mk levelMarker, shards int) ([][]string, error) {
	ents, err := os.ReadDir(ld)
	if err != nil {
		return nil, err
	}
	incoming := make([][]string, shards)
	for _, e := range ents {
		var to, from int
		if n, _ := fmt.Sscanf(e.Name(), "batch-%05d-%05d", &to, &from); n == 2 && to >= 0 && to < shards {
			incoming[to] = append(incoming[to], filepath.Join(ld, e.Name()))
		}
	}
	for t, n := range mk.Batches {
		if len(incoming[t]) != n {
			return nil, fmt.Errorf("builder: %s: %d batch files for shard %d, the level's marker lists %d (a file is missing or foreign): %w", ld, len(incoming[t]), t, n, ErrShardData)
		}
	}
	return incoming, nil
}

// load returns shard s's state at level: the one in memory, or (not
// resident, or just resumed) the one its state file holds, read into the
// spare arrays; read is the bytes read.
func (d *diskRun) load(s, level int, mk levelMarker, resumed bool) (r *shardRun, read uint64, err error) {
	if r = d.resident[s]; r != nil && !resumed {
		if r.level != level {
			if r.pending != 0 {
				return nil, 0, fmt.Errorf("builder: shard %d: in memory at level %d with states pending, want level %d", s, r.level, level)
			}
			r.level = level // idle since
		}
		return r, 0, nil
	}
	path := stateFile(d.dir, s, mk.StateLevel[s])
	f, size, err := openSized(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, fmt.Errorf("builder: shard %d: its state file %s is missing: %w", s, path, ErrShardData)
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	r, err = d.pl.readStateInto(s, level, f, size, d.spare)
	d.spare = nil
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return r, uint64(size), nil
}

// step runs one shard's level: merge its batch files, expand, write its
// state, its batches and its value log.
func (d *diskRun) step(ctx context.Context, r *shardRun, files []string, next string, level int) (_ StepStats, sentTo []int, _ error) {
	pl := d.pl
	st := StepStats{Shard: r.s, Level: level}
	// Merge the batch files, up to Workers at a time.
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(pl.workers)
	var bytesIn, merged [1]uint64
	results := make([]struct{ n, size uint64 }, len(files))
	for i, f := range files {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return fmt.Errorf("%w at level %d: %w", ErrCanceled, level, err)
			}
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			n, err := r.merge(b)
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			results[i].n, results[i].size = n, uint64(len(b))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return st, nil, err
	}
	for _, x := range results {
		merged[0] += x.n
		bytesIn[0] += x.size
	}
	st.Merged, st.BytesIn = merged[0], bytesIn[0]
	lv, err := r.expand(ctx, pl.workers)
	if err != nil {
		return st, nil, err
	}
	lv.fillStats(&st)
	for t := range pl.shards {
		if lv.sent[t] == 0 {
			continue
		}
		if _, err := writeFileRenamed(batchFile(next, t, r.s), func(w io.Writer) error { return lv.writeBatch(t, w) }); err != nil {
			return st, nil, err
		}
		sentTo = append(sentTo, t)
	}
	if lv.logged > 0 {
		if _, err := writeFileRenamed(valueFile(d.dir, r.s, level), lv.writeValueLog); err != nil {
			return st, nil, err
		}
	}
	n, err := writeFileRenamed(stateFile(d.dir, r.s, level+1), r.writeState)
	if err != nil {
		return st, nil, err
	}
	r.chunks = lv.chunks // written: the arrays serve the next Step
	st.StateBytes = uint64(n)
	return st, sentTo, nil
}

// chunkBytes is the capacity of the output buffers of a Step.
func chunkBytes(chunks []chunkOut) uint64 {
	var n uint64
	for i := range chunks {
		n += uint64(cap(chunks[i].values))
		for _, b := range chunks[i].batches {
			n += uint64(cap(b))
		}
	}
	return n
}

// removeOldStates removes the state files that marker mk does not name
// (best effort: a leftover costs disk space only).
func (d *diskRun) removeOldStates(mk levelMarker) {
	ents, err := os.ReadDir(filepath.Join(d.dir, "states"))
	if err != nil {
		return
	}
	for _, e := range ents {
		var s, l int
		if n, _ := fmt.Sscanf(e.Name(), "%05d-L%03d", &s, &l); n == 2 && s >= 0 && s < len(mk.StateLevel) && l == mk.StateLevel[s] {
			continue
		}
		os.Remove(filepath.Join(d.dir, "states", e.Name()))
	}
}

// openSized opens a file and returns its size.
func openSized(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// writeFileRenamed writes path through a temporary file in its folder,
// renamed over path when fill succeeded (not synced: see the folder
// layout); on error the temporary file is removed and the error names
// path. It returns the bytes written.
func writeFileRenamed(path string, fill func(io.Writer) error) (int64, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return 0, fmt.Errorf("writing %s: %w", path, err)
	}
	var fw io.Writer = f
	if writeHook != nil {
		fw = writeHook(path, f)
	}
	cw := &countWriter{w: fw}
	bw := newBufWriter(cw)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return 0, fmt.Errorf("writing %s: %w", path, unwrapPathErr(err))
	}
	return cw.n, nil
}

// writeHook, when set (by tests), wraps the writer of every file of the
// shard folder: a stand-in for a full disk.
var writeHook func(path string, w io.Writer) io.Writer

// unwrapPathErr drops the *os.PathError's temporary name.
func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Plan is the finished search's plan.
func (o *OutOfCore) Plan() *ShardPlan { return o.pl }

// ShardValues is shard s's values from its value logs in the folder.
func (o *OutOfCore) ShardValues(s int) ([]uint8, error) {
	pl := o.pl
	lo, hi := pl.EntryRange(s)
	dst := make([]uint8, hi-lo)
	for i := range dst {
		dst[i] = puzzle.Unreached
	}
	files, err := filepath.Glob(filepath.Join(o.dir, "values", fmt.Sprintf("%05d-L*", s)))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := pl.applyValueLog(s, dst, b); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	if i := bytes.IndexByte(dst, puzzle.Unreached); i >= 0 {
		return nil, fmt.Errorf("builder: shard %d: entry %d has no value (a value log is missing from %s): %w", s, lo+uint64(i), filepath.Join(o.dir, "values"), ErrShardData)
	}
	return dst, nil
}

// Source returns a reader of the table's values in rank order, for
// format.EncodeStream (a format.ValueSource): it holds one shard's values
// at a time. Reads must be sequential (a read from 0 starts again).
func (o *OutOfCore) Source() func(lo uint64, dst []uint8) error {
	cur, curLo := -1, uint64(0)
	var vals []uint8
	return func(lo uint64, dst []uint8) error {
		for len(dst) > 0 {
			if cur < 0 || lo < curLo || lo >= curLo+uint64(len(vals)) {
				// The shard holding lo.
				s := 0
				for s < o.pl.shards-1 {
					if _, hi := o.pl.EntryRange(s); lo < hi {
						break
					}
					s++
				}
				vals = nil // let the last shard's values go first
				v, err := o.ShardValues(s)
				if err != nil {
					return err
				}
				cur, vals = s, v
				curLo, _ = o.pl.EntryRange(s)
				if lo < curLo || lo >= curLo+uint64(len(vals)) {
					return fmt.Errorf("builder: rank %d out of range", lo)
				}
			}
			n := copy(dst, vals[lo-curLo:])
			dst, lo = dst[n:], lo+uint64(n)
		}
		return nil
	}
}

// Remove deletes the shard folder.
func (o *OutOfCore) Remove() error {
	err := os.RemoveAll(o.dir)
	if o.lock != nil {
		o.lock.Close()
		o.lock = nil
	}
	return err
}

// newBufWriter buffers writes to w in 1 MiB.
func newBufWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 1<<20) }
