package puzzle

import (
	"fmt"
	"sync"
	"weak"
)

// RankingCellsetOrderRegion is the index of a zero-aware additive pattern
// database (Clausecker & Reinefeld's zero-aware PDBs: one value per
// placement of the pattern tiles and region of the blank, instead of the
// minimum over the regions):
//
//	index = P·S + slotStart[M] + region
//
// where M and P are the cell set and order ranks of RankingCellsetOrder,
// region is the number of the connected region of non-pattern cells that
// holds the blank (regions of a cell set numbered 0, 1, ... in the order
// of their smallest cell; neighbours are the four orthogonal ones), and
// slotStart[M] = Σ_{M' < M} regions(M'), S = slotStart[C(N,k)], the
// prefix sums of the region counts over the cell sets in colexicographic
// order. Range [0, k!·S), no holes. format/SPEC.md section 11 has the
// normative text and vectors; it uses RankingVersion too.
const RankingCellsetOrderRegion = "cellset-order-region"

// maxRegionSlots bounds S so that slotStart fits in uint32 (S <= C(N,k)·N/2).
const maxRegionSlots = 1 << 32

// MaxRegionCellSets bounds C(N,k), the cell sets NewRegions labels: fewer
// than 2^24, the limit of the builder (builder.CheckLimits: a slot of the
// additive search has 24 bits), so no zero-aware table this project can
// build is refused, and the region maps of the largest accepted pattern
// take at most 2^24·(N+4) bytes (1.1 GiB on 8x8) where 6 tiles of 8x8
// (C(64,6) = 74,974,368) would take 5.1 GB. format/SPEC.md section 11
// states the same limit, so a reader refuses such a header before labelling.
const MaxRegionCellSets = 1 << 24

// Regions is the region numbering of an additive pattern: for every cell
// set M (colexicographic rank of the occupied cells), the region label of
// every free cell and the first slot of M. It is the index
// RankingCellsetOrderRegion. Memory: C(N,k)·(N+4) bytes (4.4 MB for 6
// tiles of the 24-puzzle), shared by the live Regions of one board and
// number of tiles (the maps depend on nothing else). Read-only after
// NewRegions and safe for concurrent use.
type Regions struct {
	p         *Pattern
	n, k      int
	comb      uint64
	slotStart []uint32 // len C(N,k)+1
	regionOf  []uint8  // regionOf[M·N + c]: region of free cell c in cell set M; OccupiedRegion for an occupied cell
	maps      *regionMaps
}

// OccupiedRegion is Regions.Region's answer for a cell that holds a
// pattern tile.
const OccupiedRegion = 0xFF

// regionMaps are the maps of Regions for one shape.
type regionMaps struct {
	slotStart []uint32
	regionOf  []uint8
}

// regionKey is a shape of sharedMaps: the board's sides and the number
// of pattern tiles.
type regionKey struct {
	w, h, k int
}

// sharedMaps holds each shape's maps while a Regions holds them (a weak
// pointer: they go with the last one), so that the tables of a catalogue
// label the cell sets once (24-best's 11 tables: 0.12 s and 4.4 MB each
// before).
var sharedMaps struct {
	sync.Mutex
	m map[regionKey]weak.Pointer[regionMaps]
}

// NewRegions labels the regions of every cell set of the additive pattern
// p, or takes the labels of a live Regions of the same board and number
// of tiles. It fails for an exact pattern and, before allocating, for a
// pattern of MaxRegionCellSets cell sets or more.
func NewRegions(p *Pattern) (*Regions, error) {
	if p.Exact {
		return nil, fmt.Errorf("%w: %s: zero-aware tables are additive, not exact", ErrPattern, p)
	}
	n, k := p.n, p.k
	if p.combCount >= MaxRegionCellSets {
		return nil, fmt.Errorf("%w: %s: %d cell sets (C(%d,%d)), zero-aware tables allow fewer than 2^24", ErrPattern, p, p.combCount, n, k)
	}
	key := regionKey{p.Geom.W, p.Geom.H, k}
	sharedMaps.Lock()
	defer sharedMaps.Unlock()
	rm := sharedMaps.m[key].Value()
	if rm == nil {
		var err error
		if rm, err = labelAll(p); err != nil {
			return nil, err
		}
		if sharedMaps.m == nil {
			sharedMaps.m = make(map[regionKey]weak.Pointer[regionMaps])
		}
		sharedMaps.m[key] = weak.Make(rm)
	}
	return &Regions{p: p, n: n, k: k, comb: p.combCount, slotStart: rm.slotStart, regionOf: rm.regionOf, maps: rm}, nil
}

// labelAll labels the regions of every cell set of k = p's tiles on p's
// board.
func labelAll(p *Pattern) (*regionMaps, error) {
	n, k, comb := p.n, p.k, p.combCount
	rm := &regionMaps{slotStart: make([]uint32, comb+1), regionOf: make([]uint8, comb*uint64(n))}
	nb := p.Geom.Neighbors()
	var slots uint64
	for m := uint64(0); m < comb; m++ {
		mask := CombinationUnrank(m, n, k)
		slots += uint64(LabelRegions(nb, mask, rm.regionOf[m*uint64(n):(m+1)*uint64(n)]))
		if slots >= maxRegionSlots {
			return nil, fmt.Errorf("%w: %s: too many regions", ErrPattern, p)
		}
		rm.slotStart[m+1] = uint32(slots)
	}
	return rm, nil
}

