package builder

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/puzzle"
)

// MaxLevel is the largest distance the builder can store (values are one
// byte and puzzle.Unreached, 255, marks an entry not yet visited).
const MaxLevel = 254

// Options control a build. The zero value uses every CPU and reports no
// progress.
type Options struct {
	// Workers is the number of goroutines that share each BFS level;
	// <= 0 means runtime.NumCPU(). The table does not depend on it.
	Workers int
	// Progress, when not nil, is called from a single goroutine at a time:
	// after every level (Event.LevelDone true) and every ProgressInterval
	// while a level runs.
	Progress func(Event)
	// ProgressInterval is the period of in-level progress events; 0 means
	// 250ms.
	ProgressInterval time.Duration

	// usePull, when not nil, replaces defaultUsePull in the additive
	// search: tests force push-only or pull-only levels with it.
	usePull func(level int, frontier, unvisited uint64) bool
}

// Event reports the state of a running build. Counts are of abstract
// states: (placement, blank region) pairs for an additive pattern database,
// states for an exact table.
type Event struct {
	Level     int    // the BFS level being expanded (its successors get Level+1)
	Reached   uint64 // states reached so far, all levels
	Total     uint64 // states in the whole search space
	LevelDone bool   // the event closes a level
	NewStates uint64 // with LevelDone: states first reached at Level+1
}

// ErrCanceled is returned (wrapped) when the context ends a build early.
var ErrCanceled = errors.New("build canceled")

// Build computes the table of p: Values[rank] for every rank in
// [0, p.Size()), in moves (0..MaxLevel). It returns an error when ctx is
// canceled, or when the search leaves entries unreached or exceeds
// MaxLevel (neither happens for a valid pattern).
func Build(ctx context.Context, p *puzzle.Pattern, opt Options) ([]uint8, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.ProgressInterval <= 0 {
		opt.ProgressInterval = 250 * time.Millisecond
	}
	if p.Exact {
		return buildExact(ctx, p, opt)
	}
	return buildAdditive(ctx, p, opt)
}

// MemoryEstimate is the peak memory, in bytes, a process is expected to
// need to build p with Build and encode the result: the arrays Build
// allocates (the table, the abstract state space and its indexes, which
// it computes within a few percent) times 1.25, plus 32 MiB for the Go
// runtime. The ratio 1.25 is peak RSS over those arrays measured on the
// 15-78 preset (1000 MiB for 836 MiB: the arrays, then the table and its
// compressed frames, plus garbage-collector headroom). For an additive
// pattern it labels the blank regions of every cell set of p (C(N,k) of
// them; N bytes of memory), which takes a fraction of the build's time:
// call it once per table.
func MemoryEstimate(p *puzzle.Pattern) uint64 {
	return EstimateBuild(p, false).Memory
}

// runtimeBytes is the memory of the Go runtime and the process outside
// Build's arrays.
const runtimeBytes = 32 << 20

// additiveSearchBytes is the number of bytes Build allocates for the
// additive pattern p whose space has the given slots per block, packed
// moves and states: the table, 2 bits per state (k!·S states), and the
// per-slot indexes of space.indexBytes: slotStart, slotCellSet, moveStart
// and moves, 4 bytes per element, and oddSlots, a bit per slot; and the
// stateBits of the push and pull kernels, a bit per state.
func additiveSearchBytes(p *puzzle.Pattern, slots, moves, states uint64) uint64 {
	return p.Size() + states/4 + (p.Combinations()+1+slots+slots+1+moves)*4 + (slots+63)/64*8 + frontierBytes(states)
}

// atomicBytes is a byte table shared by the workers of a level, stored in
// 64-bit words (entry i is byte i%8 of word i/8, least significant first).
// Entries change only from puzzle.Unreached to a level, and all writers of a level
// write the same value, so the result does not depend on scheduling.
type atomicBytes []uint64

func newAtomicBytes(n uint64) atomicBytes {
	w := make(atomicBytes, (n+7)/8)
	for i := range w {
		w[i] = ^uint64(0)
	}
	return w
}

func (a atomicBytes) load(i uint64) uint8 {
	return uint8(atomic.LoadUint64(&a[i>>3]) >> ((i & 7) * 8))
}

// visit sets entry i to v if it is puzzle.Unreached and reports whether this call
// made the change.
func (a atomicBytes) visit(i uint64, v uint8) bool {
	w := &a[i>>3]
	sh := (i & 7) * 8
	if uint8(atomic.LoadUint64(w)>>sh) != puzzle.Unreached {
		return false
	}
	old := atomic.AndUint64(w, ^(uint64(puzzle.Unreached^v) << sh))
	return uint8(old>>sh) == puzzle.Unreached
}

// bitset with atomic set, for the blocks that hold frontier entries.
type bitset []uint32

func (b bitset) set(i int)      { atomic.OrUint32(&b[i>>5], 1<<(uint(i)&31)) }
func (b bitset) has(i int) bool { return atomic.LoadUint32(&b[i>>5])&(1<<(uint(i)&31)) != 0 }
func (b bitset) clear()         { clear(b) }
func newBitset(n int) bitset    { return make(bitset, (n+31)/32) }
func (b bitset) anySet() bool {
	for _, w := range b {
		if w != 0 {
			return true
		}
	}
	return false
}

// levelRunner runs one BFS level over nChunks chunks with the configured
// workers, reporting progress on a ticker.
type levelRunner struct {
	opt     Options
	reached atomic.Uint64
	total   uint64
}

func (r *levelRunner) run(ctx context.Context, level, nChunks int, work func(chunk int) uint64) (uint64, error) {
	var added atomic.Uint64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opt.Workers)
	stop := make(chan struct{})
	tickerDone := make(chan struct{})
	go func() {
		defer close(tickerDone)
		if r.opt.Progress == nil {
			return
		}
		t := time.NewTicker(r.opt.ProgressInterval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				r.opt.Progress(Event{Level: level, Reached: r.reached.Load(), Total: r.total})
			}
		}
	}()
	for c := 0; c < nChunks; c++ {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			n := work(c)
			added.Add(n)
			r.reached.Add(n)
			return nil
		})
	}
	err := g.Wait()
	close(stop)
	<-tickerDone
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return 0, fmt.Errorf("%w at level %d: %w", ErrCanceled, level, err)
	}
	n := added.Load()
	if r.opt.Progress != nil {
		r.opt.Progress(Event{Level: level, Reached: r.reached.Load(), Total: r.total, LevelDone: true, NewStates: n})
	}
	return n, nil
}
