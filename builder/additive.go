package builder

// Index anatomy of the additive search
//
// Five words, used with these meanings throughout this file:
//
//   - Placement: the cells of the k pattern tiles. Its table index is
//     puzzle's cellset-order rank P·C(N,k) + M (puzzle.RankingCellsetOrder):
//     M in [0, C(N,k)) is the colexicographic rank of the set of occupied
//     cells (the "cell set") and P in [0, k!) is the Lehmer rank of the order
//     of the tiles within those cells (the "order").
//   - State: a placement plus the region of the blank, where a region is a
//     connected component of the cells that hold no pattern tile. The blank
//     moves inside its region at no cost, so its cell does not matter.
//     Regions depend on the cell set only; labelRegions numbers them 0, 1,
//     ... by their smallest cell.
//   - Slot: a (cell set, region) pair, numbered cell set by cell set:
//     slot = slotStart[M] + region, in [0, S) with S = Σ_M regions(M)
//     (space.slotsPerBlock). Slots do not depend on the order.
//   - Block: the S states that share one order P. State (P, M, region) has
//     index P·S + slot, in [0, k!·S). A block is the unit of parallel work:
//     one worker owns it for a whole level.
//     Its table entries are the placements with order P, which the
//     cellset-order layout (P major, M minor) puts in one contiguous range,
//     values[P·C(N,k) : (P+1)·C(N,k)], entry M of the range being cell set
//     M. That is why a block's values start at P·C(N,k) and why its owner
//     writes them without atomics. The layout is a property of the ranking
//     in package puzzle (Pattern.cellsetOrder says so too): a ranking with M
//     major would need atomics here.
//   - Packed move: a move of a pattern tile into the blank's region,
//     precomputed per slot as a uint32 (packedMove): bits 8..31 hold the
//     successor's slot, bits 0..7 hold j·k + j2, where j and j2 are the
//     moving tile's positions among the sorted occupied cells before and
//     after the move. The successor's slot depends on the slot alone; its
//     order depends on P and (j, j2) alone, and is looked up in the block's
//     orderSuccessors table. So the successor of state P·S + slot by move mv
//     is orderSuccessors.next[mv.orderStep()]·S + mv.slot().
//
// Example: 4x4 board, tiles 1,2,3. There are C(16,3) = 560 cell sets and
// 3! = 6 orders, hence 6 blocks and 3360 table entries. Most cell sets
// leave one region; cell set {1,2,4} (M = 6) cuts corner 0 off and leaves
// two. In all S = 632 slots, so 6·632 = 3792 states.
//
// The state array (stateCodes) holds 2 bits per state; see stateCodes for
// the level code and the invariant the two kernels rely on.

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/puzzle"
)

// occupiedCell is the region label of a cell that holds a pattern tile.
const occupiedCell = 0xFF

// maxSlotsPerBlock bounds S, the slots of one block (Σ regions over all
// cell sets), so that a successor slot fits the 24 bits of a packedMove.
const maxSlotsPerBlock = 1 << 24

// packedMove is one move of a slot: the successor slot in bits 8..31 and
// the order step j·k + j2 in bits 0..7 (see the index anatomy above).
type packedMove uint32

func newPackedMove(slot uint32, orderStep int) packedMove {
	return packedMove(slot<<8 | uint32(orderStep))
}

// slot is the successor's slot.
func (mv packedMove) slot() uint64 { return uint64(mv >> 8) }

// orderStep is the index j·k + j2 into orderSuccessors.next.
func (mv packedMove) orderStep() uint32 { return uint32(mv & 0xFF) }

// space is the abstract state space of an additive pattern database: the
// slots of one block and the packed moves of every slot (see the index
// anatomy at the top of this file). It does not depend on the order, so
// one space serves all k! blocks.
type space struct {
	k             int    // pattern tiles
	cellSets      int    // C(N,k): the range of M
	orders        int    // k!: the range of P, the number of blocks
	slotsPerBlock uint64 // S = Σ_M regions(M)

	slotStart   []uint32     // len cellSets+1: slots of cell set M are [slotStart[M], slotStart[M+1]); slotStart[cellSets] = S
	slotCellSet []uint32     // len S: the cell set M of each slot
	moveStart   []uint32     // len S+1: the moves of slot s are moves[moveStart[s]:moveStart[s+1]]
	moves       []packedMove // the moves of all slots, slot by slot
	// oddSlots has bit s%64 of word s/64 set when slot s is odd: the sum of
	// row+column over its occupied cells is odd. A move carries one
	// pattern tile to a neighbouring cell, so it changes the parity: the
	// states at level L all have the parity of the goal's slot plus L
	// (mod 2), which lets the pull kernel skip the other half.
	oddSlots []uint64
}

