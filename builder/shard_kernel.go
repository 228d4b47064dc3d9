package builder

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/puzzle"
)

// shardRun is one shard's search state in memory, decoded from or encoded
// to the state layout of shard.go.
type shardRun struct {
	pl     *ShardPlan
	s      int
	lo, hi int    // the shard's blocks (orders) [lo, hi)
	states uint64 // (hi-lo)·S
	level  int    // the level the next expand runs
	// reached counts the states that are not unseen, pending the states
	// holding levelCode(level) (the frontier, once merged).
	reached, pending uint64
	codes            stateCodes // state i of the shard is state lo·S+i of the search
	// active marks the blocks (relative to lo) that may hold frontier
	// states; next collects those of the next level.
	active, next bitset
	// values, when not nil, is the shard's table entries, set directly
	// (the in-process driver) instead of writing value logs.
	values []uint8
	// chunks, when not nil, are the output buffers of an expand before,
	// whose bytes are no longer needed: expand reuses their arrays.
	chunks []chunkOut
}

// emptyRun is shard s with every state unseen, before level 0.
func (pl *ShardPlan) emptyRun(s int) *shardRun {
	lo, hi := pl.BlockRange(s)
	states := uint64(hi-lo) * pl.sp.slotsPerBlock
	return &shardRun{
		pl: pl, s: s, lo: lo, hi: hi, states: states,
		codes:  newStateCodes(states),
		active: newBitset(hi - lo),
		next:   newBitset(hi - lo),
	}
}

// reuseRun is emptyRun, but for the codes (left as they are: the caller
// overwrites them) taken from spare when its array is large enough.
func (pl *ShardPlan) reuseRun(s int, spare *shardRun) *shardRun {
	lo, hi := pl.BlockRange(s)
	states := uint64(hi-lo) * pl.sp.slotsPerBlock
	words := (states + 31) / 32
	if spare == nil || uint64(cap(spare.codes)) < words || cap(spare.active) < len(newBitset(hi-lo)) {
		return pl.emptyRun(s)
	}
	nb := len(newBitset(hi - lo))
	r := &shardRun{
		pl: pl, s: s, lo: lo, hi: hi, states: states,
		codes:  spare.codes[:words],
		active: spare.active[:nb],
		next:   spare.next[:nb],
	}
	r.active.clear()
	r.next.clear()
	return r
}

// newRun is shard s's state before level 0 (Init): the goal state at
// level 0 in the shard that owns it.
func (pl *ShardPlan) newRun(s int) *shardRun {
	r := pl.emptyRun(s)
	S := pl.sp.slotsPerBlock
	if order := int(pl.goal / S); order >= r.lo && order < r.hi {
		r.codes.visit(pl.goal-uint64(r.lo)*S, levelCode(0))
		r.active.set(order - r.lo)
		r.reached, r.pending = 1, 1
	}
	return r
}

// shardOf is the shard owning block (order) b.
func (pl *ShardPlan) shardOf(b int) int {
	return sort.SearchInts(pl.blockLo[1:], b+1)
}

// merge marks the unseen states that batch b lists with the level's
// frontier code and returns how many it marked. It may run concurrently
// with other merges of the run (never with expand).
func (r *shardRun) merge(b []byte) (uint64, error) {
	const what = "batch"
	pl := r.pl
	from, level, err := pl.checkHead(b, magicBatch, what, r.s, batchHeadLen)
	if err != nil {
		return 0, err
	}
	to := int(binary.LittleEndian.Uint32(b[headLen:]))
	if to != r.s || from == r.s || from < 0 || from >= pl.shards || level != r.level-1 {
		return 0, shardDataErr(what, r.s, "it is a batch of shard %d for shard %d at level %d, want one for shard %d at level %d", from, to, level, r.s, r.level-1)
	}
	S := pl.sp.slotsPerBlock
	code := levelCode(r.level)
	var merged, count uint64
	err = readRecords(b[batchHeadLen:len(b)-crcLen], r.hi-r.lo, S, func(block int, slot uint64) {
		count++
		if r.codes.visit(uint64(block)*S+slot, code) {
			merged++
			r.active.set(block)
		}
	})
	if err == nil && count != binary.LittleEndian.Uint64(b[headLen+4:]) {
		err = fmt.Errorf("%d states listed, the head says %d", count, binary.LittleEndian.Uint64(b[headLen+4:]))
	}
	atomic.AddUint64(&r.reached, merged)
	atomic.AddUint64(&r.pending, merged)
	if err != nil {
		return merged, shardDataErr(what, r.s, "from shard %d: %v", from, err)
	}
	return merged, nil
}

