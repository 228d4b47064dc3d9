package builder

// The shard kernel
//
// A sharded build splits the additive search's k! order blocks (see the
// index anatomy at the top of additive.go) into Shards contiguous ranges:
// shard s owns blocks [s·k!/Shards, (s+1)·k!/Shards) (owner computes), so
// it owns a contiguous range of abstract states and, since the
// cellset-order layout puts a block's table entries in one contiguous
// range, a contiguous range of table entries (ShardPlan.EntryRange). A
// shard may own no block at all when Shards > k!.
//
// A BFS level of a sharded build is one Step per shard, in any order or in
// parallel, each given the batches the other shards sent it at the level
// before. Step:
//
//  1. merges the incoming batches: every state they name that is still
//     unseen gets the level's frontier code (delayed duplicate detection,
//     Korf 2004, "Best-first frontier search with delayed duplicate
//     detection", AAAI);
//  2. expands the frontier: successors in the shard are marked with the
//     next level's code by the push or the pull kernel of the in-memory
//     search (the pull kernel reads only the shard's own frontier codes);
//     successors in other shards are sent, push only: each frontier state
//     emits its order-changing moves (j != j2) whose target block lies in
//     another shard. A move with j == j2 keeps the order, so it never
//     leaves the block;
//  3. turns the level's frontier done (the 2-bit code of stateCodes) and
//     logs the table entries of the frontier's placements with the level
//     (the value log, see below).
//
// Termination: after every shard has run level L, the build is finished
// when the sum over the shards of StepStats.Marked + StepStats.Sent is 0
// (no state of level L+1 anywhere). A finished build has expanded every
// state once: the sum of StepStats.Frontier over all levels and shards is
// ShardPlan.States(); ShardPlan.Values then gives each shard's entries.
//
// Byte layouts (all integers little-endian; "uvarint" is
// encoding/binary's unsigned varint). Every blob starts with the same
// 24-byte head and ends with a CRC-32C (Castagnoli) of all bytes before it:
//
//	offset size  head
//	0      8     magic: "TPDBSHS1" (state), "TPDBSHB1" (batch), "TPDBSHV1" (value log)
//	8      8     the plan's key: the first 8 bytes of SHA-256(Fingerprint())
//	16     4     shard: the owner (state, value log) or the sender (batch)
//	20     4     level: state: the level its next Step runs; batch and value
//	             log: the level whose Step wrote it
//
// Shard state ("TPDBSHS1"), the whole search state of one shard between
// levels, 2 bits per state plus a bit per block:
//
//	24     8     states: blocks·S, S = ShardPlan.SlotsPerBlock()
//	32     8     reached: the shard's states that are not unseen
//	40     8     pending: the shard's states holding the next level's code
//	             (marked by the shard's own Step before)
//	48     8·W   codes: W = ceil(states/32) words, state i at bits
//	             2(i%32)..2(i%32)+1 of word i/32 (stateCodes: 0 unseen, 3
//	             done, levelCode(L) = L%2+1 the states of level L)
//	48+8W  B     active: B = ceil(blocks/8) bytes, bit b%8 of byte b/8 set
//	             when the shard's block b may hold states of the next level
//	end    4     CRC-32C
//
// Batch ("TPDBSHB1"), the states one shard found for another at one level:
//
//	24     4     to: the receiving shard
//	28     8     targets: the number of states listed
//	36     ...   records, one per (sending block, receiving block) pair
//	             with states, by sending block then receiving order:
//	             uvarint block (relative to the receiver's first block),
//	             uvarint n >= 1, then n uvarint slots in [0, S) ascending:
//	             the first as is, each next one as the difference (>= 1)
//	end    4     CRC-32C
//
// Value log ("TPDBSHV1"), the entries whose placement has a state at the
// level (a placement's value is the first level of any of its states):
//
//	24     8     entries: the number of cell sets listed
//	32     ...   records, one per block with frontier states, ascending:
//	             uvarint block (relative to the shard's first block), uvarint
//	             n >= 1, then n uvarint cell sets M in [0, C(N,k)) ascending,
//	             the first as is, each next one as the difference (>= 1);
//	             the entry is (block's order)·C(N,k) + M
//	end    4     CRC-32C
//
// Every output depends only on the plan, the shard, the level, the state
// and the set of incoming targets: not on the order of the incoming
// batches, the worker count or the kernel (push or pull) chosen, so a
// retried Step writes the same bytes.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"runtime"
	"slices"

	"github.com/tilepdb/tilepdb/puzzle"
)

