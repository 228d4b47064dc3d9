package compact

import (
	"fmt"
	"math/rand/v2"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// ExhaustiveLimit is the largest number of placements (k!·C(N,k)) whose
// every pattern move Check tries by default: 2^22 (every table of the
// 15-puzzle up to 5 tiles; a 6-tile table of the 24-puzzle has 1.3·10^8,
// whose moves would take minutes to try at each load).
const ExhaustiveLimit = 1 << 22

// exhaustiveLimit is ExhaustiveLimit; tests lower it to reach the sample.
var exhaustiveLimit uint64 = ExhaustiveLimit

// DefaultSample is the number of placements, drawn at random, whose
// pattern moves Check tries on a table above ExhaustiveLimit.
const DefaultSample = 1 << 15

// Options tune Check.
type Options struct {
	// Exhaustive makes Check try the moves of every placement, whatever
	// the table's size.
	Exhaustive bool
	// Sample is the number of random placements tried above
	// ExhaustiveLimit; 0 means DefaultSample.
	Sample int
	// Seed seeds the sample (deterministic: the same seed tries the same
	// placements).
	Seed uint64
}

// Check reports whether the zero-aware table t can be held at 1 bit (Pack
// runs it): an error wrapping ErrNotCompactable names the first entry
// found that breaks it, ErrNotZeroAware is returned for another kind of
// table. It checks
//
//   - the goal's entry is 0;
//   - parity, on every entry: h mod 2 = Parity of the entry's cell set;
//   - consistency, on every pattern-tile move out of every placement
//     (all its regions) when the table has at most ExhaustiveLimit
//     placements or opt.Exhaustive, else out of opt.Sample random
//     placements: the two entries differ by exactly 1.
//
// The parity pass reads every entry once (about 0.2 s for 1.3·10^8
// entries). The sampled consistency check is not a proof: a table built
// by builder.BuildZeroAware is consistent by construction (BFS
// distances), verify checks it against an independent search, and the
// file's checksums keep it so; the sample catches a table of the wrong
// kind or a builder fault that is not confined to a few entries.
func Check(t *format.Table, opt Options) error {
	c, err := newTable(t)
	if err != nil {
		return err
	}
	return c.check(t.Values, opt)
}

// check is Check of values, a table of c's shape.
func (c *Table) check(values []uint8, opt Options) error {
	p, r := c.p, c.r
	goal := r.IndexCells(p.GoalCells(), p.GoalPositions()[0])
	if values[goal] != 0 {
		return fmt.Errorf("%w: %s: the goal's entry %d holds %d, not 0", ErrNotCompactable, p, goal, values[goal])
	}
	if err := c.checkParity(values); err != nil {
		return err
	}
	if p.Size() <= exhaustiveLimit || opt.Exhaustive {
		for rank := range p.Size() {
			if err := c.checkMoves(values, rank); err != nil {
				return err
			}
		}
		return nil
	}
	n := opt.Sample
	if n <= 0 {
		n = DefaultSample
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x7a65726f))
	for range n {
		if err := c.checkMoves(values, rng.Uint64N(p.Size())); err != nil {
			return err
		}
	}
	return nil
}

// checkParity checks that every entry's low bit is the parity of its
// cell set.
func (c *Table) checkParity(values []uint8) error {
	p, r := c.p, c.r
	comb := p.Combinations()
	s := r.Slots()
	want := make([]uint8, s) // h mod 2 of every slot
	for m := range comb {
		par := c.Parity(puzzle.CombinationUnrank(m, p.Geom.N(), p.K()))
		for slot := r.SlotStart(m); slot < r.SlotStart(m+1); slot++ {
			want[slot] = par
		}
	}
	for ord := range uint64(len(values)) / s {
		block := values[ord*s : (ord+1)*s]
		for slot, v := range block {
			if (v^want[slot])&1 != 0 {
				idx := ord*s + uint64(slot)
				return fmt.Errorf("%w: %s: entry %d holds %d, whose parity is not that of its placement (%d): not a zero-aware distance table",
					ErrNotCompactable, p, idx, v, want[slot])
			}
		}
	}
	return nil
}

// checkMoves checks every pattern-tile move out of the placement of rank
// (RankingCellsetOrder), from each of its regions: the values of the two
// states differ by exactly 1.
func (c *Table) checkMoves(values []uint8, rank uint64) error {
	p, r := c.p, c.r
	k := p.K()
	var cells [puzzle.MaxCells]uint8
	p.Unrank(rank, cells[:k])
	mask := maskOf(cells[:k])
	m := rank % p.Combinations()
	base := rank/p.Combinations()*r.Slots() + r.SlotStart(m)
	for i := range k {
		from := cells[i]
		for _, d := range c.nb[from] {
			if mask>>d&1 != 0 {
				continue
			}
			src := base + uint64(r.Region(m, int(d)))
			cells[i] = d
			dst := r.IndexCells(cells[:k], from)
			cells[i] = from
			a, b := values[src], values[dst]
			if a != b+1 && b != a+1 {
				return fmt.Errorf("%w: %s: entries %d (%d) and %d (%d) are one pattern move apart but differ by %d, not 1: the table is not consistent",
					ErrNotCompactable, p, src, a, dst, b, absDiff(a, b))
			}
		}
	}
	return nil
}

// absDiff is |a − b|.
func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