// mergeAll merges batches with up to workers goroutines and returns the
// states marked and the bytes read.
func (r *shardRun) mergeAll(ctx context.Context, batches [][]byte, workers int) (merged, bytesIn uint64, err error) {
	var g errgroup.Group
	g.SetLimit(workers)
	var m atomic.Uint64
	for _, b := range batches {
		if b == nil {
			continue
		}
		bytesIn += uint64(len(b))
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("%w at level %d: %w", ErrCanceled, r.level, err)
			}
			n, err := r.merge(b)
			m.Add(n)
			return err
		})
	}
	err = g.Wait()
	return m.Load(), bytesIn, err
}

// levelOut is what one expand produced, chunk by chunk (chunks of blocks
// in order, so that concatenating them gives the same bytes for any
// worker count).
type levelOut struct {
	r      *shardRun
	level  int
	chunks []chunkOut
	pull   bool
	// Totals over the chunks.
	frontier, marked uint64
	sent             []uint64 // per target shard
	logged           uint64   // entries in the value log
}

// chunkOut is the output of one chunk of blocks.
type chunkOut struct {
	batches          [][]byte // per target shard: records (nil where none)
	values           []byte   // value-log records
	frontier, marked uint64
	logged           uint64
	sent             []uint64 // per target shard (nil when nothing was sent)
}

// shardScratch is one worker's buffers for expanding blocks.
type shardScratch struct {
	succ  orderSuccessors
	group [puzzle.MaxCells * puzzle.MaxCells]int32 // per order step: -1 in the shard, else the index of its target order in orders
	// orders are the distinct target orders outside the shard of the
	// block's order steps; bits[i] is the bitmap (S bits) of the slots
	// of orders[i] to send, dirty in words [wlo[i], whi[i]).
	orders   []int
	bits     [][]uint64
	wlo, whi []uint64
	ms       []uint32 // the cell sets of the block's frontier states
}

// prepare groups the block's order steps by target order.
func (sc *shardScratch) prepare(r *shardRun, order int) {
	k := r.pl.sp.k
	sc.succ.init(k, uint64(order))
	sc.orders = sc.orders[:0]
	words := (r.pl.sp.slotsPerBlock + 63) / 64
	for step := 0; step < k*k; step++ {
		np := int(sc.succ.next[step])
		if np >= r.lo && np < r.hi {
			sc.group[step] = -1
			continue
		}
		g := slices.Index(sc.orders, np)
		if g < 0 {
			g = len(sc.orders)
			sc.orders = append(sc.orders, np)
			if g == len(sc.bits) {
				sc.bits = append(sc.bits, make([]uint64, words))
				sc.wlo = append(sc.wlo, 0)
				sc.whi = append(sc.whi, 0)
			}
			sc.wlo[g], sc.whi[g] = words, 0
		}
		sc.group[step] = int32(g)
	}
}

