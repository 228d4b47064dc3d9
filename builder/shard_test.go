package builder_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// shardCases are the small tables the shard kernel is checked on: the
// 8-puzzle, 15-puzzle 3- and 4-tile patterns, 2x3 and 3x2 boards, a
// blank-first and a custom goal, and patterns whose cell sets cut the
// empty cells into several regions (every 3-tile 4x4 pattern: a tile pair
// around a corner; 3x3 tiles 1-5 often).
var shardCases = []struct {
	w, h  int
	goal  string
	tiles []uint8
}{
	{3, 3, "blank-last", []uint8{1, 2, 3}},
	{3, 3, "blank-last", []uint8{1, 2, 3, 4, 5}},
	{4, 4, "blank-last", []uint8{1, 2, 3}},
	{4, 4, "blank-first", []uint8{1, 2, 5, 6}},
	{2, 3, "blank-last", []uint8{1, 2, 3}},
	{3, 2, "blank-last", []uint8{2, 4}},
	{3, 3, "2,3,0,1,5,6,4,7,8", []uint8{1, 5, 8}},
}

// TestBuildShardedMatchesBuild: for every shard count (1 to more shards
// than blocks), worker count and kernel rule, the sharded build gives
// Build's table byte for byte.
func TestBuildShardedMatchesBuild(t *testing.T) {
	ctx := context.Background()
	rules := []struct {
		name string
		rule func(level int, frontier, unvisited uint64) bool
	}{
		{"default", nil},
		{"push", func(int, uint64, uint64) bool { return false }},
		{"pull", func(int, uint64, uint64) bool { return true }},
	}
	workerCounts := []int{1, 3}
	if testing.Short() {
		workerCounts = []int{2}
	}
	for _, c := range shardCases {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		want, err := builder.Build(ctx, p, builder.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, shards := range []int{1, 2, 3, 7, 30, 200} {
			for _, workers := range workerCounts {
				for _, r := range rules {
					if testing.Short() && (shards == 2 || shards == 30 || shards == 200 && r.rule != nil) {
						continue // the race detector makes the many small shards slow
					}
					opt := builder.Options{Workers: workers}
					if r.rule != nil {
						opt = builder.WithUsePull(opt, r.rule)
					}
					got, err := builder.BuildSharded(ctx, p, shards, opt)
					if err != nil {
						t.Fatalf("%s, %d shards: %v", p, shards, err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s, %d shards, %d workers, %s kernel: table differs from Build's", p, shards, workers, r.name)
					}
				}
			}
		}
	}
}

// stepDriver runs a plan through the byte API as a distributed driver
// would: every shard's Step on the bytes of the level before, incoming
// batches shuffled, each Step run twice to check that it is deterministic.
// It returns the table and the stats of every Step.
func stepDriver(t *testing.T, pl *builder.ShardPlan, rng *rand.Rand) ([]uint8, []builder.StepStats) {
	t.Helper()
	ctx := context.Background()
	n := pl.Shards()
	states := make([][]byte, n)
	logs := make([][][]byte, n)
	inbox := make([][][]byte, n)
	for s := range n {
		states[s] = pl.Init(s)
	}
	var all []builder.StepStats
	var expanded uint64
	for level := 0; ; level++ {
		if level > builder.MaxLevel {
			t.Fatal("no termination")
		}
		next := make([][][]byte, n)
		var more uint64
		for s := range n {
			in := inbox[s]
			rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
			out, err := pl.Step(ctx, s, level, states[s], in)
			if err != nil {
				t.Fatalf("shard %d level %d: %v", s, level, err)
			}
			again, err := pl.Step(ctx, s, level, states[s], in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.State, again.State) || !bytes.Equal(out.ValueLog, again.ValueLog) {
				t.Fatalf("shard %d level %d: Step is not deterministic", s, level)
			}
			for u := range n {
				if !bytes.Equal(out.Outgoing[u], again.Outgoing[u]) {
					t.Fatalf("shard %d level %d: batch for %d is not deterministic", s, level, u)
				}
				if out.Outgoing[u] != nil {
					if u == s {
						t.Fatalf("shard %d sent itself a batch", s)
					}
					next[u] = append(next[u], out.Outgoing[u])
				}
			}
			st := out.Stats
			if st.Shard != s || st.Level != level || st.StateBytes != uint64(len(out.State)) || st.ValueLogBytes != uint64(len(out.ValueLog)) {
				t.Fatalf("stats %+v", st)
			}
			states[s] = out.State
			logs[s] = append(logs[s], out.ValueLog)
			all = append(all, st)
			expanded += st.Frontier
			more += st.Marked + st.Sent
		}
		inbox = next
		if more == 0 {
			break
		}
	}
	if expanded != pl.States() {
		t.Fatalf("%d states expanded, want %d", expanded, pl.States())
	}
	var table []uint8
	for s := range n {
		// The logs in reverse order: Values must not care.
		l := logs[s]
		for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
			l[i], l[j] = l[j], l[i]
		}
		v, err := pl.Values(s, l)
		if err != nil {
			t.Fatal(err)
		}
		if lo, hi := pl.EntryRange(s); uint64(len(v)) != hi-lo || lo != uint64(len(table)) {
			t.Fatalf("shard %d: %d values for range [%d, %d)", s, len(v), lo, hi)
		}
		table = append(table, v...)
	}
	return table, all
}

// TestShardStepAPI: the byte API (Init, Step, Values) driven as a
// distributed driver would gives Build's table, deterministic bytes, and
// the termination rule of the doc comment.
func TestShardStepAPI(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range shardCases {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		want, err := builder.Build(context.Background(), p, builder.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, shards := range []int{1, 3, 7} {
			pl, err := builder.NewShardPlan(p, shards)
			if err != nil {
				t.Fatal(err)
			}
			pl.SetWorkers(2)
			got, stats := stepDriver(t, pl, rng)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, %d shards: table differs from Build's", p, shards)
			}
			var sent uint64
			for _, st := range stats {
				sent += st.Sent
			}
			if shards > 1 && sent == 0 {
				t.Errorf("%s, %d shards: nothing crossed shards", p, shards)
			}
		}
	}
}

// TestShardPlanErrors: exact tables and bad shard counts are refused, and
// the fingerprint names the pattern, the goal and the shard count.
func TestShardPlanErrors(t *testing.T) {
	if _, err := builder.NewShardPlan(pdbtest.Pattern(t, 3, 3, "blank-last"), 2); err == nil || !strings.Contains(err.Error(), "exact") {
		t.Errorf("exact table: %v", err)
	}
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3)
	for _, n := range []int{0, -1, builder.MaxShards + 1} {
		if _, err := builder.NewShardPlan(p, n); err == nil {
			t.Errorf("%d shards accepted", n)
		}
	}
	a, _ := builder.NewShardPlan(p, 2)
	b, _ := builder.NewShardPlan(p, 3)
	c, _ := builder.NewShardPlan(pdbtest.Pattern(t, 3, 3, "blank-first", 1, 2, 3), 2)
	for _, want := range []string{"3x3", "blank-last", "tiles 1,2,3", "2 shards", "kernel 1"} {
		if !strings.Contains(a.Fingerprint(), want) {
			t.Errorf("fingerprint %q lacks %q", a.Fingerprint(), want)
		}
	}
	if a.Fingerprint() == b.Fingerprint() || a.Fingerprint() == c.Fingerprint() {
		t.Error("fingerprints of different plans are equal")
	}
	// A state of another plan is refused.
	if _, err := b.Step(context.Background(), 0, 0, a.Init(0), nil); !errors.Is(err, builder.ErrShardData) {
		t.Errorf("foreign state: %v", err)
	}
	if _, err := a.Step(context.Background(), 1, 0, a.Init(0), nil); !errors.Is(err, builder.ErrShardData) {
		t.Errorf("state of another shard: %v", err)
	}
	if _, err := a.Step(context.Background(), 0, 1, a.Init(0), nil); !errors.Is(err, builder.ErrShardData) {
		t.Errorf("state of another level: %v", err)
	}
	if _, err := a.Values(0, nil); !errors.Is(err, builder.ErrShardData) {
		t.Errorf("values without logs: %v", err)
	}
}