// LabelRegions labels the connected regions (orthogonal neighbours, as
// nb = Geometry.Neighbors) of the cells not in mask (bit c = cell c
// occupied): regionOf[c] is the region number of free cell c, numbered 0,
// 1, ... in the order of their smallest cell, and OccupiedRegion for an
// occupied cell. len(regionOf) is the number of cells. It returns the
// number of regions.
func LabelRegions(nb [][]uint8, mask uint64, regionOf []uint8) int {
	var stack [256]uint8
	for c := range regionOf {
		regionOf[c] = OccupiedRegion
	}
	label := uint8(0)
	for c := range regionOf {
		if mask>>c&1 != 0 || regionOf[c] != OccupiedRegion {
			continue
		}
		stack[0], regionOf[c] = uint8(c), label
		top := 1
		for top > 0 {
			top--
			x := stack[top]
			for _, y := range nb[x] {
				if mask>>y&1 == 0 && regionOf[y] == OccupiedRegion {
					regionOf[y] = label
					stack[top] = y
					top++
				}
			}
		}
		label++
	}
	return int(label)
}

// Pattern is the pattern the regions were labelled for.
func (r *Regions) Pattern() *Pattern { return r.p }

// Slots is S, the number of (cell set, region) pairs.
func (r *Regions) Slots() uint64 { return uint64(r.slotStart[r.comb]) }

// Size is the number of entries of a zero-aware table: k!·S.
func (r *Regions) Size() uint64 { return Factorial(r.k) * r.Slots() }

// SlotStart is slotStart[M]: the first slot of cell set M (M <= C(N,k);
// SlotStart(C(N,k)) = S).
func (r *Regions) SlotStart(m uint64) uint64 { return uint64(r.slotStart[m]) }

// Count is the number of regions of cell set M.
func (r *Regions) Count(m uint64) int { return int(r.slotStart[m+1] - r.slotStart[m]) }

// Region is the region number of cell c in cell set M, OccupiedRegion when
// c holds a pattern tile.
func (r *Regions) Region(m uint64, c int) uint8 { return r.regionOf[m*uint64(r.n)+uint64(c)] }

// SlotStarts returns slotStart[0..C(N,k)] (a view: do not modify).
func (r *Regions) SlotStarts() []uint32 { return r.slotStart }

// RegionMap returns the region labels of every cell set, C(N,k)·N bytes:
// entry M·N + c is Region(M, c) (a view: do not modify).
func (r *Regions) RegionMap() []uint8 { return r.regionOf }

// RegionsOf returns the region labels of cell set M, one per cell (a view:
// do not modify).
func (r *Regions) RegionsOf(m uint64) []uint8 {
	return r.regionOf[m*uint64(r.n) : (m+1)*uint64(r.n)]
}

// Index returns the zero-aware index of the state with full position
// vector pos (len N; pos[0] is the blank's cell and only the blank and the
// pattern tiles are read). pos must be a valid state.
func (r *Regions) Index(pos []uint8) uint64 {
	var cells [MaxCells]uint8
	for i, t := range r.p.Tiles {
		cells[i] = pos[t]
	}
	return r.IndexCells(cells[:r.k], pos[0])
}

// IndexCells is Index given the cells of the pattern tiles (tiles
// ascending, len k) and the blank's cell, which must be free.
func (r *Regions) IndexCells(cells []uint8, blank uint8) uint64 {
	rank := r.p.cellsetOrder(cells)
	m := rank % r.comb
	return rank/r.comb*r.Slots() + uint64(r.slotStart[m]) + uint64(r.Region(m, int(blank)))
}

// Placement splits a zero-aware index into the RankingCellsetOrder rank
// of its placement (P·C(N,k) + M) and the region of the blank.
func (r *Regions) Placement(idx uint64) (rank uint64, region int) {
	s := r.Slots()
	ord, slot := idx/s, idx%s
	m := r.CellSetOfSlot(slot)
	return ord*r.comb + m, int(slot - uint64(r.slotStart[m]))
}

// CellSetOfSlot is the cell set M of slot s (s < S), by binary search.
func (r *Regions) CellSetOfSlot(s uint64) uint64 {
	lo, hi := uint64(0), r.comb // slotStart[lo] <= s < slotStart[hi]
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if uint64(r.slotStart[mid]) <= s {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// Minimum reduces a zero-aware table (len Size) to the plain table of the
// same pattern (len p.Size()): each placement's value is the minimum over
// its regions.
func (r *Regions) Minimum(za []uint8) []uint8 {
	s := r.Slots()
	out := make([]uint8, r.p.Size())
	for ord := uint64(0); ord < Factorial(r.k); ord++ {
		block := za[ord*s : (ord+1)*s]
		row := out[ord*r.comb : (ord+1)*r.comb]
		for m := range row {
			v := uint8(Unreached)
			for _, x := range block[r.slotStart[m]:r.slotStart[m+1]] {
				v = min(v, x)
			}
			row[m] = v
		}
	}
	return out
}

// SlotCellSets returns, for every slot s < S, its cell set M.
func (r *Regions) SlotCellSets() []uint32 {
	out := make([]uint32, r.Slots())
	for m := uint64(0); m < r.comb; m++ {
		for s := r.slotStart[m]; s < r.slotStart[m+1]; s++ {
			out[s] = uint32(m)
		}
	}
	return out
}
