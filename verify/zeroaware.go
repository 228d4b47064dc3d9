package verify

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// CheckZeroAware (zero-aware tables, format.KindZeroAware): the values
// are the breadth-first distances of the abstract states (placement,
// region of the blank), by three rules that characterise them in the
// undirected unit-cost graph whose edges are the moves of pattern tiles
// into the blank's region: the goal state is 0, and no other state is;
// neighbouring states differ by at most 1 (so V <= D by induction along a
// shortest path); every other state has a neighbour one smaller (so
// following them reaches the goal in V moves: V >= D). The regions, slots
// and moves are computed here by their own flood fill and enumeration,
// not by package builder or puzzle.Regions. The other checks (ranking,
// goal, unreached, Manhattan, descent, step, symmetry; and with Deep the
// reference) then run on the minimum over each placement's regions, which
// must be the additive table of the pattern; with Deep the zero-aware
// values are also compared entry by entry with ReferenceZeroAware.
const CheckZeroAware = "zero-aware"

// zaLabels labels the regions of every cell set of p by flood fill:
// label[M·N + c] is the region of free cell c in cell set M (numbered by
// smallest cell), -1 for an occupied cell; start[M] is the first slot of
// M (prefix sums of the region counts), start[C(N,k)] = S.
func zaLabels(p *puzzle.Pattern) (label []int8, start []uint64) {
	n, k := p.Geom.N(), p.K()
	comb := p.Combinations()
	label = make([]int8, comb*uint64(n))
	start = make([]uint64, comb+1)
	cells := make([]uint8, k)
	todo := make([]int, 0, n)
	for m := uint64(0); m < comb; m++ {
		p.Unrank(m, cells) // order 0: the cells of set m, ascending
		lab := label[m*uint64(n) : (m+1)*uint64(n)]
		for c := range lab {
			lab[c] = -2
		}
		for _, c := range cells {
			lab[c] = -1
		}
		regions := int8(0)
		for c := 0; c < n; c++ {
			if lab[c] != -2 {
				continue
			}
			todo = append(todo[:0], c)
			lab[c] = regions
			for len(todo) > 0 {
				x := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				for _, d := range puzzle.Directions {
					if y, ok := p.Geom.Step(x, d); ok && lab[y] == -2 {
						lab[y] = regions
						todo = append(todo, y)
					}
				}
			}
			regions++
		}
		start[m+1] = start[m] + uint64(regions)
	}
	return label, start
}

// zaMove is one move of a slot: the pattern tile at sorted position j goes
// to sorted position j2 of the new cell set, whose state is in slot next.
type zaMove struct {
	j, j2 uint8
	next  uint32
}