// shardFuzzPlan is the plan of the fuzz targets: 3 shards of the 3x3
// tiles 1,2,3,4 table, and valid blobs to mutate: a state at level 2, the
// batches it receives, and a value log.
func shardFuzzSeeds(tb testing.TB) (pl *builder.ShardPlan, state []byte, batches [][]byte, vlog []byte) {
	p := pdbtest.Pattern(tb, 3, 3, "blank-last", 1, 2, 3, 4)
	pl, err := builder.NewShardPlan(p, 3)
	if err != nil {
		tb.Fatal(err)
	}
	pl.SetWorkers(1)
	ctx := context.Background()
	states := []([]byte){pl.Init(0), pl.Init(1), pl.Init(2)}
	inbox := make([][][]byte, 3)
	for level := 0; level < 2; level++ {
		next := make([][][]byte, 3)
		for s := range 3 {
			out, err := pl.Step(ctx, s, level, states[s], inbox[s])
			if err != nil {
				tb.Fatal(err)
			}
			states[s] = out.State
			if out.ValueLog != nil {
				vlog = out.ValueLog
			}
			for u, b := range out.Outgoing {
				if b != nil {
					next[u] = append(next[u], b)
				}
			}
		}
		inbox = next
	}
	// Pick a shard that receives something at level 2.
	for s := range 3 {
		if len(inbox[s]) > 0 {
			return pl, states[s], inbox[s], vlog
		}
	}
	return pl, states[0], nil, vlog
}