// newSpace labels the regions of every cell set and packs the moves of
// every slot. It fails when k > 16 (an order step would not fit 8 bits) or
// when S reaches 2^24.
func newSpace(p *puzzle.Pattern) (*space, error) {
	g := p.Geom
	n, k := g.N(), p.K()
	sp := &space{k: k, cellSets: int(p.Combinations()), orders: int(p.Factorial(k))}
	if err := CheckLimits(p); err != nil {
		return nil, err
	}
	sp.slotStart = make([]uint32, sp.cellSets+1)
	// regionOfCell[M*n+c] is the region label of cell c in cell set M.
	regionOfCell := make([]uint8, sp.cellSets*n)
	neighbors := g.Neighbors()
	// Pass 1: the regions, hence the slots, of every cell set, and the
	// number of moves.
	totalMoves := 0
	for m := 0; m < sp.cellSets; m++ {
		mask := p.CombinationUnrank(uint64(m), k)
		regions, moves := cellSetSlots(neighbors, mask, regionOfCell[m*n:(m+1)*n])
		totalMoves += moves
		sp.slotStart[m+1] = sp.slotStart[m] + uint32(regions)
		if sp.slotStart[m+1] >= maxSlotsPerBlock {
			return nil, fmt.Errorf("builder: %s: more than 2^24 (cell set, blank region) slots per block, the builder's limit; use fewer tiles", p)
		}
	}
	sp.slotsPerBlock = uint64(sp.slotStart[sp.cellSets])
	sp.slotCellSet = make([]uint32, sp.slotsPerBlock)
	sp.oddSlots = make([]uint64, (sp.slotsPerBlock+63)/64)
	var oddCells uint64 // the cells whose row+column is odd
	for c := 0; c < n; c++ {
		if (g.Row(c)+g.Col(c))%2 == 1 {
			oddCells |= 1 << c
		}
	}
	for m := 0; m < sp.cellSets; m++ {
		odd := bits.OnesCount64(p.CombinationUnrank(uint64(m), k)&oddCells) % 2
		for s := sp.slotStart[m]; s < sp.slotStart[m+1]; s++ {
			sp.slotCellSet[s] = uint32(m)
			sp.oddSlots[s/64] |= uint64(odd) << (s % 64)
		}
	}
	// Pass 2: the moves of every slot. A pattern tile next to the blank's
	// region steps into it; the blank ends in the cell the tile left, so
	// the successor's region is the one of that cell in the new cell set.
	sp.moveStart = make([]uint32, sp.slotsPerBlock+1)
	sp.moves = make([]packedMove, 0, totalMoves)
	var sortedCells [puzzle.MaxCells]uint8
	for m := 0; m < sp.cellSets; m++ {
		mask := p.CombinationUnrank(uint64(m), k)
		for j, rest := 0, mask; rest != 0; j++ {
			sortedCells[j] = uint8(bits.TrailingZeros64(rest))
			rest &= rest - 1
		}
		regionOf := regionOfCell[m*n : (m+1)*n]
		for slot := sp.slotStart[m]; slot < sp.slotStart[m+1]; slot++ {
			blankRegion := uint8(slot - sp.slotStart[m])
			for j := 0; j < k; j++ {
				from := int(sortedCells[j])
				for _, dir := range puzzle.Directions {
					to, ok := g.Step(from, dir)
					if !ok || regionOf[to] != blankRegion {
						continue
					}
					nextMask := mask&^(1<<from) | 1<<to
					j2 := bits.OnesCount64(nextMask & (1<<to - 1))
					nextSet := p.CombinationRank(nextMask)
					nextSlot := sp.slotStart[nextSet] + uint32(regionOfCell[int(nextSet)*n+from])
					sp.moves = append(sp.moves, newPackedMove(nextSlot, j*k+j2))
				}
			}
			sp.moveStart[slot+1] = uint32(len(sp.moves))
		}
	}
	return sp, nil
}

// slotParities returns, for the 32 slots from `from` on (from may be
// negative), bit 2j set when slot from+j is odd; slots outside [0, S) read
// as even.
func (sp *space) slotParities(from int64) uint64 {
	var v uint64 // bit j: slot from+j is odd
	if from >= 0 {
		i, sh := from/64, uint(from%64)
		if i < int64(len(sp.oddSlots)) {
			v = sp.oddSlots[i] >> sh
			if sh > 0 && i+1 < int64(len(sp.oddSlots)) {
				v |= sp.oddSlots[i+1] << (64 - sh)
			}
		}
	} else if from > -32 {
		v = sp.oddSlots[0] << uint(-from)
	}
	// Spread the low 32 bits to the even bits.
	v &= 0xFFFFFFFF
	v = (v | v<<16) & 0x0000FFFF0000FFFF
	v = (v | v<<8) & 0x00FF00FF00FF00FF
	v = (v | v<<4) & 0x0F0F0F0F0F0F0F0F
	v = (v | v<<2) & 0x3333333333333333
	v = (v | v<<1) & lowBits
	return v
}

// slotOdd reports whether slot s is odd (see space.oddSlots).
func (sp *space) slotOdd(s uint64) bool { return sp.oddSlots[s/64]>>(s%64)&1 != 0 }

// stateCount is the number of abstract states: k!·S.
func (sp *space) stateCount() uint64 { return uint64(sp.orders) * sp.slotsPerBlock }

