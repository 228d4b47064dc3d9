package verify

import (
	"math/bits"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// The per-entry implementations of the additive checks that the index walk
// (sweep.go) replaced: each entry unranked, each neighbour and image ranked
// with RankCells. They are the oracle of TestWalkMatchesPerEntry.

func (c *checker) perEntryAdditiveEntries(lo, hi uint64, tl *tally) {
	p := c.p
	g := p.Geom
	n := g.N()
	k := p.K()
	nbrs := g.Neighbors()
	goalPos := p.GoalPositions()
	full := puzzle.FullMask(n)
	cells := make([]uint8, k)
	for i := lo; i < hi; i++ {
		p.Unrank(i, cells)
		var occ uint64
		for _, x := range cells {
			occ |= 1 << x
		}
		v := c.values[i]
		md := 0
		for j, t := range p.Tiles {
			md += g.Manhattan(int(cells[j]), int(goalPos[t]))
		}
		if !c.entryRules(i, v, md, tl) {
			continue
		}
		connected := connectedCells(g, full&^occ)
		descends := false
		for j, x := range cells {
			for _, y := range nbrs[x] {
				if occ&(1<<y) != 0 {
					continue
				}
				cells[j] = y
				r := p.RankCells(cells)
				cells[j] = x
				w := c.values[r]
				if w == puzzle.Unreached {
					continue
				}
				if w < v {
					descends = true
				}
				if connected && int(w) > int(v)+1 {
					tl.addf(CheckStep, int64(i), "value %d with connected empty cells, but neighbour %d (tile %d from cell %d to %d) has %d > %d",
						v, r, p.Tiles[j], x, y, w, int(v)+1)
				}
			}
		}
		if i != c.goal && !descends {
			tl.addf(CheckDescent, int64(i), "value %d, but no neighbouring placement has a smaller value", v)
		}
	}
}

func (c *checker) perEntrySymmetry(lo, hi uint64, tl *tally) {
	p := c.p
	cells := make([]uint8, p.K())
	img := make([]uint8, p.K())
	for i := lo; i < hi; i++ {
		p.Unrank(i, cells)
		v := c.values[i]
		if v == puzzle.Unreached {
			continue
		}
		for _, s := range c.syms {
			for j, x := range cells {
				img[s.index[j]] = s.cell[x]
			}
			r := p.RankCells(img)
			if r <= i {
				continue
			}
			if w := c.values[r]; w != puzzle.Unreached && w != v {
				tl.addf(CheckSymmetry, int64(i), "value %d, but its image %d under the %s has %d", v, r, s.name, w)
			}
		}
	}
}

// TestWalkMatchesPerEntry compares the walking passes of additive tables
// with the per-entry ones above on correct and randomly corrupted tables,
// over random chunk boundaries: the findings (checks, indexes, messages,
// order) must be the same, and the ranking pass must find nothing.
func TestWalkMatchesPerEntry(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	for _, c := range []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{3, 3, "blank-last", []uint8{1, 2, 3, 4}},
		{3, 3, "1 2 3 4 0 5 6 7 8", []uint8{1, 3, 6, 8}},
		{4, 4, "blank-first", []uint8{1, 4, 5}},
		{5, 5, "blank-first", []uint8{1, 5, 6}},
		{5, 4, "blank-last", []uint8{1, 2, 3}},
		{2, 4, "blank-last", []uint8{1, 2, 3, 4, 5}},
	} {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		good := mustReference(t, p)
		syms := symmetries(p)
		for trial := range 3 {
			values := append([]uint8(nil), good...)
			if trial > 0 {
				for range 1 + rng.IntN(40) {
					i := rng.IntN(len(values))
					switch rng.IntN(4) {
					case 0:
						values[i] = puzzle.Unreached
					case 1:
						values[i] = uint8(rng.IntN(40))
					default:
						values[i] += uint8(1 + rng.IntN(2))
					}
				}
			}
			ch := &checker{p: p, values: values, opts: Options{MaxFindingsPerCheck: 1 << 30}, syms: syms, cellSets: newCellSets(p)}
			ch.goal = p.RankCells(p.GoalCells())
			for i := range syms {
				ch.symImages = append(ch.symImages, newSymmetryImage(p, &syms[i]))
			}
			run := func(fn func(lo, hi uint64, tl *tally)) *tally {
				tl := newTally(1 << 30)
				for lo := uint64(0); lo < p.Size(); {
					hi := min(p.Size(), lo+1+uint64(rng.IntN(int(p.Combinations())*2)))
					fn(lo, hi, tl)
					lo = hi
				}
				return tl
			}
			if tl := run(ch.additiveRanking); tl.counts != nil {
				t.Fatalf("%s: ranking findings: %v", p, tl.kept)
			}
			if got, want := run(ch.additiveEntries), run(ch.perEntryAdditiveEntries); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s trial %d: entry rules differ:\n walk     %v %v\n per entry %v %v", p, trial, got.counts, got.kept, want.counts, want.kept)
			}
			if got, want := run(ch.additiveSymmetry), run(ch.perEntrySymmetry); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s trial %d: symmetry differs:\n walk     %v %v\n per entry %v %v", p, trial, got.counts, got.kept, want.counts, want.kept)
			}
		}
	}
}

// TestNextCellSet checks Gosper's hack against CombinationUnrank: the
// masks of k cells in numeric order are the colexicographic order.
func TestNextCellSet(t *testing.T) {
	for _, nk := range [][2]int{{9, 1}, {9, 4}, {16, 7}, {25, 3}} {
		n, k := nk[0], nk[1]
		mask := puzzle.FullMask(k)
		for m := uint64(0); m < puzzle.Binomial(n, k); m++ {
			if want := puzzle.CombinationUnrank(m, n, k); mask != want {
				t.Fatalf("n=%d k=%d: cell set %d is %#x, want %#x", n, k, m, mask, want)
			}
			if bits.OnesCount64(mask) != k {
				t.Fatalf("bad mask %#x", mask)
			}
			mask = nextCellSet(mask)
		}
	}
}