// checkZeroAware is checkTable for a zero-aware table.
func checkZeroAware(ctx context.Context, r *Report, t *format.Table, opts Options, recount bool) error {
	defer r.sortFindings()
	p := t.Pattern
	label, start := zaLabels(p)
	comb := p.Combinations()
	slots := start[comb]
	orders := p.Size() / comb
	size := orders * slots

	// The header, against this package's own count of the entries.
	tl := newTally(opts.MaxFindingsPerCheck)
	h := &t.Header
	if h.Kind != format.KindZeroAware || h.Ranking != puzzle.RankingCellsetOrderRegion || h.RankingVersion != puzzle.RankingVersion {
		tl.addf(CheckHeader, -1, "kind %q ranking %q version %d, want %q %q version %d", h.Kind, h.Ranking, h.RankingVersion,
			format.KindZeroAware, puzzle.RankingCellsetOrderRegion, puzzle.RankingVersion)
	}
	if h.Width != p.Geom.W || h.Height != p.Geom.H || !slices.EqualFunc(h.Tiles, p.Tiles, intIs) || !slices.EqualFunc(h.Goal, p.Goal, intIs) {
		tl.addf(CheckHeader, -1, "board, goal or tiles differ from the pattern %s", p)
	}
	if h.Entries != size || uint64(len(t.Values)) != size {
		tl.addf(CheckHeader, -1, "entries %d, %d values; the zero-aware table of %s has %d (S = %d)", h.Entries, len(t.Values), p, size, slots)
		r.merge(tl, opts.MaxFindingsPerCheck)
		r.ran(CheckHeader, time.Now())
		r.Pattern, r.Entries = p.String()+", zero-aware", h.Entries
		r.skipAll("the values cannot be indexed by the pattern")
		return nil
	}
	if recount {
		counts := format.CountValues(t.Values)
		for _, m := range counts.Mismatches(h) {
			tl.addf(CheckHeader, -1, "%s", m)
		}
	}
	r.merge(tl, opts.MaxFindingsPerCheck)

	startTime := time.Now()
	if err := zaConsistency(ctx, r, p, t.Values, label, start, opts); err != nil {
		return err
	}
	r.ran(CheckZeroAware, startTime)

	// The minimum over regions: the additive table, checked as one.
	reduced := make([]uint8, p.Size())
	for ord := uint64(0); ord < orders; ord++ {
		for m := uint64(0); m < comb; m++ {
			v := uint8(puzzle.Unreached)
			for _, x := range t.Values[ord*slots+start[m] : ord*slots+start[m+1]] {
				v = min(v, x)
			}
			reduced[ord*comb+m] = v
		}
	}
	plain, err := format.NewTable(p, reduced, h.Generator)
	if err != nil {
		// 255 somewhere: the consistency check has reported it.
		r.skipAll("the minimum over regions holds the reserved value 255")
		return nil
	}
	deep := opts.Deep
	opts.Deep = false
	if err := checkTable(ctx, r, plain, opts, false); err != nil {
		return err
	}
	r.Pattern, r.Entries = p.String()+", zero-aware (other checks on the minimum over regions)", size
	if !deep {
		return nil
	}
	r.Skipped = slices.DeleteFunc(r.Skipped, func(s string) bool {
		return len(s) > len(CheckReference) && s[:len(CheckReference)+1] == CheckReference+":"
	})
	startTime = time.Now()
	want, err := ReferenceZeroAware(ctx, p)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		tl := newTally(opts.MaxFindingsPerCheck)
		tl.addf(CheckReference, -1, "reference: %v", err)
		r.merge(tl, opts.MaxFindingsPerCheck)
	} else {
		tl := newTally(opts.MaxFindingsPerCheck)
		for i, v := range t.Values {
			if want[i] != v {
				tl.addf(CheckReference, int64(i), "value %d, reference %d", v, want[i])
			}
		}
		r.merge(tl, opts.MaxFindingsPerCheck)
	}
	r.ran(CheckReference, startTime)
	return nil
}

// zaConsistency runs CheckZeroAware: per order, over every slot.
func zaConsistency(ctx context.Context, r *Report, p *puzzle.Pattern, values []uint8, label []int8, start []uint64, opts Options) error {
	n, k := p.Geom.N(), p.K()
	comb := p.Combinations()
	slots := start[comb]
	orders := p.Size() / comb
	// The moves of every slot.
	moveStart := make([]uint32, slots+1)
	var moves []zaMove
	cells := make([]uint8, k)
	for m := uint64(0); m < comb; m++ {
		p.Unrank(m, cells)
		var mask uint64
		for _, c := range cells {
			mask |= 1 << c
		}
		lab := label[m*uint64(n) : (m+1)*uint64(n)]
		for region := int8(0); uint64(region) < start[m+1]-start[m]; region++ {
			for j, a := range cells {
				for _, d := range puzzle.Directions {
					b, ok := p.Geom.Step(int(a), d)
					if !ok || lab[b] != region {
						continue
					}
					nm := mask&^(1<<a) | 1<<b
					m2 := p.RankCells(sortedCells(nm, k)) % comb // order 0 of the new set: its rank M
					j2 := bits.OnesCount64(nm & (1<<b - 1))
					r2 := label[m2*uint64(n)+uint64(a)]
					moves = append(moves, zaMove{j: uint8(j), j2: uint8(j2), next: uint32(start[m2] + uint64(r2))})
				}
			}
			moveStart[start[m]+uint64(region)+1] = uint32(len(moves))
		}
	}
	goalCells := p.GoalCells()
	goalRank := p.RankCells(goalCells)
	goalM := goalRank % comb
	goalIdx := goalRank/comb*slots + start[goalM] + uint64(label[goalM*uint64(n)+uint64(p.GoalPositions()[0])])

	tallies := make([]*tally, orders)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Workers)
	for ord := uint64(0); ord < orders; ord++ {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			next := orderSteps(k, ord)
			tl := newTally(opts.MaxFindingsPerCheck)
			base := ord * slots
			for s := uint64(0); s < slots; s++ {
				idx := base + s
				v := values[idx]
				if v == puzzle.Unreached {
					tl.addf(CheckZeroAware, int64(idx), "holds the reserved value 255")
					continue
				}
				if (v == 0) != (idx == goalIdx) {
					tl.addf(CheckZeroAware, int64(idx), "value %d; only the goal state (index %d) is 0", v, goalIdx)
				}
				down := false
				for _, mv := range moves[moveStart[s]:moveStart[s+1]] {
					i2 := next[int(mv.j)*k+int(mv.j2)]*slots + uint64(mv.next)
					v2 := values[i2]
					if v2 == puzzle.Unreached {
						continue
					}
					if v2+1 < v || v+1 < v2 {
						tl.addf(CheckZeroAware, int64(idx), "value %d, its neighbour %d has %d: a move changes the distance by at most 1", v, i2, v2)
					}
					down = down || v2+1 == v
				}
				if v > 0 && !down {
					tl.addf(CheckZeroAware, int64(idx), "value %d and no neighbour with %d", v, v-1)
				}
			}
			if tl.counts != nil {
				tallies[ord] = tl
			}
			return nil
		})
	}
	if err := mergeTallies(ctx, g, r, tallies, opts.MaxFindingsPerCheck); err != nil {
		return err
	}
	return nil
}