// indexBytes is the memory of the per-slot indexes.
func (sp *space) indexBytes() uint64 {
	return uint64(len(sp.slotStart)+len(sp.slotCellSet)+len(sp.moveStart)+cap(sp.moves))*4 + uint64(len(sp.oddSlots))*8
}

// orderSuccessors is, for one block (order P), the order reached when the
// tile at sorted position j moves to sorted position j2: next[j·k+j2], for
// all j, j2 < k.
type orderSuccessors struct {
	next [maxOrderSteps]uint32
}

// maxOrderSteps bounds j·k + j2 (8 bits in a packedMove): k <= 16.
const maxOrderSteps = 256

// init fills the table for order P = order of a k-tile pattern.
func (t *orderSuccessors) init(k int, order uint64) {
	// pos[i] = sorted position of tile i under this order: the Lehmer
	// unrank of a k-permutation of 0..k-1.
	var pos, nextPos [puzzle.MaxCells]uint8
	puzzle.LehmerUnrank(order, k, k, pos[:k])
	for j := 0; j < k; j++ {
		for j2 := 0; j2 < k; j2++ {
			// The tile at j goes to j2; the tiles between shift by one
			// towards j.
			for i := 0; i < k; i++ {
				x := pos[i]
				switch {
				case x == uint8(j):
					x = uint8(j2)
				case j2 > j && x > uint8(j) && x <= uint8(j2):
					x--
				case j2 < j && x >= uint8(j2) && x < uint8(j):
					x++
				}
				nextPos[i] = x
			}
			t.next[j*k+j2] = uint32(puzzle.LehmerRank(nextPos[:k], k))
		}
	}
}

// stateCodes is the state array of the additive search: a 2-bit code per
// state, 32 per 64-bit word (state i is bits 2(i%32)..2(i%32)+1 of word
// i/32), shared by the workers of a level. Two bits per state as in Korf's
// two-bit breadth-first search (Korf 2008, "Minimizing disk I/O in two-bit
// breadth-first search", AAAI), with his four states: unseen, frontier,
// next and done, so that every state is expanded once, at its own level.
//
// The codes: 0 (codeUnseen) for a state not reached yet, 3 (codeDone) for a
// state of a finished level, and 1 and 2 for the frontier and the next
// level, which swap roles from one level to the next: at level L the
// frontier holds levelCode(L) = L%2 + 1 and the states the level reaches
// are marked levelCode(L+1) = 3 - levelCode(L), which is the frontier code
// of level L+1. No pass is needed to turn "next" into "frontier"; a
// frontier state becomes done by OR-ing the other bit into it (c | (3-c)
// = 3), an atomic OR that cannot undo a concurrent mark:
//
//   - the push kernel turns each frontier state done right after expanding
//     it (only the block's owner reads its frontier codes, and successors
//     are marked only over code 0);
//   - the pull kernel reads its neighbours' frontier codes during the
//     whole level, so it turns nothing done; finishPull rewrites the
//     level's frontier code to done in one pass over the array after it.
//
// So while level L runs, the array holds exactly: 0 (unseen), code(L) (the
// states at level L, except those a push has finished), code(L+1) (states
// reached at L+1) and 3 (the levels before L). Codes change only from 0 to
// code(L+1) and from code(L) to 3, and all writers of a level write the
// same codes, so the array after a level does not depend on scheduling.
type stateCodes []uint64

const (
	codeUnseen = 0
	codeDone   = 3
)

func newStateCodes(n uint64) stateCodes { return make(stateCodes, (n+31)/32) }

// levelCode is the code of the states first reached at level L, the
// frontier code while level L runs.
func levelCode(level int) uint64 { return uint64(level%2 + 1) }

// visit sets state i to code if it is unseen (code 0) and reports whether
// this call made the change.
func (a stateCodes) visit(i uint64, code uint64) bool {
	w := &a[i>>5]
	sh := (i & 31) * 2
	if atomic.LoadUint64(w)>>sh&3 != codeUnseen {
		return false
	}
	return atomic.OrUint64(w, code<<sh)>>sh&3 == codeUnseen
}

// load returns the code of state i.
func (a stateCodes) load(i uint64) uint64 {
	return atomic.LoadUint64(&a[i>>5]) >> ((i & 31) * 2) & 3
}

// finish turns done the states of word w marked in hits (bit 2j for state
// j), which hold code (1 or 2): it ORs in the other bit of the pair.
func (a stateCodes) finish(w uint64, hits, code uint64) {
	if hits != 0 {
		atomic.OrUint64(&a[w], hits*(3-code))
	}
}

// lowBits has bit 2j set for every state j of a word.
const lowBits = 0x5555555555555555

// matchCodes returns a mask with bit 2j set exactly for the codes j of x
// equal to code.
func matchCodes(x, code uint64) uint64 {
	y := x ^ code*lowBits
	return ^(y | y>>1) & lowBits
}