// expand runs the level over the shard's blocks with up to workers
// goroutines: values or value log of the frontier, in-shard successors by
// push or pull, cross-shard successors into batches, then the frontier
// turned done. It advances the run to the next level.
func (r *shardRun) expand(ctx context.Context, workers int) (*levelOut, error) {
	pl := r.pl
	blocks := r.hi - r.lo
	out := &levelOut{r: r, level: r.level, sent: make([]uint64, pl.shards)}
	if r.level > MaxLevel {
		return nil, fmt.Errorf("builder: %s: distances exceed %d", pl.p, MaxLevel)
	}
	out.pull = r.pending > 0 && pl.usePull(r.level, r.pending, r.states-r.reached)
	perChunk := max(1, blocks/(workers*32))
	nChunks := (blocks + perChunk - 1) / perChunk
	out.chunks = r.takeChunks(nChunks)
	if r.pending > 0 {
		pool := sync.Pool{New: func() any { return new(shardScratch) }}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(workers)
		for c := range nChunks {
			if gctx.Err() != nil {
				break
			}
			g.Go(func() error {
				if err := gctx.Err(); err != nil {
					return err
				}
				sc := pool.Get().(*shardScratch)
				defer pool.Put(sc)
				co := &out.chunks[c]
				for b := c * perChunk; b < min((c+1)*perChunk, blocks); b++ {
					if out.pull || r.active.has(b) {
						r.expandBlock(r.lo+b, out.pull, sc, co)
					}
				}
				return nil
			})
		}
		err := g.Wait()
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("%w at level %d: %w", ErrCanceled, r.level, err)
		}
		if out.pull {
			r.finishPull()
		}
	}
	for i := range out.chunks {
		co := &out.chunks[i]
		out.frontier += co.frontier
		out.marked += co.marked
		out.logged += co.logged
		for t, n := range co.sent {
			out.sent[t] += n
		}
	}
	if out.frontier != r.pending {
		return nil, fmt.Errorf("builder: %s: shard %d level %d: %d frontier states expanded, %d expected: %w", pl.p, r.s, r.level, out.frontier, r.pending, ErrShardData)
	}
	r.level++
	r.reached += out.marked
	r.pending = out.marked
	r.active, r.next = r.next, r.active
	r.next.clear()
	return out, nil
}

// takeChunks returns n empty chunk outputs, reusing r.chunks' arrays.
func (r *shardRun) takeChunks(n int) []chunkOut {
	old := r.chunks
	r.chunks = nil
	out := make([]chunkOut, n)
	for i := range min(n, len(old)) {
		o := &old[i]
		c := &out[i]
		c.values = o.values[:0]
		if o.batches != nil && len(o.batches) == r.pl.shards {
			c.batches, c.sent = o.batches, o.sent
			for t := range c.batches {
				c.batches[t] = c.batches[t][:0]
				c.sent[t] = 0
			}
		}
	}
	return out
}

// finishPull turns the level's frontier code done in every word.
func (r *shardRun) finishPull() {
	code := levelCode(r.level)
	for w, x := range r.codes {
		r.codes[w] = x | matchCodes(x, code)*(3-code)
	}
}