// ShardKernelVersion is the version of the shard kernel's byte layouts;
// Fingerprint names it, so that drivers refuse shard data of another
// version.
const ShardKernelVersion = 1

// MaxShards is the largest shard count NewShardPlan accepts.
const MaxShards = 1 << 20

// Magic numbers of the shard kernel's blobs.
const (
	magicState    = "TPDBSHS1"
	magicBatch    = "TPDBSHB1"
	magicValueLog = "TPDBSHV1"
)

// Sizes of the fixed parts of the blobs.
const (
	headLen       = 24 // magic, key, shard, level
	stateHeadLen  = headLen + 24
	batchHeadLen  = headLen + 12
	valueHeadLen  = headLen + 8
	crcLen        = 4
	maxUvarintLen = binary.MaxVarintLen64
)

// ErrShardData is wrapped by the errors of Step, Values and the drivers
// for state, batch or value-log bytes that are corrupt, truncated, or of
// another plan, shard or level.
var ErrShardData = errors.New("bad shard data")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ShardPlan splits the additive search of one pattern into shards and runs
// their levels (see "The shard kernel" above). It is safe for concurrent
// use: Step and Values of different shards, or of the same shard with
// different inputs, may run at the same time.
type ShardPlan struct {
	p       *puzzle.Pattern
	sp      *space
	shards  int
	blockLo []int // len shards+1: shard s owns blocks [blockLo[s], blockLo[s+1])
	fp      string
	key     [8]byte
	goal    uint64 // the goal state, the only state of level 0
	goalOdd uint64 // 1 when the goal's slot is odd (space.oddSlots), else 0
	workers int
	usePull func(level int, frontier, unvisited uint64) bool
}

// NewShardPlan plans the sharded search of the additive pattern p in
// shards shards (1..MaxShards). It fails for an exact table (all tiles:
// those have at most 4x3's 239,500,800 entries and build in memory with
// Build) and for a pattern Build cannot build. Setting up takes about as
// long as building a small table (the region maps of every cell set).
// Step runs runtime.NumCPU() goroutines unless SetWorkers says otherwise.
func NewShardPlan(p *puzzle.Pattern, shards int) (*ShardPlan, error) {
	if p.Exact {
		return nil, fmt.Errorf("builder: %s: exact tables are not sharded (at most 239,500,800 entries; build them in memory)", p)
	}
	if shards < 1 || shards > MaxShards {
		return nil, fmt.Errorf("builder: %s: %d shards, want 1 to %d", p, shards, MaxShards)
	}
	sp, err := newSpace(p)
	if err != nil {
		return nil, err
	}
	pl := &ShardPlan{p: p, sp: sp, shards: shards, blockLo: make([]int, shards+1), workers: runtime.NumCPU(), usePull: shardUsePull}
	for s := 0; s <= shards; s++ {
		pl.blockLo[s] = int(uint64(s) * uint64(sp.orders) / uint64(shards))
	}
	pl.fp = fmt.Sprintf("tilepdb shard kernel %d: %s, goal %s, %d entries, %d blocks of %d states, %d shards",
		ShardKernelVersion, p, p.Goal, p.Size(), sp.orders, sp.slotsPerBlock, shards)
	sum := sha256.Sum256([]byte(pl.fp))
	copy(pl.key[:], sum[:8])
	pl.goal = goalState(p, sp)
	if sp.slotOdd(pl.goal % sp.slotsPerBlock) {
		pl.goalOdd = 1
	}
	return pl, nil
}

// goalState is the index of the goal state: the goal placement with the
// blank in its region.
func goalState(p *puzzle.Pattern, sp *space) uint64 {
	cells := p.GoalCells()
	mask := p.CombinationUnrank(0, 0) // the zero cell mask, of the mask type
	for _, c := range cells {
		mask |= 1 << c
	}
	set := p.CombinationRank(mask)
	order := p.OrderRank(mask, cells)
	region := goalRegion(p, mask, p.GoalPositions()[0])
	return order*sp.slotsPerBlock + uint64(sp.slotStart[set]) + uint64(region)
}

