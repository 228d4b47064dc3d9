package builder

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/tilepdb/tilepdb/puzzle"
)

// noMove marks an occupied cell in a region map.
const noMove = 0xFF

// maxRegionsPerBlock bounds Σ regions over all occupied-cell sets, so that a
// move fits in 32 bits: the destination offset (24 bits) and the order
// transition (8 bits).
const maxRegionsPerBlock = 1 << 24

// space is the abstract state space of an additive pattern database:
// for each occupied-cell set (a "map", ranked colexicographically), the
// connected regions of its empty cells. State (order, map, region) has the
// index order*regions + regionOffset[map] + region; the offset
// regionOffset[map] + region is the state's "slot" within its order block.
//
// For every slot the moves open to the blank's region are precomputed as
// uint32 values: bits 8..31 are the slot of the successor and bits 0..7 are
// j*k + j2, where j and j2 are the moving tile's positions among the sorted
// occupied cells before and after the move (the order rank of the successor
// depends on them and on the order block alone; see orderMoves).
type space struct {
	p       *puzzle.Pattern
	n, k    int
	maps    int // C(N,k)
	orders  int // k!
	regions uint64

	regionOffset []uint32 // len maps+1; regionOffset[maps] = regions (slots per order block)
	slotMap      []uint32 // len regions: the map of each slot
	moveStart    []uint32 // len regions+1: moves of slot s are moves[moveStart[s]:moveStart[s+1]]
	moves        []uint32
}

func newSpace(p *puzzle.Pattern) (*space, error) {
	g := p.Geom
	n, k := g.N(), p.K()
	sp := &space{p: p, n: n, k: k, maps: int(p.Combinations()), orders: int(p.Factorial(k))}
	if k*k > 256 {
		return nil, fmt.Errorf("builder: %s: %d pattern tiles is more than the builder supports (15)", p, k)
	}
	sp.regionOffset = make([]uint32, sp.maps+1)
	regionOf := make([]uint8, sp.maps*n)
	nbr := g.Neighbors()
	// Pass 1: label the empty cells' connected regions of every map, in
	// order of their smallest cell, so the labelling is canonical.
	for m := 0; m < sp.maps; m++ {
		mask := p.CombinationUnrank(uint64(m), k)
		label := labelRegions(nbr, mask, regionOf[m*n:(m+1)*n])
		sp.regionOffset[m+1] = sp.regionOffset[m] + uint32(label)
		if sp.regionOffset[m+1] >= maxRegionsPerBlock {
			return nil, fmt.Errorf("builder: %s: too many tiles for this board", p)
		}
	}
	sp.regions = uint64(sp.regionOffset[sp.maps])
	sp.slotMap = make([]uint32, sp.regions)
	for m := 0; m < sp.maps; m++ {
		for s := sp.regionOffset[m]; s < sp.regionOffset[m+1]; s++ {
			sp.slotMap[s] = uint32(m)
		}
	}
	// Pass 2: the moves of every slot. A pattern tile next to the blank's
	// region steps into it; the blank ends in the cell the tile left.
	sp.moveStart = make([]uint32, sp.regions+1)
	sp.moves = make([]uint32, 0, sp.regions*4)
	var cells [puzzle.MaxCells]uint8
	for m := 0; m < sp.maps; m++ {
		mask := p.CombinationUnrank(uint64(m), k)
		for j, mm := 0, mask; mm != 0; j++ {
			cells[j] = uint8(bits.TrailingZeros32(mm))
			mm &= mm - 1
		}
		reg := regionOf[m*n : (m+1)*n]
		for e := sp.regionOffset[m]; e < sp.regionOffset[m+1]; e++ {
			region := uint8(e - sp.regionOffset[m])
			for j := 0; j < k; j++ {
				from := int(cells[j])
				for _, dir := range puzzle.Directions {
					to, ok := g.Step(from, dir)
					if !ok || reg[to] != region {
						continue
					}
					nmask := mask&^(1<<from) | 1<<to
					j2 := bits.OnesCount32(nmask & (1<<to - 1))
					next := p.CombinationRank(nmask)
					slot := sp.regionOffset[next] + uint32(regionOf[int(next)*n+from])
					sp.moves = append(sp.moves, slot<<8|uint32(j*k+j2))
				}
			}
			sp.moveStart[e+1] = uint32(len(sp.moves))
		}
	}
	return sp, nil
}

