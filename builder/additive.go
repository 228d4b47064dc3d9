package builder

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/tilepdb/tilepdb/puzzle"
)

// noMove marks an impossible move in the transition table.
const noMove = 0xFF

// move is one precomputed transition: the pattern tile in sorted position j
// of occupied-cell set m steps to an adjacent empty cell.
type move struct {
	to   uint8  // the cell the tile moves to (noMove: off the board or occupied)
	from uint8  // the cell it leaves, where the blank ends up
	pos  uint8  // the tile's sorted position within the new set of cells
	_    uint8  //
	next uint32 // colex rank of the new set of occupied cells
}

// space is the abstract state space of an additive pattern database:
// for each occupied-cell set (a "map", ranked colexicographically), the
// connected regions of its empty cells. State (order, map, region) has the
// index order*regions + regionOffset[map] + region.
type space struct {
	p       *puzzle.Pattern
	n, k    int
	maps    int // C(N,k)
	orders  int // k!
	regions uint64

	regionOffset []uint32 // len maps+1; regionOffset[maps] = regions per order block
	regionOf     []uint8  // maps*N: region of each empty cell, noMove for occupied cells
	cells        []uint8  // maps*k: the occupied cells ascending
	moves        []move   // maps*k*4: by sorted position and direction
}

func newSpace(p *puzzle.Pattern) *space {
	g := p.Geom
	n, k := g.N(), p.K()
	sp := &space{p: p, n: n, k: k, maps: int(p.Combinations()), orders: int(p.Factorial(k))}
	sp.regionOffset = make([]uint32, sp.maps+1)
	sp.regionOf = make([]uint8, sp.maps*n)
	sp.cells = make([]uint8, sp.maps*k)
	sp.moves = make([]move, sp.maps*k*4)
	nbr := g.Neighbors()
	var stack [puzzle.MaxCells]uint8
	for m := 0; m < sp.maps; m++ {
		mask := p.CombinationUnrank(uint64(m), k)
		for j, mm := 0, mask; mm != 0; j++ {
			sp.cells[m*k+j] = uint8(bits.TrailingZeros32(mm))
			mm &= mm - 1
		}
		// Label the empty cells' connected regions in order of their
		// smallest cell, so the labelling is canonical.
		reg := sp.regionOf[m*n : (m+1)*n]
		for c := range reg {
			reg[c] = noMove
		}
		label := uint8(0)
		for c := 0; c < n; c++ {
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
		sp.regionOffset[m+1] = sp.regionOffset[m] + uint32(label)
		for j := 0; j < k; j++ {
			from := int(sp.cells[m*k+j])
			for d, dir := range puzzle.Directions {
				mv := &sp.moves[(m*k+j)*4+d]
				mv.to = noMove
				to, ok := g.Step(from, dir)
				if !ok || mask&(1<<to) != 0 {
					continue
				}
				nmask := mask&^(1<<from) | 1<<to
				mv.to = uint8(to)
				mv.from = uint8(from)
				mv.pos = uint8(bits.OnesCount32(nmask & (1<<to - 1)))
				mv.next = uint32(p.CombinationRank(nmask))
			}
		}
	}
	sp.regions = uint64(sp.regionOffset[sp.maps])
	return sp
}

// stateCount is the number of abstract states: k! * Σ regions.
func (sp *space) stateCount() uint64 { return uint64(sp.orders) * sp.regions }

// indexBytes is the memory of the per-map indexes.
func (sp *space) indexBytes() uint64 {
	return uint64(len(sp.regionOffset))*4 + uint64(len(sp.regionOf)) + uint64(len(sp.cells)) + uint64(len(sp.moves))*8
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
	unrankPermutation(order, k, o)
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
			om.table[j*k+j2] = uint32(rankPermutation(o2[:k]))
		}
	}
}

// rankPermutation is the Lehmer-code rank of a permutation of 0..k-1.
func rankPermutation(o []uint8) uint64 {
	var used uint32
	var r uint64
	k := len(o)
	for i, x := range o {
		d := uint64(x) - uint64(bits.OnesCount32(used&(1<<x-1)))
		used |= 1 << x
		r = r*uint64(k-i) + d
	}
	return r
}