// defaultUsePull is the default direction rule of the in-memory search
// (Beamer, Asanović & Patterson 2012, "Direction-optimizing breadth-first
// search", SC'12): while the frontier is small, its states push to their
// successors; once it exceeds a sixth of the unvisited states, unvisited
// states pull instead, each stopping at its first neighbour on the
// frontier. The pull kernel looks only at the unvisited states of the
// next level's parity (space.oddSlots), so a pull costs about a fifth of a
// push per state: on the 24-puzzle 6-tile table 40-50 ns per unvisited
// state against about 200 ns per frontier state, measured level by level
// with one worker, and pull was the cheaper kernel from the level where
// the frontier is a fifth of the unvisited states (0.15: push cheaper,
// 0.20: pull cheaper).
func defaultUsePull(level int, frontier, unvisited uint64) bool { return 6*frontier > unvisited }

// pullMinShare bounds the in-memory search's pulls at the last levels: it
// pulls only while the frontier holds at least 1/pullMinShare of all the
// states. A pull level scans every state whatever the frontier (the codes,
// the frontier bits it fills and the codes it rewrites): 95 to 140 ms of
// CPU per level on the 24-puzzle 6-tile table (181,008,000 states, one
// worker, levels 30 to 35 with 282,320 to 24 frontier states), about
// 0.6 ns per state, against about 170 ns per frontier state for a push,
// so below about 1/300 of the states pushing is cheaper.
const pullMinShare = 256

// shardUsePull is the direction rule of the shard kernel (shard.go), whose
// pull looks at every unvisited state: there it pulls once the frontier
// exceeds half of the unvisited states. (Of 1x, 2x and 4x, the 2x switch
// point was fastest on the 7-tile 15-puzzle table.)
func shardUsePull(level int, frontier, unvisited uint64) bool { return 2*frontier > unvisited }

// additiveSearch is the breadth-first search over the abstract states of
// an additive pattern database, one level at a time.
type additiveSearch struct {
	sp     *space
	codes  stateCodes
	values []uint8 // the table being built, puzzle.Unreached until set
	// states, for a zero-aware build (zeroaware.go), is the level of every
	// state (index P·S + slot), nil otherwise.
	states []uint8
	// active marks the blocks that hold states at the current level (push
	// scans only those); next collects the blocks of the next level.
	active, next bitset
	run          *levelRunner
	frontier     uint64 // states at the current level
	// usePull chooses the kernel of a level; tests force one kernel.
	usePull func(level int, frontier, unvisited uint64) bool
	// expanded counts the frontier states the push kernel expanded (each
	// state at most once, at its own level); tests check it.
	expanded atomic.Uint64
	// Blocks are handed to the workers in chunks of blocksPerChunk:
	// orders/(8·workers), so that a chunk's blocks share the reads of the
	// per-slot indexes (slotWindow) while each worker still gets 8 chunks
	// a level to even out the load.
	blocksPerChunk, chunks int
	// goalOdd is 1 when the goal's slot is odd (space.oddSlots), else 0.
	goalOdd uint64
	// stateBits holds a bit per state, bit i%64 of word i/64 for state
	// i (frontierBytes), whose meaning is bitsMode: during a pull level
	// the bit is set for the states at the level (the pull kernel reads
	// its neighbours there instead of in codes); during a push level it
	// is set for every state seen (code not codeUnseen), and the push
	// kernel tests and sets it before it touches a successor's code, so
	// that a successor already seen (most of them) costs a read of 22.6
	// MB instead of 45 MB on the 24-puzzle 6-tile table.
	stateBits []uint64
	bitsMode  int
}

// The meanings of additiveSearch.stateBits.
const (
	bitsSeen     = iota // a bit per state seen, for the push kernel
	bitsFrontier        // a bit per state at the level, for the pull kernel
)

// newAdditiveSearch prepares the search of p with level 0 set: the goal
// placement with the blank in its goal region.
func newAdditiveSearch(p *puzzle.Pattern, opt Options) (*additiveSearch, error) {
	sp, err := newSpace(p)
	if err != nil {
		return nil, err
	}
	total := sp.stateCount()
	s := &additiveSearch{
		sp:       sp,
		codes:    newStateCodes(total),
		values:   make([]uint8, p.Size()),
		active:   newBitset(sp.orders),
		next:     newBitset(sp.orders),
		run:      &levelRunner{opt: opt, total: total},
		frontier: 1,
		usePull:  opt.usePull,
	}
	if s.usePull == nil {
		s.usePull = func(level int, frontier, unvisited uint64) bool {
			return defaultUsePull(level, frontier, unvisited) && frontier >= total/pullMinShare
		}
	}
	for i := range s.values {
		s.values[i] = puzzle.Unreached
	}
	goalCells := p.GoalCells()
	var goalMask uint64
	for _, c := range goalCells {
		goalMask |= 1 << c
	}
	goalSet := p.CombinationRank(goalMask)
	goalOrder := p.OrderRank(goalMask, goalCells)
	blankRegion := goalRegion(p, goalMask, p.GoalPositions()[0])
	goalSlot := uint64(sp.slotStart[goalSet]) + uint64(blankRegion)
	s.codes.visit(goalOrder*sp.slotsPerBlock+goalSlot, levelCode(0))
	if sp.slotOdd(goalSlot) {
		s.goalOdd = 1
	}
	s.stateBits = make([]uint64, frontierBytes(total)/8)
	s.bitsMode = bitsSeen
	goal := goalOrder*sp.slotsPerBlock + goalSlot
	s.stateBits[goal>>6] |= 1 << (goal & 63)
	s.active.set(int(goalOrder))
	s.run.reached.Store(1)
	s.blocksPerChunk = max(1, sp.orders/(opt.Workers*8))
	s.chunks = (sp.orders + s.blocksPerChunk - 1) / s.blocksPerChunk
	return s, nil
}