// FuzzShardStep: Step and Values never panic on corrupt state, batch or
// value-log bytes; they either fail with ErrShardData or succeed.
func FuzzShardStep(f *testing.F) {
	pl, state, batches, vlog := shardFuzzSeeds(f)
	var batch []byte
	if len(batches) > 0 {
		batch = batches[0]
	}
	f.Add(state, batch, vlog)
	f.Add(state[:len(state)/2], batch, vlog[:len(vlog)-1])
	f.Add([]byte{}, []byte("TPDBSHB1"), []byte("TPDBSHV1"))
	f.Fuzz(func(t *testing.T, st, b, vl []byte) {
		ctx := context.Background()
		for s := range pl.Shards() {
			if _, err := pl.Step(ctx, s, 2, st, [][]byte{b}); err != nil && !errors.Is(err, builder.ErrShardData) {
				t.Fatalf("error without ErrShardData: %v", err)
			}
			if _, err := pl.Values(s, [][]byte{vl}); err != nil && !errors.Is(err, builder.ErrShardData) {
				t.Fatalf("Values: error without ErrShardData: %v", err)
			}
		}
	})
}

// TestShardCorruption: every single-byte change of a valid state or batch,
// and every truncation, is refused with ErrShardData (the CRC and the
// length checks), never a panic.
func TestShardCorruption(t *testing.T) {
	pl, state, batches, vlog := shardFuzzSeeds(t)
	if len(batches) == 0 {
		t.Fatal("no batch to corrupt")
	}
	ctx := context.Background()
	s := -1
	for i := range pl.Shards() {
		if _, err := pl.Step(ctx, i, 2, state, batches); err == nil {
			s = i
		}
	}
	if s < 0 {
		t.Fatal("the seed state is refused")
	}
	check := func(what string, st []byte, in [][]byte) {
		t.Helper()
		if _, err := pl.Step(ctx, s, 2, st, in); !errors.Is(err, builder.ErrShardData) {
			t.Fatalf("%s: %v", what, err)
		}
	}
	for i := range state {
		bad := bytes.Clone(state)
		bad[i] ^= 0x20
		check("state byte flipped", bad, batches)
	}
	for i := range batches[0] {
		bad := bytes.Clone(batches[0])
		bad[i] ^= 0x01
		check("batch byte flipped", state, [][]byte{bad})
		check("batch truncated", state, [][]byte{batches[0][:i]})
	}
	check("state truncated", state[:len(state)-1], nil)
	for i := range vlog {
		bad := bytes.Clone(vlog)
		bad[i] ^= 0x04
		for u := range pl.Shards() {
			_, err := pl.Values(u, [][]byte{bad})
			if !errors.Is(err, builder.ErrShardData) {
				t.Fatalf("value log byte %d flipped: %v", i, err)
			}
			// Past the magic, a flipped byte is damage: the checksum
			// catches it before the key would call the log another
			// table's.
			if i >= 8 && !strings.Contains(err.Error(), "checksum mismatch (corrupt)") {
				t.Fatalf("value log byte %d flipped: %v, want a checksum mismatch", i, err)
			}
		}
	}
}

// TestBuildShardedCancel: a canceled context ends the sharded build with
// ErrCanceled.
func TestBuildShardedCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3)
	if _, err := builder.BuildSharded(ctx, p, 2, builder.Options{Workers: 1}); !errors.Is(err, builder.ErrCanceled) {
		t.Errorf("got %v, want ErrCanceled", err)
	}
}

var _ = puzzle.Unreached