// SetWorkers sets the goroutines one Step uses (n < 1 means
// runtime.NumCPU()); outputs do not depend on it. Call it before the
// first Step.
func (pl *ShardPlan) SetWorkers(n int) {
	if n < 1 {
		n = runtime.NumCPU()
	}
	pl.workers = n
}

// Pattern is the pattern of the plan.
func (pl *ShardPlan) Pattern() *puzzle.Pattern { return pl.p }

// Shards is the number of shards.
func (pl *ShardPlan) Shards() int { return pl.shards }

// Fingerprint is one line naming the kernel version, the pattern (board,
// goal, tiles), the table's size, the blocks and the shard count. Drivers
// store it beside shard data and refuse data whose fingerprint differs;
// the blobs carry the first 8 bytes of its SHA-256.
func (pl *ShardPlan) Fingerprint() string { return pl.fp }

// States is the number of abstract states of the whole search: the sum
// of StepStats.Frontier over a finished build.
func (pl *ShardPlan) States() uint64 { return pl.sp.stateCount() }

// Blocks is the number of blocks, k!: no shard count above it makes
// smaller shards.
func (pl *ShardPlan) Blocks() int { return pl.sp.orders }

// SlotsPerBlock is S, the states of one block.
func (pl *ShardPlan) SlotsPerBlock() uint64 { return pl.sp.slotsPerBlock }

// BlockRange is the blocks (orders) shard s owns: [lo, hi).
func (pl *ShardPlan) BlockRange(s int) (lo, hi int) { return pl.blockLo[s], pl.blockLo[s+1] }

// EntryRange is the table entries shard s owns: [lo, hi), its blocks'
// entries (a block's C(N,k) entries are contiguous in the cellset-order
// layout). The ranges of shards 0, 1, ... tile [0, Pattern().Size()).
func (pl *ShardPlan) EntryRange(s int) (lo, hi uint64) {
	c := uint64(pl.sp.cellSets)
	return uint64(pl.blockLo[s]) * c, uint64(pl.blockLo[s+1]) * c
}

// StateSize is the length in bytes of shard s's state (it does not change
// from level to level).
func (pl *ShardPlan) StateSize(s int) uint64 {
	lo, hi := pl.BlockRange(s)
	states := uint64(hi-lo) * pl.sp.slotsPerBlock
	return stateHeadLen + (states+31)/32*8 + uint64(hi-lo+7)/8 + crcLen
}

// IndexBytes is the memory every holder of the plan needs besides shard
// data: the slots and moves of one block (the same for every block).
func (pl *ShardPlan) IndexBytes() uint64 { return pl.sp.indexBytes() }

// StepStats are the counts of one Step (of one shard at one level).
type StepStats struct {
	Shard int `json:"shard"`
	Level int `json:"level"`
	// Merged is the incoming states that were unseen: states of this
	// level found by other shards.
	Merged uint64 `json:"merged"`
	// Frontier is the states expanded: the shard's states of this level
	// (Merged included).
	Frontier uint64 `json:"frontier"`
	// Marked is the shard's own states its expansion reached first; they
	// are the next level's frontier with the ones other shards send.
	Marked uint64 `json:"marked"`
	// Sent is the states listed in the outgoing batches; a state may be
	// sent by several blocks and shards, and when its owner reached it
	// before (the owner's merge drops those).
	Sent uint64 `json:"sent"`
	// Pull reports that the in-shard successors were found by the pull
	// kernel (the push kernel otherwise).
	Pull bool `json:"pull"`
	// BytesIn and BytesOut are the incoming and outgoing batch bytes,
	// ValueLogBytes the value log's and StateBytes the new state's.
	BytesIn       uint64 `json:"bytes_in"`
	BytesOut      uint64 `json:"bytes_out"`
	ValueLogBytes uint64 `json:"value_log_bytes"`
	StateBytes    uint64 `json:"state_bytes"`
}

// Init is shard s's state before level 0: every state unseen except the
// goal state, in the level-0 code, in the shard that owns it.
func (pl *ShardPlan) Init(s int) []byte {
	r := pl.newRun(s)
	var b bytes.Buffer
	b.Grow(int(pl.StateSize(s)))
	_ = r.writeState(&b) // a bytes.Buffer does not fail
	return b.Bytes()
}