// stateCount is the number of abstract states: k! * Σ regions.
func (sp *space) stateCount() uint64 { return uint64(sp.orders) * sp.regions }

// indexBytes is the memory of the per-slot indexes.
func (sp *space) indexBytes() uint64 {
	return uint64(len(sp.regionOffset)+len(sp.slotMap)+len(sp.moveStart)+cap(sp.moves)) * 4
}

// orderMoves precomputes, for one order block, the order rank reached when
// the tile in sorted position j moves to sorted position j2, for all j, j2.
type orderMoves struct {
	k     int
	table [puzzle.MaxCells * puzzle.MaxCells]uint32
}

func (om *orderMoves) init(p *puzzle.Pattern, k int, order uint64, scratch []uint8) {
	om.k = k
	// o[i] = sorted position of tile i for this order rank: unrank the
	// permutation via cells of the identity set {0..k-1}.
	o := scratch[:k]
	puzzle.LehmerUnrank(order, k, k, o)
	var o2 [puzzle.MaxCells]uint8
	for j := 0; j < k; j++ {
		// the tile holding sorted position j
		for j2 := 0; j2 < k; j2++ {
			for i := 0; i < k; i++ {
				x := o[i]
				switch {
				case x == uint8(j):
					x = uint8(j2)
				case j2 > j && x > uint8(j) && x <= uint8(j2):
					x--
				case j2 < j && x >= uint8(j2) && x < uint8(j):
					x++
				}
				o2[i] = x
			}
			om.table[j*k+j2] = uint32(puzzle.LehmerRank(o2[:k], k))
		}
	}
}

func buildAdditive(ctx context.Context, p *puzzle.Pattern, opt Options) ([]uint8, error) {
	sp, err := newSpace(p)
	if err != nil {
		return nil, err
	}
	total := sp.stateCount()
	z := newAtomicCodes(total)
	values := make([]uint8, p.Size())
	for i := range values {
		values[i] = puzzle.Unreached
	}
	R := sp.regions

	// Level 0: the goal placement with the blank in its goal region.
	goalCells := p.GoalCells()
	var gmask uint32
	for _, c := range goalCells {
		gmask |= 1 << c
	}
	m0 := p.CombinationRank(gmask)
	o0 := p.OrderRank(gmask, goalCells)
	blank := p.GoalPositions()[0]
	e0 := goalRegion(p, gmask, blank)
	z.visit(o0*R+uint64(sp.regionOffset[m0])+uint64(e0), levelCode(0))

	active, next := newBitset(sp.orders), newBitset(sp.orders)
	active.set(int(o0))
	run := &levelRunner{opt: opt, total: total}
	run.reached.Store(1)

	perChunk := max(1, sp.orders/(opt.Workers*32))
	nChunks := (sp.orders + perChunk - 1) / perChunk
	frontier := uint64(1)
	for level := 0; active.anySet(); level++ {
		if level > MaxLevel {
			return nil, fmt.Errorf("builder: %s: distances exceed %d", p, MaxLevel)
		}
		// Direction-optimizing BFS (Beamer, Asanović & Patterson 2012):
		// while the frontier is small, its states push to their successors;
		// once it exceeds half of the unvisited rest, unvisited states pull
		// instead, each stopping at its first neighbour on the frontier.
		// (Of 1x, 2x and 4x, the 2x switch point was fastest on the 7-tile
		// 15-puzzle table.)
		pull := 2*frontier > total-run.reached.Load()
		added, err := run.run(ctx, level, nChunks, func(chunk int) uint64 {
			lo := chunk * perChunk
			hi := min(lo+perChunk, sp.orders)
			var om orderMoves
			var scratch [puzzle.MaxCells]uint8
			var added uint64
			for order := lo; order < hi; order++ {
				if !pull && !active.has(order) {
					continue
				}
				om.init(p, sp.k, uint64(order), scratch[:])
				if pull {
					n := sp.pullBlock(z, values, &om, order, level)
					if n > 0 {
						next.set(order)
					}
					added += n
				} else {
					added += sp.expandBlock(z, values, next, &om, order, level)
				}
			}
			return added
		})
		if err != nil {
			return nil, err
		}
		frontier = added
		active, next = next, active
		next.clear()
	}
	if got := run.reached.Load(); got != total {
		return nil, fmt.Errorf("builder: %s: %d of %d abstract states unreached", p, total-got, total)
	}
	return values, nil
}