// done reports whether the last level reached no new state.
func (s *additiveSearch) done() bool { return !s.active.anySet() }

// level runs BFS level `level`: it records the values of the placements
// whose first state is at this level and marks the states of level+1,
// with the push or the pull kernel as s.usePull decides. It returns the
// number of states marked.
func (s *additiveSearch) level(ctx context.Context, level int) (uint64, error) {
	pull := s.usePull(level, s.frontier, s.run.total-s.run.reached.Load())
	if pull {
		if err := s.fillFrontierBits(ctx, level); err != nil {
			return 0, err
		}
	} else if s.bitsMode != bitsSeen {
		if err := s.fillSeenBits(ctx, level); err != nil {
			return 0, err
		}
	}
	added, err := s.run.run(ctx, level, s.chunks, func(chunk int) uint64 {
		first := chunk * s.blocksPerChunk
		last := min(first+s.blocksPerChunk, s.sp.orders)
		blocks := make([]blockLevel, 0, last-first)
		succ := make([]orderSuccessors, last-first)
		for order := first; order < last; order++ {
			if !pull && !s.active.has(order) {
				continue
			}
			succ[order-first].init(s.sp.k, uint64(order))
			b := s.block(order, level, &succ[order-first])
			b.stateBits = s.stateBits
			blocks = append(blocks, b)
		}
		// The chunk's blocks run window by window (see slotWindow).
		var added uint64
		for lo := uint64(0); lo < s.sp.slotsPerBlock; lo += slotWindow {
			hi := min(lo+slotWindow, s.sp.slotsPerBlock)
			for i := range blocks {
				b := blocks[i].window(lo, hi)
				if pull {
					n := b.pull()
					if n > 0 {
						s.next.set(b.order)
					}
					added += n
				} else {
					n, expanded := b.push(s.next)
					added += n
					s.expanded.Add(expanded)
				}
			}
		}
		return added
	})
	if err != nil {
		return 0, err
	}
	if pull {
		if err := s.finishPull(ctx, level); err != nil {
			return 0, err
		}
	}
	s.frontier = added
	s.active, s.next = s.next, s.active
	s.next.clear()
	return added, nil
}

func buildAdditive(ctx context.Context, p *puzzle.Pattern, opt Options) ([]uint8, error) {
	s, err := newAdditiveSearch(p, opt)
	if err != nil {
		return nil, err
	}
	if err := s.runAll(ctx, p); err != nil {
		return nil, err
	}
	return s.values, nil
}

// runAll runs the search of p level by level until no state is left,
// and checks that every abstract state was reached.
func (s *additiveSearch) runAll(ctx context.Context, p *puzzle.Pattern) error {
	for level := 0; !s.done(); level++ {
		if level > MaxLevel {
			return fmt.Errorf("builder: %s: distances exceed %d", p, MaxLevel)
		}
		if _, err := s.level(ctx, level); err != nil {
			return err
		}
	}
	if got, total := s.run.reached.Load(), s.run.total; got != total {
		return fmt.Errorf("builder: %s: %d of %d abstract states unreached", p, total-got, total)
	}
	return nil
}

// finishPull is the rewrite pass after a pull level: every state still at
// the level's frontier code becomes done (see stateCodes). Nothing else
// writes the array meanwhile.
func (s *additiveSearch) finishPull(ctx context.Context, level int) error {
	code := levelCode(level)
	return s.wordPass(ctx, level, uint64(len(s.codes)), func(lo, hi uint64) {
		for w := lo; w < hi; w++ {
			x := s.codes[w]
			s.codes[w] = x | matchCodes(x, code)*(3-code)
		}
	})
}

// frontierBytes is the memory of additiveSearch.stateBits for a search
// of `states` states: a bit per state, in whole 64-bit words.
func frontierBytes(states uint64) uint64 { return (states + 63) / 64 * 8 }

// fillFrontierBits sets stateBits from codes before a pull level: a bit
// per state at the level. The pull kernel's reads of its neighbours are
// random across the whole search; a bit per state instead of a 2-bit code
// halves the memory they range over (22.6 MB instead of 45 MB for the
// 24-puzzle 6-tile table), so that more of them hit the cache.
func (s *additiveSearch) fillFrontierBits(ctx context.Context, level int) error {
	s.bitsMode = bitsFrontier
	code := levelCode(level)
	codes, fb := s.codes, s.stateBits
	return s.wordPass(ctx, level, uint64(len(fb)), func(lo, hi uint64) {
		for i := lo; i < hi; i++ {
			var lo32, hi32 uint64
			if 2*i < uint64(len(codes)) {
				lo32 = packEvenBits(matchCodes(codes[2*i], code))
			}
			if 2*i+1 < uint64(len(codes)) {
				hi32 = packEvenBits(matchCodes(codes[2*i+1], code))
			}
			fb[i] = lo32 | hi32<<32
		}
	})
}