// sortedCells lists the k cells of mask in ascending order.
func sortedCells(mask uint64, k int) []uint8 {
	out := make([]uint8, 0, k)
	for mask != 0 {
		out = append(out, uint8(bits.TrailingZeros64(mask)))
		mask &= mask - 1
	}
	return out
}

// orderSteps returns, for the order ord of k tiles, the order after the
// tile at sorted position j moves to sorted position j2 (the tiles
// between shift by one towards j): entry j·k + j2. It works on the
// permutation o (o[i] = sorted position of tile i, puzzle.OrderRank).
func orderSteps(k int, ord uint64) []uint64 {
	o := make([]uint8, k)
	puzzle.LehmerUnrank(ord, k, k, o)
	out := make([]uint64, k*k)
	o2 := make([]uint8, k)
	for j := 0; j < k; j++ {
		for j2 := 0; j2 < k; j2++ {
			for i, x := range o {
				switch {
				case int(x) == j:
					o2[i] = uint8(j2)
				case j2 > j && int(x) > j && int(x) <= j2:
					o2[i] = x - 1
				case j2 < j && int(x) >= j2 && int(x) < j:
					o2[i] = x + 1
				default:
					o2[i] = x
				}
			}
			out[j*k+j2] = puzzle.LehmerRank(o2, k)
		}
	}
	return out
}

// zaSetPart is SetFile's deep check of the part named name ("part 2",
// "partition 1 part 2"), looked up through a symmetry in a zero-aware table: every state (placement, blank region) of
// the part's own pattern, with the blank on a cell of that region, read
// through the part (format.Part.Value) equals ReferenceZeroAware of the
// part's pattern. It returns one problem naming the first difference.
func zaSetPart(ctx context.Context, path, name string, part format.Part) (error, error) {
	p := part.Pattern
	ref, err := ReferenceZeroAware(ctx, p)
	if err != nil {
		return nil, err
	}
	n := p.Geom.N()
	label, start := zaLabels(p)
	comb := p.Combinations()
	slots := start[comb]
	cells := make([]uint8, p.K())
	pos := make([]uint8, n)
	bad, first := 0, int64(-1)
	for rank := uint64(0); rank < p.Size(); rank++ {
		p.Unrank(rank, cells)
		for j, t := range p.Tiles {
			pos[t] = cells[j]
		}
		m := rank % comb
		lab := label[m*uint64(n) : (m+1)*uint64(n)]
		for region := uint64(0); region < start[m+1]-start[m]; region++ {
			pos[0] = uint8(slices.Index(lab, int8(region)))
			idx := rank/comb*slots + start[m] + region
			if ref[idx] != part.Value(pos) {
				if bad == 0 {
					first = int64(idx)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		return fmt.Errorf("%s: %w: %s (%s) through %s of zero-aware table %s: %d states differ from a direct build, first at index %d", path, format.ErrSet, name, p, part.Mapping().Sym, part.Table.Pattern, bad, first), nil
	}
	return nil, nil
}