// expandBlock expands every state of order block `order` that is at
// `level`: it records the level as the value of the state's placement when
// that placement has none yet (the first region reached gives the minimum
// over regions), and marks the state's unvisited successors with level+1.
// values[order*C(N,k) : (order+1)*C(N,k)] belongs to this block alone, so
// it is written without atomics. It returns the number of states it reached
// first.
func (sp *space) expandBlock(z atomicCodes, values []uint8, next bitset, om *orderMoves, order, level int) uint64 {
	R := sp.regions
	base := uint64(order) * R
	end := base + R
	vals := values[uint64(order)*uint64(sp.maps) : uint64(order+1)*uint64(sp.maps)]
	code, ncode := levelCode(level), levelCode(level+1)
	var added uint64
	sameBlock := false
	for w := base >> 5; w <= (end-1)>>5; w++ {
		hits := matchCodes(atomic.LoadUint64(&z[w]), code)
		for hits != 0 {
			i := w<<5 + uint64(bits.TrailingZeros64(hits)>>1)
			hits &= hits - 1
			if i < base || i >= end {
				continue
			}
			s := uint32(i - base)
			if m := sp.slotMap[s]; vals[m] == puzzle.Unreached {
				vals[m] = uint8(level)
			}
			for _, mv := range sp.moves[sp.moveStart[s]:sp.moveStart[s+1]] {
				no := om.table[mv&0xFF]
				if z.visit(uint64(no)*R+uint64(mv>>8), ncode) {
					added++
					if int(no) == order {
						sameBlock = true
					} else {
						next.set(int(no))
					}
				}
			}
		}
	}
	if sameBlock {
		next.set(order)
	}
	return added
}

// pullBlock is the bottom-up form of expandBlock: it records the values of
// the block's states at `level`, and marks with level+1 every unvisited
// state of the block that has a neighbour at `level` (moves are reversible,
// so the neighbours are the successors). Only this block's states are
// written. It returns the number of states it marked.
func (sp *space) pullBlock(z atomicCodes, values []uint8, om *orderMoves, order, level int) uint64 {
	R := sp.regions
	base := uint64(order) * R
	end := base + R
	vals := values[uint64(order)*uint64(sp.maps) : uint64(order+1)*uint64(sp.maps)]
	code, ncode := levelCode(level), levelCode(level+1)
	var added uint64
	for w := base >> 5; w <= (end-1)>>5; w++ {
		x := atomic.LoadUint64(&z[w])
		for hits := matchCodes(x, code); hits != 0; hits &= hits - 1 {
			i := w<<5 + uint64(bits.TrailingZeros64(hits)>>1)
			if i >= base && i < end {
				if m := sp.slotMap[i-base]; vals[m] == puzzle.Unreached {
					vals[m] = uint8(level)
				}
			}
		}
		var set uint64
		for hits := matchCodes(x, 0); hits != 0; hits &= hits - 1 {
			b := uint64(bits.TrailingZeros64(hits))
			i := w<<5 + b>>1
			if i < base || i >= end {
				continue
			}
			s := i - base
			for _, mv := range sp.moves[sp.moveStart[s]:sp.moveStart[s+1]] {
				if z.load(uint64(om.table[mv&0xFF])*R+uint64(mv>>8)) == code {
					set |= ncode << b
					added++
					break
				}
			}
		}
		if set != 0 {
			atomic.OrUint64(&z[w], set)
		}
	}
	return added
}

// labelRegions labels the connected regions of the cells not in mask,
// numbering them in order of their smallest cell so that the labelling is
// canonical; occupied cells get noMove. It returns the number of regions.
func labelRegions(nbr [][]uint8, mask uint32, reg []uint8) uint8 {
	var stack [puzzle.MaxCells]uint8
	for c := range reg {
		reg[c] = noMove
	}
	label := uint8(0)
	for c := range reg {
		if mask&(1<<c) != 0 || reg[c] != noMove {
			continue
		}
		top := 0
		stack[top] = uint8(c)
		top++
		reg[c] = label
		for top > 0 {
			top--
			x := stack[top]
			for _, y := range nbr[x] {
				if mask&(1<<y) == 0 && reg[y] == noMove {
					reg[y] = label
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
func goalRegion(p *puzzle.Pattern, mask uint32, blank uint8) uint8 {
	reg := make([]uint8, p.Geom.N())
	labelRegions(p.Geom.Neighbors(), mask, reg)
	return reg[blank]
}