// fillSeenBits sets stateBits from codes before a push level that follows
// a pull level: a bit per state seen. (Push levels keep it up to date
// themselves.)
func (s *additiveSearch) fillSeenBits(ctx context.Context, level int) error {
	s.bitsMode = bitsSeen
	codes, fb := s.codes, s.stateBits
	return s.wordPass(ctx, level, uint64(len(fb)), func(lo, hi uint64) {
		for i := lo; i < hi; i++ {
			var lo32, hi32 uint64
			if 2*i < uint64(len(codes)) {
				lo32 = packEvenBits(^matchCodes(codes[2*i], codeUnseen) & lowBits)
			}
			if 2*i+1 < uint64(len(codes)) {
				hi32 = packEvenBits(^matchCodes(codes[2*i+1], codeUnseen) & lowBits)
			}
			fb[i] = lo32 | hi32<<32
		}
	})
}

// packEvenBits gathers bits 0, 2, ..., 62 of x into bits 0..31 (the odd
// bits of x must be 0).
func packEvenBits(x uint64) uint64 {
	x = (x | x>>1) & 0x3333333333333333
	x = (x | x>>2) & 0x0F0F0F0F0F0F0F0F
	x = (x | x>>4) & 0x00FF00FF00FF00FF
	x = (x | x>>8) & 0x0000FFFF0000FFFF
	x = (x | x>>16) & 0x00000000FFFFFFFF
	return x
}

// wordPass runs f over [0, words) split into ranges among the workers,
// between the levels (nothing else runs meanwhile).
func (s *additiveSearch) wordPass(ctx context.Context, level int, words uint64, f func(lo, hi uint64)) error {
	const wordsPerChunk = 1 << 14
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.run.opt.Workers)
	for lo := uint64(0); lo < words; lo += wordsPerChunk {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			f(lo, min(lo+wordsPerChunk, words))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w at level %d: %w", ErrCanceled, level, err)
	}
	return nil
}

// blockLevel is the shared start of the push and pull kernels: one block
// (order) at one level, with its state range, its table entries and the
// word-boundary filter.
type blockLevel struct {
	sp     *space
	codes  stateCodes
	succ   *orderSuccessors
	values []uint8 // the block's table entries, values[order·C(N,k):(order+1)·C(N,k)]
	states []uint8 // zero-aware build: the block's state levels, states[first:first+S]; else nil
	// stateBits is additiveSearch.stateBits: seen bits during a push
	// level, frontier bits during a pull level.
	stateBits []uint64
	order     int
	level     int
	// nextOdd is 1 when the states of level+1 are odd (space.oddSlots).
	nextOdd uint64
	first   uint64 // the block's states are [first, first+S)
	// code and nextCode are levelCode(level) and levelCode(level+1).
	code, nextCode uint64
	// The word-boundary filter of the block's states (of its window, see
	// window).
	wordSpan
}

// wordSpan is the word-boundary filter of a run of states [first, end)
// in a stateCodes array, shared by the in-memory and the shard kernels.
// Blocks are not aligned to the 32 states of a word: the first and the
// last word of a block may hold states of the neighbouring blocks, which
// belong to another worker. A kernel reads a word's codes whole and ANDs
// them with wordMask(w), which keeps exactly the states of the run. Codes
// are written by atomic OR only, so two workers sharing a word never lose
// each other's marks.
type wordSpan struct {
	firstWord, lastWord uint64
	firstMask, lastMask uint64
}

// spanOf is the wordSpan of states [first, end), first < end.
func spanOf(first, end uint64) wordSpan {
	s := wordSpan{firstWord: first >> 5, lastWord: (end - 1) >> 5, firstMask: lowBits &^ (1<<((first&31)*2) - 1), lastMask: lowBits}
	if end&31 != 0 {
		s.lastMask = lowBits & (1<<((end&31)*2) - 1)
	}
	return s
}

// wordMask is the mask (bit 2j for state j) of the states of word w that
// belong to the run.
func (s *wordSpan) wordMask(w uint64) uint64 {
	m := uint64(lowBits)
	if w == s.firstWord {
		m &= s.firstMask
	}
	if w == s.lastWord {
		m &= s.lastMask
	}
	return m
}

// slotWindow is the number of slots the kernels run through in one block
// before they go on to the same slots of the chunk's next block. The
// per-slot indexes (space.moves, moveStart, slotCellSet: about 51 bytes a
// slot on the 24-puzzle 6-tile table, 12.8 MB in all) are the same for
// every block; run block after block, a kernel reads all of them from
// memory again for every block, while window by window the chunk's blocks
// share one read (1024 slots: about 52 KB, which stays in the level-2
// cache with the window's codes and bits of every block). Of 1024, 2048
// and 4096 slots, with chunks of orders/(8·workers) and
// orders/(32·workers) blocks, 1024 slots and the larger chunks were the
// fastest on that table (see blocksPerChunk).
const slotWindow = 1024

