package compact

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"runtime"

	"golang.org/x/sync/errgroup"

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
	return c.check(t.Values, opt, nil)
}

// check is Check of values, a table of c's shape; with bits not nil
// (⌈len(values)/64⌉ words, each overwritten) it also packs bit 1 of every entry into
// bits, in the parity pass.
func (c *Table) check(values []uint8, opt Options, bits []uint64) error {
	p, r := c.p, c.r
	goal := r.IndexCells(p.GoalCells(), p.GoalPositions()[0])
	if values[goal] != 0 {
		return fmt.Errorf("%w: %s: the goal's entry %d holds %d, not 0", ErrNotCompactable, p, goal, values[goal])
	}
	if err := c.checkParity(values, bits); err != nil {
		return err
	}
	if p.Size() <= exhaustiveLimit || opt.Exhaustive {
		return c.checkMovesOf(values, p.Size(), func(i uint64) uint64 { return i })
	}
	n := opt.Sample
	if n <= 0 {
		n = DefaultSample
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x7a65726f))
	ranks := make([]uint64, n)
	for i := range ranks {
		ranks[i] = rng.Uint64N(p.Size())
	}
	return c.checkMovesOf(values, uint64(n), func(i uint64) uint64 { return ranks[i] })
}

// checkMovesOf runs checkMoves on the placements rank(0..n-1), split in
// runs among GOMAXPROCS goroutines (the sampled moves are cache misses
// into the whole table: 0.66 s a 7-tile table of the 24-puzzle on one
// core); the error is that of the first placement, in that order, that
// fails, as one loop would give.
func (c *Table) checkMovesOf(values []uint8, n uint64, rank func(uint64) uint64) error {
	workers := uint64(max(1, min(runtime.GOMAXPROCS(0), 64)))
	per := (n + workers - 1) / workers
	errs := make([]error, workers)
	var g errgroup.Group
	for w := range workers {
		g.Go(func() error {
			for i := w * per; i < min((w+1)*per, n); i++ {
				if errs[w] = c.checkMoves(values, rank(i)); errs[w] != nil {
					return nil
				}
			}
			return nil
		})
	}
	_ = g.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkParity checks that every entry's low bit is the parity of its
// cell set and, with bits not nil, packs every entry's bit 1 into bits.
// The entries are split into runs of whole words among GOMAXPROCS
// goroutines; the error is that of the first entry that fails.
func (c *Table) checkParity(values []uint8, bits []uint64) error {
	p, r := c.p, c.r
	comb := p.Combinations()
	s := r.Slots()
	want := make([]uint8, s, s+wrap) // h mod 2 of every slot, then the first ones again (checkRun)
	for m := range comb {
		par := c.Parity(puzzle.CombinationUnrank(m, p.Geom.N(), p.K()))
		for slot := r.SlotStart(m); slot < r.SlotStart(m+1); slot++ {
			want[slot] = par
		}
	}
	for i := range uint64(wrap) {
		want = append(want, want[i%s])
	}
	words := (uint64(len(values)) + 63) / 64
	workers := uint64(max(1, min(runtime.GOMAXPROCS(0), 64)))
	per := (words + workers - 1) / workers
	bad := make([]uint64, workers) // per run, the first entry that fails, or len(values)
	var g errgroup.Group
	for w := range workers {
		g.Go(func() error {
			lo, hi := min(w*per, words)*64, min((w+1)*per*64, uint64(len(values)))
			bad[w] = checkRun(values, want, bits, lo, hi)
			return nil
		})
	}
	_ = g.Wait()
	for _, idx := range bad {
		if idx < uint64(len(values)) {
			slot := idx % s
			return fmt.Errorf("%w: %s: entry %d holds %d, whose parity is not that of its placement (%d): not a zero-aware distance table",
				ErrNotCompactable, p, idx, values[idx], want[slot])
		}
	}
	return nil
}

// checkRun is checkParity's work on the entries lo..hi-1 (lo a multiple
// of 64): the first entry whose parity is not want's, or len(values),
// packing bit 1 of each into bits when bits is not nil. want holds the
// parity of every slot followed by its first seven again (wrap), so
// that eight slots from any slot can be read as one word.
func checkRun(values, want []uint8, bits []uint64, lo, hi uint64) uint64 {
	s := uint64(len(want)) - wrap
	slot := lo % s
	for base := lo; base < hi; base += 64 {
		run := values[base:min(base+64, hi)]
		var word, odd uint64
		i := 0
		if s >= wrap+1 {
			// Eight entries at a time: the parity bits against want's, and
			// bit 1 of each gathered into one byte (gather8).
			for ; i+8 <= len(run); i += 8 {
				x := binary.LittleEndian.Uint64(run[i:])
				odd |= (x ^ binary.LittleEndian.Uint64(want[slot:])) & lowBits
				word |= gather8(x>>1) << i
				if slot += 8; slot >= s {
					slot -= s
				}
			}
		}
		for ; i < len(run); i++ {
			odd |= uint64((run[i] ^ want[slot]) & 1)
			word |= uint64(run[i]>>1&1) << i
			if slot++; slot == s {
				slot = 0
			}
		}
		if odd != 0 {
			for i, v := range run {
				if (v^want[(base+uint64(i))%s])&1 != 0 {
					return base + uint64(i)
				}
			}
		}
		if bits != nil {
			bits[base/64] = word
		}
	}
	return uint64(len(values))
}

// wrap is the number of want's first slots repeated after its end
// (checkRun reads eight slots at once).
const wrap = 7

// lowBits has bit 0 of every byte of a word set.
const lowBits = 0x0101010101010101

// gather8 returns bit 0 of each byte of x, byte i giving bit i: the
// multiplication moves bit 8i to bit 56+i without carries (the other
// products land on distinct bits below 56).
func gather8(x uint64) uint64 {
	return (x & lowBits) * 0x0102040810204080 >> 56
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