// expandBlock runs the level on one block (order) of the shard.
func (r *shardRun) expandBlock(order int, pull bool, sc *shardScratch, co *chunkOut) {
	pl := r.pl
	sp := pl.sp
	S := sp.slotsPerBlock
	sc.prepare(r, order)
	rb := order - r.lo
	first := uint64(rb) * S
	end := first + S
	span := spanOf(first, end)
	code, nextCode := levelCode(r.level), levelCode(r.level+1)
	nextOdd := (pl.goalOdd + uint64(r.level) + 1) % 2 // 1: the next level's states are odd
	var values []uint8
	if r.values != nil {
		values = r.values[uint64(rb)*uint64(sp.cellSets) : uint64(rb+1)*uint64(sp.cellSets)]
	}
	sc.ms = sc.ms[:0]
	var frontier, marked uint64
	sameBlock := false
	for w := span.firstWord; w <= span.lastWord; w++ {
		mask := span.wordMask(w)
		x := atomic.LoadUint64(&r.codes[w])
		hits := matchCodes(x, code) & mask
		frontier += uint64(bits.OnesCount64(hits))
		for h := hits; h != 0; h &= h - 1 {
			slot := w<<5 + uint64(bits.TrailingZeros64(h)>>1) - first
			m := sp.slotCellSet[slot]
			if values != nil {
				if values[m] == puzzle.Unreached {
					values[m] = uint8(r.level)
				}
			} else if n := len(sc.ms); n == 0 || sc.ms[n-1] != m {
				sc.ms = append(sc.ms, m)
			}
			for _, mv := range sp.moves[sp.moveStart[slot]:sp.moveStart[slot+1]] {
				step := mv.orderStep()
				if g := sc.group[step]; g >= 0 {
					s2 := mv.slot()
					wi := s2 >> 6
					sc.bits[g][wi] |= 1 << (s2 & 63)
					sc.wlo[g] = min(sc.wlo[g], wi)
					sc.whi[g] = max(sc.whi[g], wi+1)
				} else if !pull {
					np := int(sc.succ.next[step]) - r.lo
					if r.codes.visit(uint64(np)*S+mv.slot(), nextCode) {
						marked++
						if np == rb {
							sameBlock = true
						} else {
							r.next.set(np)
						}
					}
				}
			}
		}
		if pull {
			// As the in-memory pull (blockLevel.pull): only unseen
			// states of the next level's parity can have a neighbour at
			// the level.
			parity := sp.slotParities(int64(w<<5) - int64(first))
			if nextOdd == 0 {
				parity ^= lowBits
			}
			var marks uint64
			for u := matchCodes(x, codeUnseen) & mask & parity; u != 0; u &= u - 1 {
				bit := bits.TrailingZeros64(u)
				slot := w<<5 + uint64(bit>>1) - first
				for _, mv := range sp.moves[sp.moveStart[slot]:sp.moveStart[slot+1]] {
					step := mv.orderStep()
					if sc.group[step] >= 0 {
						continue // the owner of that neighbour sends
					}
					np := uint64(int(sc.succ.next[step]) - r.lo)
					if r.codes.load(np*S+mv.slot()) == code {
						marks |= nextCode << bit
						marked++
						break
					}
				}
			}
			if marks != 0 {
				atomic.OrUint64(&r.codes[w], marks)
				sameBlock = true
			}
		} else {
			r.codes.finish(w, hits, code)
		}
	}
	if sameBlock {
		r.next.set(rb)
	}
	co.frontier += frontier
	co.marked += marked
	// The value log's record of the block.
	if len(sc.ms) > 0 {
		co.values = binary.AppendUvarint(co.values, uint64(rb))
		co.values = binary.AppendUvarint(co.values, uint64(len(sc.ms)))
		prev := uint32(0)
		for _, m := range sc.ms {
			co.values = binary.AppendUvarint(co.values, uint64(m-prev))
			prev = m
		}
		co.logged += uint64(len(sc.ms))
	}
	// The batches' records of the block, by receiving order.
	idx := make([]int, 0, len(sc.orders))
	for g := range sc.orders {
		if sc.wlo[g] < sc.whi[g] {
			idx = append(idx, g)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return sc.orders[a] - sc.orders[b] })
	for _, g := range idx {
		r.emit(sc, g, co)
	}
}

// emit appends the record of group g's bitmap to the batch of its target
// shard and clears the bitmap.
func (r *shardRun) emit(sc *shardScratch, g int, co *chunkOut) {
	pl := r.pl
	np := sc.orders[g]
	t := pl.shardOf(np)
	bm := sc.bits[g][sc.wlo[g]:sc.whi[g]]
	var n uint64
	for _, x := range bm {
		n += uint64(bits.OnesCount64(x))
	}
	if co.batches == nil {
		co.batches = make([][]byte, pl.shards)
		co.sent = make([]uint64, pl.shards)
	}
	b := co.batches[t]
	b = binary.AppendUvarint(b, uint64(np-pl.blockLo[t]))
	b = binary.AppendUvarint(b, n)
	prev := uint64(0)
	for i, x := range bm {
		base := (sc.wlo[g] + uint64(i)) << 6
		for ; x != 0; x &= x - 1 {
			slot := base + uint64(bits.TrailingZeros64(x))
			b = binary.AppendUvarint(b, slot-prev)
			prev = slot
		}
		bm[i] = 0
	}
	co.batches[t] = b
	co.sent[t] += n
	sc.wlo[g], sc.whi[g] = uint64(len(sc.bits[g])), 0
}