// window returns b restricted to the states of slots [lo, hi) of its
// block (0 <= lo < hi <= S): its word range and word-boundary filter
// cover those states only, so that the windows of a block, run one after
// the other, run each of its states once.
func (b blockLevel) window(lo, hi uint64) blockLevel {
	b.wordSpan = spanOf(b.first+lo, b.first+hi)
	return b
}

// block prepares the kernels of block `order` at `level`; succ must hold
// the block's orderSuccessors.
func (s *additiveSearch) block(order, level int, succ *orderSuccessors) blockLevel {
	sp := s.sp
	first := uint64(order) * sp.slotsPerBlock
	end := first + sp.slotsPerBlock
	b := blockLevel{
		sp:       sp,
		codes:    s.codes,
		succ:     succ,
		values:   s.values[uint64(order)*uint64(sp.cellSets) : uint64(order+1)*uint64(sp.cellSets)],
		order:    order,
		level:    level,
		nextOdd:  (s.goalOdd + uint64(level) + 1) % 2,
		first:    first,
		code:     levelCode(level),
		nextCode: levelCode(level + 1),
	}
	if s.states != nil {
		b.states = s.states[first:end]
	}
	return b.window(0, sp.slotsPerBlock)
}

// slot is the slot of the state at bit `bit` (even) of word w.
func (b *blockLevel) slot(w uint64, bit int) uint64 {
	return w<<5 + uint64(bit>>1) - b.first
}

// frontier returns the mask of the block's states in word w (whose codes
// are x) that hold the level's code, after recording the level as the
// value of their placements where none is set yet: the first region of a
// placement to be reached gives the minimum over its regions. A
// zero-aware build also records the level of every such state: each
// state holds the frontier code at its own level only.
func (b *blockLevel) frontier(w, x uint64) uint64 {
	hits := matchCodes(x, b.code) & b.wordMask(w)
	for h := hits; h != 0; h &= h - 1 {
		slot := b.slot(w, bits.TrailingZeros64(h))
		if b.states != nil {
			b.states[slot] = uint8(b.level)
		}
		m := b.sp.slotCellSet[slot]
		if b.values[m] == puzzle.Unreached {
			b.values[m] = uint8(b.level)
		}
	}
	return hits
}

// push is the top-down kernel: every state of the block at the level (see
// frontier) marks its unseen successors with the next level's code, in
// any block, and sets the successors' blocks in next; then it is done
// (stateCodes.finish). It returns the number of states it marked and the
// number it expanded.
//
// The seen bits (stateBits) decide: a successor whose bit is set is
// skipped without reading its code, and the worker whose atomic OR sets
// the bit owns the state and ORs in its code (only push writes an unseen
// state's code, so nobody else writes those 2 bits meanwhile).
func (b *blockLevel) push(next bitset) (added, expanded uint64) {
	sp := b.sp
	seen := b.stateBits
	sameBlock := false
	for w := b.firstWord; w <= b.lastWord; w++ {
		frontier := b.frontier(w, atomic.LoadUint64(&b.codes[w]))
		expanded += uint64(bits.OnesCount64(frontier))
		for hits := frontier; hits != 0; hits &= hits - 1 {
			slot := b.slot(w, bits.TrailingZeros64(hits))
			for _, mv := range sp.moves[sp.moveStart[slot]:sp.moveStart[slot+1]] {
				nextOrder := b.succ.next[mv.orderStep()]
				i := uint64(nextOrder)*sp.slotsPerBlock + mv.slot()
				sw, bit := &seen[i>>6], uint64(1)<<(i&63)
				if atomic.LoadUint64(sw)&bit == 0 && atomic.OrUint64(sw, bit)&bit == 0 {
					atomic.OrUint64(&b.codes[i>>5], b.nextCode<<((i&31)*2))
					added++
					if int(nextOrder) == b.order {
						sameBlock = true
					} else {
						next.set(int(nextOrder))
					}
				}
			}
		}
		b.codes.finish(w, frontier, b.code)
	}
	if sameBlock {
		next.set(b.order)
	}
	return added, expanded
}

