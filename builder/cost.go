package builder

import (
	"time"

	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// The memory model of an out-of-core build (BuildOutOfCore, then the
// table encoded from its Source), in bytes, checked against measured
// peaks (docs/sharding.md, "What out of core costs"). The live heap of the search
// is the plan's index, the shard states in memory (the resident ones and
// one more: the shard being stepped, or the arrays kept for the next one
// read from its file) and a Step's outputs and inputs: its value log
// (about 0.75 byte per frontier state) and batches (about 1.1 bytes per
// state sent, about one per frontier state), with at most about a third
// of a shard's states on one level's frontier, are at most about twice
// the shard's state; growing them and the output buffers the driver keeps
// for the next Step (at most one state's worth) take another two, and the
// batch files being merged one: stepMultiple state sizes besides the
// resident ones. Writing the table holds one shard's values (1 byte per
// entry), the value log being read (at most about one state's worth), and
// per compressing goroutine a frame of values, its codes and a zstd
// encoder (EncoderBytes plus its input: measured 50 MiB plus the input at
// SpeedBestCompression), plus three frames in flight. The Go runtime's
// memory limit is set to the budget less nonHeapBytes (the binary and
// what else the runtime does not count, MemoryLimitFor), and the live
// heap planned is at most 7/8 of that limit, so that the collector, which
// runs only near the limit, has room for garbage and the resident set
// stays within the budget.
const (
	stepMultiple = 6
	// EncoderBytes is the memory of one zstd encoder compressing a
	// table's frames (measured about 50 MiB at SpeedBestCompression).
	EncoderBytes = 52 << 20
	oocRuntime   = 8 << 20  // runtime metadata, stacks, I/O buffers
	nonHeapBytes = 12 << 20 // the binary's resident pages and the like (a 15-78 build peaked 8.4 MiB above the limit)
)

// MemoryLimitFor is the Go runtime memory limit (debug.SetMemoryLimit,
// bytes) of an out-of-core build allowed budget bytes of resident set:
// the budget less the memory the runtime does not count (12 MiB, or half
// of a smaller budget).
func MemoryLimitFor(budget uint64) int64 {
	return int64(budget - min(budget/2, nonHeapBytes))
}

// oocFootprint turns a planned live heap into the resident set it allows
// for: the heap is at most 7/8 of the memory limit.
func oocFootprint(heap uint64) uint64 {
	return sysmem.SatAdd(sysmem.SatMul(heap, 8)/7, nonHeapBytes)
}

// OutOfCoreModel is the memory and disk model of one table's out-of-core
// build (see the constants above). Its figures are bytes.
type OutOfCoreModel struct {
	blocks, slots, cellSets uint64
	base                    uint64 // runtime and index
	frame                   uint64 // frame size, entries
	entries, states         uint64
}

// NewOutOfCoreModel is the model of p's out-of-core build with the table
// encoded in frames of frameSize entries (format.DefaultFrameSize2 of
// p.Size(); a frame never holds more than the table). It fails where
// NewShardPlan does (an exact pattern, one beyond CheckLimits).
func NewOutOfCoreModel(p *puzzle.Pattern, frameSize int) (*OutOfCoreModel, error) {
	pl, err := NewShardPlan(p, 1)
	if err != nil {
		return nil, err
	}
	m := &OutOfCoreModel{blocks: uint64(pl.Blocks()), slots: pl.SlotsPerBlock(), entries: p.Size(), states: pl.States()}
	m.cellSets = p.Size() / m.blocks
	m.base = oocRuntime + pl.IndexBytes()
	m.frame = min(uint64(frameSize), m.entries)
	return m, nil
}

// Blocks is the number of the search's order blocks (the most shards that
// are not empty).
func (m *OutOfCoreModel) Blocks() uint64 { return m.blocks }

func (m *OutOfCoreModel) per(n int) uint64        { return (m.blocks + uint64(n) - 1) / uint64(n) }
func (m *OutOfCoreModel) stateBytes(n int) uint64 { return m.per(n)*m.slots/4 + 4096 }

// writer is the memory of w compressing goroutines and their frames.
func (m *OutOfCoreModel) writer(w int) uint64 {
	return uint64(w+3)*m.frame + uint64(w)*(2*m.frame+EncoderBytes)
}

// search is the peak memory of the search with n shards, r resident.
func (m *OutOfCoreModel) search(n, r int) uint64 {
	return m.base + uint64(stepMultiple+r)*m.stateBytes(n)
}

// write is the peak memory of writing the table with w goroutines.
func (m *OutOfCoreModel) write(n, w int) uint64 {
	return m.base + m.per(n)*m.cellSets + m.stateBytes(n) + m.writer(w)
}

// Footprint is the estimated peak resident set of the build with shards
// shards (>= 1), resident of them kept in memory and writers compressing
// goroutines (>= 1), under MemoryLimitFor of a budget at least as large.
func (m *OutOfCoreModel) Footprint(shards, resident, writers int) uint64 {
	return oocFootprint(max(m.search(shards, resident), m.write(shards, writers)))
}

// MaxShards is the largest shard count worth trying: the first power of
// two with one block per shard (or MaxShards).
func (m *OutOfCoreModel) MaxShards() int {
	n := 1
	for uint64(n) < m.blocks && n < MaxShards {
		n *= 2
	}
	return n
}

// Minimum is the smallest budget (bytes) an out-of-core build of the
// table fits, and the smallest shard count that reaches it.
func (m *OutOfCoreModel) Minimum() (budget uint64, shards int) {
	best := m.Footprint(m.MaxShards(), 0, 1)
	n := 1
	for m.Footprint(n, 0, 1) > best {
		n *= 2
	}
	return best, n
}

// Disk is the estimated peak of the shard folder: the states (2 bits per
// search state, twice while a level replaces them), the value logs of
// every level (measured 0.75 byte per search state on a 24-puzzle 7-tile
// table; 1 counted) and the batches of two levels (the largest level's
// measured 0.10 byte per search state; 0.15 counted each), and the
// compressed frames spooled at the end (an eighth of a byte per entry
// counted; the tables so far compress to less than a byte per 16
// entries).
func (m *OutOfCoreModel) Disk() uint64 {
	return sysmem.SatAdd(m.states/2+m.states+m.states*3/10, m.entries/8)
}

// OutOfCoreFit is the out-of-core build a budget allows (OutOfCoreModel.Fit).
type OutOfCoreFit struct {
	Shards   int    // shard count, a power of two times the one asked for
	Resident int    // shard states kept in memory between levels
	Writers  int    // goroutines compressing frames at the end
	Need     uint64 // the estimated peak resident set, at most the budget
}

// Fit picks the shard count (the smallest power of two times shards, at
// least 1, at most MaxShards) whose search and write phases fit budget
// bytes, then as many resident shards and as many compressing goroutines
// (at most workers) as fit beside them. ok is false when no shard count
// fits (Minimum says what would).
func (m *OutOfCoreModel) Fit(budget uint64, workers, shards int) (fit OutOfCoreFit, ok bool) {
	n := max(shards, 1)
	for m.Footprint(n, 0, 1) > budget {
		if n >= m.MaxShards() {
			return OutOfCoreFit{}, false
		}
		n *= 2
	}
	fit = OutOfCoreFit{Shards: n, Writers: 1}
	for fit.Resident < n && m.Footprint(n, fit.Resident+1, 1) <= budget {
		fit.Resident++
	}
	for fit.Writers < workers && m.Footprint(n, fit.Resident, fit.Writers+1) <= budget {
		fit.Writers++
	}
	fit.Need = m.Footprint(n, fit.Resident, fit.Writers)
	return fit, true
}

// The time model: CPU per search state of the whole build (search,
// encoding, writing), measured on 2 cores. In memory: the 24-puzzle
// 6-tile table (--board 5x5 --tiles 1,2,5,6,7,12 --goal blank-first,
// 181,008,000 search states) takes 20-25 CPU-s on a quiet machine, about
// 120 ns per state (docs/performance.md). Out of core: 1,084 CPU-s for
// the 24-puzzle 7-tile table's 4.07 × 10^9 states on a quiet machine
// (docs/sharding.md, "What out of core costs"), 180-365 ns per state under load;
// 270 counted.
const (
	inMemoryNsPerState  = 120
	outOfCoreNsPerState = 270
)

// Estimate is what a build of one pattern is planned by, computed at
// once (it labels the blank regions of every cell set of the pattern:
// call it once per table).
type Estimate struct {
	// Memory is the peak resident set of the in-memory build, bytes:
	// MemoryEstimate, or ZeroAwareMemoryEstimate for a zero-aware table.
	Memory uint64
	// States is the number of states the search runs through: p.Size()
	// for an exact pattern, k!·S for an additive one (each placement of
	// the pattern's tiles with each region of the blank; 0 beyond
	// CheckLimits).
	States uint64
}

// EstimateBuild is the Estimate of building p (its zero-aware table when
// zeroAware). Its Memory is MemoryEstimate(p), or
// ZeroAwareMemoryEstimate(p) with zeroAware.
func EstimateBuild(p *puzzle.Pattern, zeroAware bool) Estimate {
	if p.Exact {
		return Estimate{Memory: p.Size()*5/4 + runtimeBytes, States: p.Size()}
	}
	slots, moves, err := spaceSize(p)
	if err != nil {
		return Estimate{Memory: p.Size()*5/4 + runtimeBytes} // refused by the build itself
	}
	states := sysmem.SatMul(p.Factorial(p.K()), slots)
	search := additiveSearchBytes(p, slots, moves, states)
	if zeroAware {
		search = sysmem.SatAdd(search, states) // a byte per state: its level
	}
	return Estimate{Memory: sysmem.SatMul(search, 5)/4 + runtimeBytes, States: states}
}

// CPU is the rough CPU time of the build (search and encoding, every
// core's time summed), in memory or out of core, from the measured costs
// per search state above: a figure to plan by, within a factor of about
// two on a loaded machine.
func (e Estimate) CPU(outOfCore bool) time.Duration {
	ns := uint64(inMemoryNsPerState)
	if outOfCore {
		ns = outOfCoreNsPerState
	}
	return time.Duration(min(sysmem.SatMul(e.States, ns), 1<<62))
}