// batchLen is the length of the batch for shard t (0 when empty).
func (lv *levelOut) batchLen(t int) int {
	if lv.sent[t] == 0 {
		return 0
	}
	n := batchHeadLen + crcLen
	for i := range lv.chunks {
		if b := lv.chunks[i].batches; b != nil {
			n += len(b[t])
		}
	}
	return n
}

// writeBatch writes the batch for shard t to w (nothing when empty).
func (lv *levelOut) writeBatch(t int, w io.Writer) error {
	if lv.sent[t] == 0 {
		return nil
	}
	r := lv.r
	head := r.pl.putHead(make([]byte, 0, batchHeadLen), magicBatch, r.s, lv.level)
	head = binary.LittleEndian.AppendUint32(head, uint32(t))
	head = binary.LittleEndian.AppendUint64(head, lv.sent[t])
	pieces := [][]byte{head}
	for i := range lv.chunks {
		if b := lv.chunks[i].batches; b != nil && len(b[t]) > 0 {
			pieces = append(pieces, b[t])
		}
	}
	return writeWithCRC(w, pieces)
}

// batch is the batch for shard t, nil when empty.
func (lv *levelOut) batch(t int) []byte {
	n := lv.batchLen(t)
	if n == 0 {
		return nil
	}
	b := &sliceWriter{b: make([]byte, 0, n)}
	_ = lv.writeBatch(t, b)
	return b.b
}

// writeValueLog writes the level's value log to w (nothing when the
// shard had no frontier state or keeps its values in memory).
func (lv *levelOut) writeValueLog(w io.Writer) error {
	if lv.logged == 0 {
		return nil
	}
	r := lv.r
	head := r.pl.putHead(make([]byte, 0, valueHeadLen), magicValueLog, r.s, lv.level)
	head = binary.LittleEndian.AppendUint64(head, lv.logged)
	pieces := [][]byte{head}
	for i := range lv.chunks {
		if v := lv.chunks[i].values; len(v) > 0 {
			pieces = append(pieces, v)
		}
	}
	return writeWithCRC(w, pieces)
}

// valueLog is the level's value log, nil when empty.
func (lv *levelOut) valueLog() []byte {
	if lv.logged == 0 {
		return nil
	}
	b := &sliceWriter{}
	_ = lv.writeValueLog(b)
	return b.b
}

// fillStats sets the counts of the level in st (not Merged, BytesIn,
// StateBytes).
func (lv *levelOut) fillStats(st *StepStats) {
	st.Shard, st.Level, st.Pull = lv.r.s, lv.level, lv.pull
	st.Frontier, st.Marked = lv.frontier, lv.marked
	for t := range lv.sent {
		st.Sent += lv.sent[t]
		st.BytesOut += uint64(lv.batchLen(t))
	}
	if lv.logged > 0 {
		st.ValueLogBytes = valueHeadLen + crcLen
		for i := range lv.chunks {
			st.ValueLogBytes += uint64(len(lv.chunks[i].values))
		}
	}
}

// writeWithCRC writes the pieces and their CRC-32C.
func writeWithCRC(w io.Writer, pieces [][]byte) error {
	var crc uint32
	for _, p := range pieces {
		crc = crc32.Update(crc, castagnoli, p)
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc))
	return err
}

// sliceWriter appends to a byte slice.
type sliceWriter struct{ b []byte }

func (s *sliceWriter) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}