// pull is the bottom-up kernel: it records the values of the block's states
// at the level (see frontier), and marks with the next level's code every
// unseen state of the block that has a neighbour at the level (moves are
// reversible, so the neighbours are the successors). Only unseen states of
// the next level's parity are looked at (space.oddSlots): the others have
// no neighbour at the level. Only this block's states are written, one
// word at a time. The level's states stay at the frontier code, which
// other blocks read, until finishPull. It returns the number of states it
// marked. It reads the neighbours' codes in stateBits (frontier bits).
func (b *blockLevel) pull() uint64 {
	sp := b.sp
	fb := b.stateBits
	var added uint64
	for w := b.firstWord; w <= b.lastWord; w++ {
		x := atomic.LoadUint64(&b.codes[w])
		b.frontier(w, x)
		var marks uint64
		parity := sp.slotParities(int64(w<<5) - int64(b.first))
		if b.nextOdd == 0 {
			parity ^= lowBits
		}
		for hits := matchCodes(x, codeUnseen) & b.wordMask(w) & parity; hits != 0; hits &= hits - 1 {
			bit := bits.TrailingZeros64(hits)
			slot := b.slot(w, bit)
			for _, mv := range sp.moves[sp.moveStart[slot]:sp.moveStart[slot+1]] {
				if i := uint64(b.succ.next[mv.orderStep()])*sp.slotsPerBlock + mv.slot(); fb[i>>6]>>(i&63)&1 != 0 {
					marks |= b.nextCode << bit
					added++
					break
				}
			}
		}
		if marks != 0 {
			atomic.OrUint64(&b.codes[w], marks)
		}
	}
	return added
}

// CheckLimits returns an error when the builder cannot build the additive
// pattern p whatever the memory: more than 15 tiles (an order step j·k+j2
// would not fit the 8 bits of a packed move), or 2^24 cell sets C(N,k) or
// more (a slot would not fit its 24 bits; every cell set has at least one
// slot), for example 6 tiles on 8x8 (C(64,6) = 74,974,368). It does not
// allocate. newSpace also refuses the rare pattern with fewer cell sets
// but 2^24 slots or more. Exact patterns are always within its limits.
func CheckLimits(p *puzzle.Pattern) error {
	if p.Exact {
		return nil
	}
	n, k := p.Geom.N(), p.K()
	if k*k > maxOrderSteps {
		return fmt.Errorf("builder: %s: %d pattern tiles is more than the builder supports (15)", p, k)
	}
	if p.Combinations() >= maxSlotsPerBlock {
		return fmt.Errorf("builder: %s: %d cell sets (C(%d,%d)), more than the builder's limit of 2^24 per block; use fewer tiles", p, p.Combinations(), n, k)
	}
	return nil
}

// cellSetSlots labels the regions of the cell set mask into regionOf (see
// labelRegions) and returns their number, which is the cell set's number
// of slots, and the number of packed moves of those slots together: one
// per pattern tile and empty neighbouring cell (the move into the region
// of that cell).
func cellSetSlots(neighbors [][]uint8, mask uint64, regionOf []uint8) (regions uint8, moves int) {
	regions = labelRegions(neighbors, mask, regionOf)
	for rest := mask; rest != 0; rest &= rest - 1 {
		for _, to := range neighbors[bits.TrailingZeros64(rest)] {
			if regionOf[to] != occupiedCell {
				moves++
			}
		}
	}
	return regions, moves
}

// spaceSize returns S (space.slotsPerBlock) and the number of packed
// moves of p's space, and newSpace's error for a pattern it refuses,
// without building the space: it labels one cell set at a time, so it
// allocates N bytes instead of C(N,k)·N plus the moves.
func spaceSize(p *puzzle.Pattern) (slots, moves uint64, err error) {
	n, k := p.Geom.N(), p.K()
	if err := CheckLimits(p); err != nil {
		return 0, 0, err
	}
	neighbors := p.Geom.Neighbors()
	regionOf := make([]uint8, n)
	for m := uint64(0); m < p.Combinations(); m++ {
		r, mv := cellSetSlots(neighbors, p.CombinationUnrank(m, k), regionOf)
		slots += uint64(r)
		moves += uint64(mv)
	}
	if slots >= maxSlotsPerBlock {
		return 0, 0, fmt.Errorf("builder: %s: more than 2^24 (cell set, blank region) slots per block, the builder's limit; use fewer tiles", p)
	}
	return slots, moves, nil
}

// labelRegions labels the connected regions of the cells not in mask,
// numbering them in order of their smallest cell so that the labelling is
// canonical; occupied cells get occupiedCell. It returns the number of
// regions.
func labelRegions(neighbors [][]uint8, mask uint64, regionOf []uint8) uint8 {
	var stack [puzzle.MaxCells]uint8
	for c := range regionOf {
		regionOf[c] = occupiedCell
	}
	label := uint8(0)
	for c := range regionOf {
		if mask&(1<<c) != 0 || regionOf[c] != occupiedCell {
			continue
		}
		top := 0
		stack[top] = uint8(c)
		top++
		regionOf[c] = label
		for top > 0 {
			top--
			x := stack[top]
			for _, y := range neighbors[x] {
				if mask&(1<<y) == 0 && regionOf[y] == occupiedCell {
					regionOf[y] = label
					stack[top] = y
					top++
				}
			}
		}
		label++
	}
	return label
}

// goalRegion is the region label of cell blank among the empty cells of
// mask.
func goalRegion(p *puzzle.Pattern, mask uint64, blank uint8) uint8 {
	regionOf := make([]uint8, p.Geom.N())
	labelRegions(p.Geom.Neighbors(), mask, regionOf)
	return regionOf[blank]
}