// unrankPermutation is the inverse of rankPermutation.
func unrankPermutation(r uint64, k int, out []uint8) {
	var digits [puzzle.MaxCells]uint8
	for i := k - 1; i >= 0; i-- {
		radix := uint64(k - i)
		digits[i] = uint8(r % radix)
		r /= radix
	}
	var used uint32
	for i := 0; i < k; i++ {
		free := ^used
		for d := digits[i]; d > 0; d-- {
			free &= free - 1
		}
		v := uint8(bits.TrailingZeros32(free))
		out[i] = v
		used |= 1 << v
	}
}

func buildAdditive(ctx context.Context, p *puzzle.Pattern, opt Options) ([]uint8, error) {
	sp := newSpace(p)
	total := sp.stateCount()
	z := newAtomicBytes(total)
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
	e0 := sp.regionOf[int(m0)*sp.n+int(blank)]
	z.visit(o0*R+uint64(sp.regionOffset[m0])+uint64(e0), 0)

	active, next := newBitset(sp.orders), newBitset(sp.orders)
	active.set(int(o0))
	run := &levelRunner{opt: opt, total: total}
	run.reached.Store(1)

	perChunk := sp.orders / (opt.Workers * 32)
	if perChunk < 1 {
		perChunk = 1
	}
	nChunks := (sp.orders + perChunk - 1) / perChunk
	for level := 0; active.anySet(); level++ {
		if level >= MaxLevel {
			return nil, fmt.Errorf("builder: %s: distances exceed %d", p, MaxLevel)
		}
		cur := uint8(level)
		_, err := run.run(ctx, level, nChunks, func(chunk int) uint64 {
			lo := chunk * perChunk
			hi := min(lo+perChunk, sp.orders)
			var om orderMoves
			var scratch [puzzle.MaxCells]uint8
			var added uint64
			for order := lo; order < hi; order++ {
				if !active.has(order) {
					continue
				}
				om.init(p, sp.k, uint64(order), scratch[:])
				added += sp.expandBlock(z, next, &om, order, cur)
			}
			return added
		})
		if err != nil {
			return nil, err
		}
		active, next = next, active
		next.clear()
	}
	if got := run.reached.Load(); got != total {
		return nil, fmt.Errorf("builder: %s: %d of %d abstract states unreached", p, total-got, total)
	}

	// The value of a placement is the minimum over its regions.
	maps := uint64(sp.maps)
	values := make([]uint8, p.Size())
	perChunk = max(1, sp.orders/(opt.Workers*8))
	nChunks = (sp.orders + perChunk - 1) / perChunk
	_, err := run.run(ctx, -1, nChunks, func(chunk int) uint64 {
		lo := chunk * perChunk
		hi := min(lo+perChunk, sp.orders)
		for order := lo; order < hi; order++ {
			zb := uint64(order) * R
			vb := values[uint64(order)*maps : uint64(order+1)*maps]
			for m := range vb {
				v := uint8(Unvisited)
				for e := uint64(sp.regionOffset[m]); e < uint64(sp.regionOffset[m+1]); e++ {
					v = min(v, z.load(zb+e))
				}
				vb[m] = v
			}
		}
		return 0
	})
	if err != nil {
		return nil, err
	}
	return values, nil
}

// expandBlock expands every entry of order block `order` that is at level
// cur, marking successors with cur+1. It returns the number of states it
// reached first.
func (sp *space) expandBlock(z atomicBytes, next bitset, om *orderMoves, order int, cur uint8) uint64 {
	k, n := sp.k, sp.n
	R := sp.regions
	base := uint64(order) * R
	nv := cur + 1
	var added uint64
	for m := 0; m < sp.maps; m++ {
		r0, r1 := sp.regionOffset[m], sp.regionOffset[m+1]
		for e := r0; e < r1; e++ {
			if z.load(base+uint64(e)) != cur {
				continue
			}
			region := uint8(e - r0)
			reg := sp.regionOf[m*n : (m+1)*n]
			mv := sp.moves[m*k*4 : (m+1)*k*4]
			for j := 0; j < k; j++ {
				for d := 0; d < 4; d++ {
					x := mv[j*4+d]
					if x.to == noMove || reg[x.to] != region {
						continue
					}
					no := om.table[j*k+int(x.pos)]
					e2 := sp.regionOf[int(x.next)*n+int(x.from)]
					idx := uint64(no)*R + uint64(sp.regionOffset[x.next]) + uint64(e2)
					if z.visit(idx, nv) {
						added++
						next.set(int(no))
					}
				}
			}
		}
	}
	return added
}
