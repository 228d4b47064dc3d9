package format

// Kind is what a table or a set computes: the one value that builder,
// verify and solver dispatch on. A table file's header holds one of
// KindExact, KindAdditive and KindZeroAware (SPEC.md section 2, key
// "kind"); KindCatalogue is a set's kind only (a set file of version 2,
// SPEC.md section 12), never a header's.
type Kind string

// The kinds. A kind's string is its spelling in a header.
const (
	// KindExact is one table of all tiles: the true distance of every
	// solvable state (ranking lehmer-half).
	KindExact Kind = "exact"
	// KindAdditive is a table of some tiles, the minimum over the blank's
	// cells (Korf & Felner 2002; ranking cellset-order); disjoint ones sum.
	KindAdditive Kind = "additive"
	// KindZeroAware is an additive table with one value per placement and
	// region of the blank (Clausecker & Reinefeld 2019, zeroaware.go;
	// ranking cellset-order-region).
	KindZeroAware Kind = "zero-aware"
	// KindCatalogue is a set that takes the maximum over several additive
	// partitions (Holte et al. 2006): a set's kind, not a table's.
	KindCatalogue Kind = "catalogue"
)

// TableKind reports whether k is a kind a table header may hold (exact,
// additive or zero-aware).
func (k Kind) TableKind() bool {
	return k == KindExact || k == KindAdditive || k == KindZeroAware
}

// PerRegion reports whether a table of kind k holds one value per blank
// region (zero-aware) rather than one per placement.
func (k Kind) PerRegion() bool { return k == KindZeroAware }

// String returns the kind's header spelling.
func (k Kind) String() string { return string(k) }

// TableKind returns the kind of table t (its header's).
func (t *Table) TableKind() Kind { return t.Header.Kind }

// Kind returns the set's kind: KindCatalogue for a catalogue (even of one
// partition), KindExact for one exact table, otherwise KindZeroAware when
// any part's table is zero-aware and KindAdditive when none is.
func (s *Set) Kind() Kind {
	switch {
	case s.Partitions != nil:
		return KindCatalogue
	case s.Exact():
		return KindExact
	}
	for _, t := range s.Tables {
		if t.Header.Kind == KindZeroAware {
			return KindZeroAware
		}
	}
	return KindAdditive
}