// StepOutput is what Step returns.
type StepOutput struct {
	State    []byte   // the shard's state for level+1
	Outgoing [][]byte // len Shards(): the batch for each shard, nil where empty (and for the shard itself)
	ValueLog []byte   // the shard's value log of this level, nil when the shard had no state at it
	Stats    StepStats
}

// Step runs BFS level `level` (0..MaxLevel) for shard s: it merges
// incoming, the batches other shards sent s at level-1 (any order; nil
// entries are skipped), expands the shard's frontier and returns the
// shard's new state, the outgoing batches, the value log of the level
// and the level's counts. It does not modify state or incoming. The same
// inputs give the same bytes. A state with nothing pending (the
// StepStats.Marked of the Step that wrote it was 0) may be given for any
// later level: a shard that has no pending state and receives no batch
// need not run a Step at all (its state is unchanged but for the level). Errors wrap ErrShardData for bytes that are
// not the state of shard s before this level, or not batches of this plan
// for s at level-1; ctx ends a Step early with an error wrapping
// ErrCanceled.
func (pl *ShardPlan) Step(ctx context.Context, s, level int, state []byte, incoming [][]byte) (*StepOutput, error) {
	if err := pl.checkShard(s); err != nil {
		return nil, err
	}
	r, err := pl.readState(s, level, bytes.NewReader(state), int64(len(state)))
	if err != nil {
		return nil, err
	}
	out := &StepOutput{}
	if out.Stats.Merged, out.Stats.BytesIn, err = r.mergeAll(ctx, incoming, pl.workers); err != nil {
		return nil, err
	}
	lv, err := r.expand(ctx, pl.workers)
	if err != nil {
		return nil, err
	}
	out.Outgoing = make([][]byte, pl.shards)
	for t := range pl.shards {
		out.Outgoing[t] = lv.batch(t)
	}
	out.ValueLog = lv.valueLog()
	var st bytes.Buffer
	st.Grow(int(pl.StateSize(s)))
	_ = r.writeState(&st)
	out.State = st.Bytes()
	lv.fillStats(&out.Stats)
	out.Stats.StateBytes = uint64(len(out.State))
	return out, nil
}

// Values is shard s's finished values, the entries [EntryRange(s)), from
// the value logs of all its levels (any order; nil entries are skipped):
// each entry's value is the lowest level whose log lists it. It fails
// (wrapping ErrShardData) on bytes that are not value logs of shard s, and
// when some entry is listed by no log (a log is missing).
func (pl *ShardPlan) Values(s int, logs [][]byte) ([]uint8, error) {
	if err := pl.checkShard(s); err != nil {
		return nil, err
	}
	lo, hi := pl.EntryRange(s)
	dst := make([]uint8, hi-lo)
	for i := range dst {
		dst[i] = puzzle.Unreached
	}
	for _, b := range logs {
		if b == nil {
			continue
		}
		if err := pl.applyValueLog(s, dst, b); err != nil {
			return nil, err
		}
	}
	if i := slices.Index(dst, puzzle.Unreached); i >= 0 {
		return nil, fmt.Errorf("builder: shard %d: entry %d has no value (a value log is missing): %w", s, lo+uint64(i), ErrShardData)
	}
	return dst, nil
}

func (pl *ShardPlan) checkShard(s int) error {
	if s < 0 || s >= pl.shards {
		return fmt.Errorf("builder: shard %d out of range 0..%d", s, pl.shards-1)
	}
	return nil
}

// shardDataErr is an ErrShardData error about a blob of shard s.
func shardDataErr(what string, s int, format string, a ...any) error {
	return fmt.Errorf("builder: %s of shard %d: %s: %w", what, s, fmt.Sprintf(format, a...), ErrShardData)
}

// checkHead checks a blob's head and CRC (b holds the whole blob) and
// returns its shard and level fields.
func (pl *ShardPlan) checkHead(b []byte, magic, what string, s int, minLen int) (shard, level int, err error) {
	if len(b) < minLen+crcLen {
		return 0, 0, shardDataErr(what, s, "%d bytes, too short", len(b))
	}
	if string(b[:8]) != magic {
		return 0, 0, shardDataErr(what, s, "not a %s (magic %q)", what, b[:8])
	}
	// The checksum first: a damaged key is damage, not another table's
	// blob.
	body := b[:len(b)-crcLen]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(body):]) {
		return 0, 0, shardDataErr(what, s, "checksum mismatch (corrupt)")
	}
	if !bytes.Equal(b[8:16], pl.key[:]) {
		return 0, 0, shardDataErr(what, s, "of another table, shard count or kernel version")
	}
	return int(binary.LittleEndian.Uint32(b[16:])), int(binary.LittleEndian.Uint32(b[20:])), nil
}

