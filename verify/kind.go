package verify

import (
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// tableKind is the kind verify checks t as, from what was decoded (the
// header's claim is compared with it by the header check): zero-aware
// when t has blank regions, exact when its pattern has every tile, else
// additive (also for a table without a pattern, which the header check
// reports before any pass).
func tableKind(t *format.Table) format.Kind {
	switch {
	case t == nil || t.Pattern == nil:
		return format.KindAdditive
	case t.Regions != nil:
		return format.KindZeroAware
	case t.Pattern.Exact:
		return format.KindExact
	}
	return format.KindAdditive
}

// tableKindOf is the kind of a table read frame by frame: the header's
// zero-aware, else exact or additive by the pattern.
func tableKindOf(h *format.Header, p *puzzle.Pattern) format.Kind {
	switch {
	case h.Kind == format.KindZeroAware:
		return format.KindZeroAware
	case p.Exact:
		return format.KindExact
	}
	return format.KindAdditive
}

// passFunc is one pass's work on the entries [lo, hi).
type passFunc func(lo, hi uint64, tl *tally)

// kindChecks are the functions of checkTable's passes for one kind of
// table: an exact table unranks each entry, an additive one walks its
// index in order and needs the walk's tables first (sweep.go).
type kindChecks struct {
	prepare         func(c *checker) // before the passes; nil: nothing
	prepareSymmetry func(c *checker) // once c.syms is set; nil: nothing
	ranking         func(c *checker) passFunc
	entries         func(c *checker) passFunc // goal, unreached, manhattan, descent, step
	symmetry        func(c *checker) passFunc
}

// kindPasses are the passes of the kinds checkTable checks itself (a
// zero-aware table goes to checkZeroAware).
var kindPasses = map[format.Kind]kindChecks{
	format.KindExact: {
		ranking:  func(c *checker) passFunc { return c.exactRanking },
		entries:  func(c *checker) passFunc { return c.exactEntries },
		symmetry: func(c *checker) passFunc { return c.exactSymmetry },
	},
	format.KindAdditive: {
		prepare: func(c *checker) { c.cellSets = newCellSets(c.p) },
		prepareSymmetry: func(c *checker) {
			for i := range c.syms {
				c.symImages = append(c.symImages, newSymmetryImage(c.p, &c.syms[i]))
			}
		},
		ranking:  func(c *checker) passFunc { return c.additiveRanking },
		entries:  func(c *checker) passFunc { return c.additiveEntries },
		symmetry: func(c *checker) passFunc { return c.additiveSymmetry },
	},
}