// putHead appends a blob's head.
func (pl *ShardPlan) putHead(b []byte, magic string, shard, level int) []byte {
	b = append(b, magic...)
	b = append(b, pl.key[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(shard))
	return binary.LittleEndian.AppendUint32(b, uint32(level))
}

// uvarints reads the uvarints of a record payload with bounds checks.
type uvarints struct {
	b   []byte
	err bool
}

func (u *uvarints) next() uint64 {
	v, n := binary.Uvarint(u.b)
	if n <= 0 {
		u.err = true
		u.b = nil
		return 0
	}
	u.b = u.b[n:]
	return v
}

// readRecords calls f for every value of every record of a batch or value
// log payload: block relative to the shard's first block (< blocks),
// values ascending below limit. It reports malformed payloads.
func readRecords(payload []byte, blocks int, limit uint64, f func(block int, v uint64)) error {
	u := uvarints{b: payload}
	for len(u.b) > 0 {
		block := u.next()
		n := u.next()
		if u.err || block >= uint64(blocks) || n == 0 || n > limit {
			return errors.New("bad record head")
		}
		var v uint64
		for i := uint64(0); i < n; i++ {
			d := u.next()
			if i > 0 && d == 0 {
				return errors.New("values not ascending")
			}
			v += d
			if u.err || v >= limit || v < d {
				return errors.New("value out of range")
			}
			f(int(block), v)
		}
	}
	return nil
}

// applyValueLog lowers dst (shard s's entries) to the level of log b
// where the log lists an entry.
func (pl *ShardPlan) applyValueLog(s int, dst []uint8, b []byte) error {
	const what = "value log"
	shard, level, err := pl.checkHead(b, magicValueLog, what, s, valueHeadLen)
	if err != nil {
		return err
	}
	if shard != s || level > MaxLevel {
		return shardDataErr(what, s, "it is the log of shard %d at level %d", shard, level)
	}
	lo, hi := pl.BlockRange(s)
	c := uint64(pl.sp.cellSets)
	var count uint64
	v := uint8(level)
	err = readRecords(b[valueHeadLen:len(b)-crcLen], hi-lo, c, func(block int, m uint64) {
		i := uint64(block)*c + m
		if dst[i] > v {
			dst[i] = v
		}
		count++
	})
	if err == nil && count != binary.LittleEndian.Uint64(b[headLen:]) {
		err = errors.New("entry count differs from the head")
	}
	if err != nil {
		return shardDataErr(what, s, "level %d: %v", level, err)
	}
	return nil
}

// readState reads shard s's state (size bytes from rd) for a Step at
// level: it checks the layout, the key, the shard, the level and the
// CRC, reading the codes straight into the run's array.
func (pl *ShardPlan) readState(s, level int, rd io.Reader, size int64) (*shardRun, error) {
	return pl.readStateInto(s, level, rd, size, nil)
}

// readStateInto is readState reusing the arrays of spare (a run no longer
// needed, or nil) where they are large enough.
func (pl *ShardPlan) readStateInto(s, level int, rd io.Reader, size int64, spare *shardRun) (*shardRun, error) {
	if want := int64(pl.StateSize(s)); size != want {
		return nil, shardDataErr(stateWhat, s, "%d bytes, want %d", size, want)
	}
	crc := crc32.New(castagnoli)
	head := make([]byte, stateHeadLen)
	if _, err := io.ReadFull(io.TeeReader(rd, crc), head); err != nil {
		return nil, shardDataErr(stateWhat, s, "%v", err)
	}
	r, err := pl.stateHead(s, level, head, spare)
	if err != nil {
		return nil, err
	}
	if err := r.readCodes(rd, crc); err != nil {
		return nil, err
	}
	return r, nil
}

// stateWhat names a state in the errors of shardDataErr.
const stateWhat = "state"

// stateHead checks the header of shard s's state for level (magic,
// table key, shard, level, counts) and returns the run, with spare's
// arrays where they fit, that the rest is read into.
func (pl *ShardPlan) stateHead(s, level int, head []byte, spare *shardRun) (*shardRun, error) {
	if string(head[:8]) != magicState {
		return nil, shardDataErr(stateWhat, s, "not a shard state (magic %q)", head[:8])
	}
	if !bytes.Equal(head[8:16], pl.key[:]) {
		return nil, shardDataErr(stateWhat, s, "of another table, shard count or kernel version")
	}
	gotShard, gotLevel := int(binary.LittleEndian.Uint32(head[16:])), int(binary.LittleEndian.Uint32(head[20:]))
	r := pl.reuseRun(s, spare)
	r.level = level
	states := binary.LittleEndian.Uint64(head[24:])
	r.reached = binary.LittleEndian.Uint64(head[32:])
	r.pending = binary.LittleEndian.Uint64(head[40:])
	// An idle state (nothing pending: only the codes unseen and done)
	// serves every later level as well.
	if gotShard != s || gotLevel != level && (gotLevel > level || r.pending != 0) {
		return nil, shardDataErr(stateWhat, s, "it is the state of shard %d before level %d, want level %d", gotShard, gotLevel, level)
	}
	if states != r.states || r.reached > states || r.pending > r.reached {
		return nil, shardDataErr(stateWhat, s, "counts %d, %d, %d do not fit %d states", states, r.reached, r.pending, r.states)
	}
	return r, nil
}

// readCodes reads the rest of r's state from rd, the codes and the
// active bits through one buffer, and checks the CRC (crc holds the
// header's) and that no code lies past the last state.
func (r *shardRun) readCodes(rd io.Reader, crc hash.Hash32) error {
	s := r.s
	buf := make([]byte, 1<<16)
	tee := io.TeeReader(rd, crc)
	for w := 0; w < len(r.codes); {
		n := min(len(buf)/8, len(r.codes)-w)
		if _, err := io.ReadFull(tee, buf[:n*8]); err != nil {
			return shardDataErr(stateWhat, s, "%v", err)
		}
		for i := range n {
			r.codes[w+i] = binary.LittleEndian.Uint64(buf[i*8:])
		}
		w += n
	}
	act := make([]byte, (r.hi-r.lo+7)/8+crcLen)
	if _, err := io.ReadFull(tee, act[:len(act)-crcLen]); err != nil {
		return shardDataErr(stateWhat, s, "%v", err)
	}
	sum := crc.Sum32()
	if _, err := io.ReadFull(rd, act[len(act)-crcLen:]); err != nil {
		return shardDataErr(stateWhat, s, "%v", err)
	}
	if sum != binary.LittleEndian.Uint32(act[len(act)-crcLen:]) {
		return shardDataErr(stateWhat, s, "checksum mismatch (corrupt)")
	}
	for b := 0; b < r.hi-r.lo; b++ {
		if act[b/8]>>(b%8)&1 != 0 {
			r.active.set(b)
		}
	}
	// Codes past the last state must be 0: they are not states.
	if tail := r.states % 32; tail != 0 && r.codes[len(r.codes)-1]>>(2*tail) != 0 {
		return shardDataErr(stateWhat, s, "codes past the last state")
	}
	return nil
}

// writeState writes the run's state (the layout above) to w.
func (r *shardRun) writeState(w io.Writer) error {
	pl := r.pl
	crc := crc32.New(castagnoli)
	mw := io.MultiWriter(w, crc)
	head := pl.putHead(make([]byte, 0, stateHeadLen), magicState, r.s, r.level)
	head = binary.LittleEndian.AppendUint64(head, r.states)
	head = binary.LittleEndian.AppendUint64(head, r.reached)
	head = binary.LittleEndian.AppendUint64(head, r.pending)
	if _, err := mw.Write(head); err != nil {
		return err
	}
	buf := make([]byte, 0, 1<<16)
	for w := 0; w < len(r.codes); {
		n := min(cap(buf)/8, len(r.codes)-w)
		buf = buf[:0]
		for _, x := range r.codes[w : w+n] {
			buf = binary.LittleEndian.AppendUint64(buf, x)
		}
		if _, err := mw.Write(buf); err != nil {
			return err
		}
		w += n
	}
	act := make([]byte, (r.hi-r.lo+7)/8)
	for b := 0; b < r.hi-r.lo; b++ {
		if r.active.has(b) {
			act[b/8] |= 1 << (b % 8)
		}
	}
	if _, err := mw.Write(act); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return err
}
