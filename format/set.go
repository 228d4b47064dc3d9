package format

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Set is a group of tables that together form one heuristic: either one
// exact table, or additive pattern databases whose parts have pairwise
// disjoint tile sets on the same board and goal. Their sum is admissible.
//
// A table may serve several parts: the part's own tiles are looked up
// through a table built for their image under a board symmetry
// (puzzle.MapPattern; set files, SPEC.md section 10). Parts lists the parts
// of the heuristic; Tables the distinct tables behind them, in order of
// first use. A Set is read-only after NewSet and safe for concurrent use.
//
// A catalogue (NewCatalogue, set file version 2, SPEC.md section 12) is a
// set of several additive partitions whose heuristic is the maximum over
// the partitions of each partition's sum. Its Parts hold every distinct
// part once (equal tiles, table and symmetry: a part used by several
// partitions is looked up once), in order of first use; Partitions[i]
// lists the indices into Parts of partition i's parts, in file order.
type Set struct {
	Parts      []Part
	Partitions [][]int         // catalogue only (SPEC.md section 12): for each partition, the indices into Parts of its parts, in file order; nil for an additive set (one partition of all Parts)
	Tables     []*Table        // the distinct tables of Parts, in order of first use
	Geom       puzzle.Geometry // board shared by all tables
	Goal       puzzle.Board    // goal shared by all tables
}

// Part is one term of a set's heuristic: the tiles of Pattern, looked up in
// Table after the symmetry Sym. With Sym = puzzle.Identity, Pattern is the
// table's own pattern.
type Part struct {
	Pattern *puzzle.Pattern
	Table   *Table
	Sym     puzzle.Symmetry
	m       *puzzle.Mapping // nil for the identity use of the table's own pattern
}

// Mapping returns the symmetric use of the part's table, or nil when the
// part is the table's own pattern (identity).
func (p *Part) Mapping() *puzzle.Mapping { return p.m }

// Value is the part's table value (moves) for the position vector pos
// (len N, pos[t] = cell of tile t): Table.Values at the index of the
// transformed placement, or for a table read as codes (ReadCodesFile)
// CodeValue there. It does not allocate.
func (p *Part) Value(pos []uint8) uint8 {
	if r := p.Table.Regions; r != nil {
		if p.m == nil {
			return p.Table.Values[r.Index(pos)]
		}
		var cells [puzzle.MaxCells]uint8
		k := len(p.Table.Pattern.Tiles)
		p.m.Cells(pos, cells[:k])
		return p.Table.Values[r.IndexCells(cells[:k], p.m.Cell[pos[0]])]
	}
	var rank uint64
	if p.m == nil {
		rank = p.Table.Pattern.Rank(pos)
	} else {
		rank = p.m.Rank(pos)
	}
	if p.Table.Codes != nil {
		// The part's tiles have the Manhattan distance of their images
		// in the table: a symmetry keeps taxicab distances.
		return p.Table.CodeValue(rank, uint8(p.Pattern.Manhattan(pos)))
	}
	return p.Table.Values[rank]
}

// NewSet checks and groups tables, each used for its own pattern: at least
// one, each complete, and their patterns a valid additive set
// (puzzle.CheckAdditive: same geometry and goal, tile sets pairwise
// disjoint, an exact table alone). Errors name the tables by position
// (table 1, 2, ...) and pattern, and the tiles in conflict.
func NewSet(tables ...*Table) (*Set, error) {
	names := make([]string, len(tables))
	parts := make([]Part, len(tables))
	for i, t := range tables {
		names[i] = "table " + strconv.Itoa(i+1)
		parts[i] = Part{Table: t}
		if t != nil {
			parts[i].Pattern = t.Pattern
		}
	}
	return newSet(names, parts)
}

// NewSetParts checks and groups parts that may use tables symmetrically:
// each Part gives Pattern (the tiles it covers), Table and Sym. Besides the
// rules of NewSet, each table must be on the board and goal of the set and
// Sym must map the part's goal cells exactly onto the table's
// (puzzle.MapPattern). Errors name the parts by position (part 1, 2, ...).
func NewSetParts(parts []Part) (*Set, error) {
	names := make([]string, len(parts))
	for i := range parts {
		names[i] = "part " + strconv.Itoa(i+1)
	}
	return newSet(names, parts)
}

// errPrefix is what newSet's errors start with: "tilepdb" for sets made
// in memory, ErrSet for sets read from set files.
var errPrefix = errors.New("tilepdb")

func newSet(names []string, in []Part) (*Set, error) {
	return newSetWrap(names, in, errPrefix)
}

// newSetWrap is newSet with errors wrapping prefix.
func newSetWrap(names []string, in []Part, prefix error) (*Set, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("%w: empty set: need at least one table", prefix)
	}
	parts, err := checkParts(names, in, prefix)
	if err != nil {
		return nil, err
	}
	s := &Set{Parts: parts, Geom: parts[0].Pattern.Geom, Goal: append(puzzle.Board(nil), parts[0].Pattern.Goal...)}
	s.Tables = tablesOf(parts)
	return s, nil
}

// checkParts checks one additive group of parts (a set, or one partition
// of a catalogue) named names, as NewSetParts describes, and returns a
// copy of the parts with their mappings. Errors wrap prefix.
func checkParts(names []string, in []Part, prefix error) ([]Part, error) {
	parts := append([]Part(nil), in...)
	patterns := make([]*puzzle.Pattern, len(parts))
	for i, p := range parts {
		t := p.Table
		if t == nil || t.Pattern == nil || (!t.headerOnly && uint64(len(t.Values)) != t.entries()) {
			return nil, fmt.Errorf("%w: %s: not a complete table", prefix, names[i])
		}
		if p.Pattern == nil {
			return nil, fmt.Errorf("%w: %s: no pattern", prefix, names[i])
		}
		patterns[i] = p.Pattern
	}
	if err := puzzle.CheckAdditive(names, patterns); err != nil {
		return nil, fmt.Errorf("%w: %w", prefix, err)
	}
	for i := range parts {
		p := &parts[i]
		tp := p.Table.Pattern
		p.m = nil
		own := p.Sym == puzzle.Identity && tp.Geom == p.Pattern.Geom && tp.Goal.Equal(p.Pattern.Goal) && slices.Equal(tp.Tiles, p.Pattern.Tiles)
		if !own {
			m, err := puzzle.MapPattern(p.Pattern, tp, p.Sym)
			if err != nil {
				return nil, fmt.Errorf("%w: %s (%s) through table %s: %w", prefix, names[i], p.Pattern, tp, err)
			}
			p.m = m
		}
	}
	return parts, nil
}

// tablesOf returns the distinct tables of parts, in order of first use.
func tablesOf(parts []Part) []*Table {
	var out []*Table
	seen := map[*Table]bool{}
	for _, p := range parts {
		if !seen[p.Table] {
			seen[p.Table] = true
			out = append(out, p.Table)
		}
	}
	return out
}

// MaxPartitions bounds the number of partitions of a catalogue (SPEC.md
// section 12).
const MaxPartitions = 64

// MaxCataloguePartsTotal bounds the number of parts over all partitions of
// a catalogue (SPEC.md section 12).
const MaxCataloguePartsTotal = 4096

// NewCatalogue checks and groups partitions of parts into a catalogue: a
// set whose heuristic is the maximum over the partitions of the sum of
// each partition's parts (SPEC.md section 12). It needs 1 to
// MaxPartitions partitions, at most MaxCataloguePartsTotal parts in all,
// and each partition checked as by NewSetParts (at least one part, tile
// sets pairwise disjoint within the partition, each part's table complete
// and mapped by its symmetry); partitions may share tiles and tables. All
// parts are on one board and goal, and no part is an exact table (an
// exact table is a whole heuristic, used alone). Errors name the parts as
// "partition I part J" (I and J from 1, J within the partition).
//
// Parts equal in tiles, table and symmetry are kept once in Set.Parts and
// shared by the partitions that use them (Set.Partitions).
func NewCatalogue(partitions [][]Part) (*Set, error) {
	return newCatalogue(func(i, j int) string { return fmt.Sprintf("partition %d part %d", i+1, j+1) }, partitions, errPrefix)
}

// newCatalogue is NewCatalogue with the parts named by name (partition i,
// part j, from 0) and errors wrapping prefix.
func newCatalogue(name func(i, j int) string, partitions [][]Part, prefix error) (*Set, error) {
	if len(partitions) == 0 || len(partitions) > MaxPartitions {
		return nil, fmt.Errorf("%w: %d partitions, want 1 to %d", prefix, len(partitions), MaxPartitions)
	}
	total := 0
	for i, ps := range partitions {
		if len(ps) == 0 {
			return nil, fmt.Errorf("%w: partition %d: no parts", prefix, i+1)
		}
		total += len(ps)
	}
	if total > MaxCataloguePartsTotal {
		return nil, fmt.Errorf("%w: %d parts in all, want at most %d", prefix, total, MaxCataloguePartsTotal)
	}
	s := &Set{Partitions: make([][]int, len(partitions))}
	type key struct {
		tiles string
		table *Table
		sym   puzzle.Symmetry
	}
	index := map[key]int{}
	var firstName string
	for i, in := range partitions {
		names := make([]string, len(in))
		for j := range in {
			names[j] = name(i, j)
		}
		parts, err := checkParts(names, in, prefix)
		if err != nil {
			return nil, err
		}
		for j, p := range parts {
			if p.Pattern.Exact {
				return nil, fmt.Errorf("%w: %s (%s) is an exact table and must be used alone, not in a catalogue", prefix, names[j], p.Pattern)
			}
		}
		first := parts[0].Pattern
		if i == 0 {
			s.Geom, s.Goal, firstName = first.Geom, append(puzzle.Board(nil), first.Goal...), names[0]
		} else if first.Geom != s.Geom {
			return nil, fmt.Errorf("%w: %s (%s) is for a %s board, %s for %s", prefix, names[0], first, first.Geom, firstName, s.Geom)
		} else if !first.Goal.Equal(s.Goal) {
			return nil, fmt.Errorf("%w: %s (%s) has goal %q, %s has goal %q", prefix, names[0], first, first.Goal, firstName, s.Goal)
		}
		idx := make([]int, len(parts))
		for j, p := range parts {
			k := key{string(p.Pattern.Tiles), p.Table, p.Sym}
			n, ok := index[k]
			if !ok {
				n = len(s.Parts)
				index[k] = n
				s.Parts = append(s.Parts, p)
			}
			idx[j] = n
		}
		s.Partitions[i] = idx
	}
	s.Tables = tablesOf(s.Parts)
	return s, nil
}

// PartName names Parts[k] in messages: "part K" (from 1) for an additive
// set; for a catalogue its first use, "partition I part J" (from 1, J
// within partition I).
func (s *Set) PartName(k int) string {
	for i, idx := range s.Partitions {
		for j, x := range idx {
			if x == k {
				return partName(i+1, j+1)
			}
		}
	}
	return partName(0, k+1)
}

// Catalogue reports whether s is a catalogue (Partitions != nil): a set
// read from a set file of version 2 or made by NewCatalogue, even with one
// partition.
func (s *Set) Catalogue() bool { return s.Partitions != nil }

// Exact reports whether the set is one exact table (never a catalogue).
func (s *Set) Exact() bool { return s.Partitions == nil && s.Parts[0].Pattern.Exact }

// Heuristic returns the set's heuristic, in moves, for the position
// vector pos: the sum over the parts of Part.Value(pos) (admissible
// because the parts are disjoint), or for a catalogue the maximum over the
// partitions of each partition's sum (admissible since each sum is). pos
// is the full position vector (pos[t] = cell of tile t, len N) of a valid
// state, solvable for an exact set; it is not checked (see HeuristicBoard).
// It does not allocate for a catalogue of up to 256 distinct parts.
func (s *Set) Heuristic(pos []uint8) int {
	if s.Partitions == nil {
		h := 0
		for i := range s.Parts {
			h += int(s.Parts[i].Value(pos))
		}
		return h
	}
	var buf [256]uint8
	vals := buf[:0]
	if len(s.Parts) > len(buf) {
		vals = make([]uint8, 0, len(s.Parts))
	}
	for i := range s.Parts {
		vals = append(vals, s.Parts[i].Value(pos))
	}
	best := 0
	for _, idx := range s.Partitions {
		h := 0
		for _, k := range idx {
			h += int(vals[k])
		}
		best = max(best, h)
	}
	return best
}

// HeuristicBoard checks that b is a permutation of 0..N-1 for the set's
// geometry and solvable for its goal, then returns Heuristic of its
// positions. Errors wrap puzzle.ErrBoard.
func (s *Set) HeuristicBoard(b puzzle.Board) (int, error) {
	if err := b.Validate(s.Geom.N()); err != nil {
		return 0, err
	}
	pos := b.Positions()
	if !s.Parts[0].Pattern.SolvablePositions(pos) {
		return 0, fmt.Errorf("%w: board %q cannot reach the goal %q", puzzle.ErrBoard, b, s.Goal)
	}
	return s.Heuristic(pos), nil
}

// ErrUnsolvable is wrapped by the error of Lookup for a board that cannot
// reach the set's goal.
var ErrUnsolvable = errors.New("board is not solvable")

// Lookup is the heuristic value of board b as front ends report it (pdbgen
// lookup), in moves. b must be a permutation of 0..N-1 for the set's
// geometry (errors wrap puzzle.ErrBoard). For a board that can reach the
// goal it is Heuristic of b's positions. For one that cannot (the other
// parity class) Lookup returns an error wrapping ErrUnsolvable, for exact
// and additive sets alike: an exact table has no entry for it, and although
// additive tables hold every placement of their tiles, a sum for a board
// that has no distance would only mislead (pdbgen answers "unsolvable", as
// solve does).
func (s *Set) Lookup(b puzzle.Board) (int, error) {
	if err := b.Validate(s.Geom.N()); err != nil {
		return 0, err
	}
	pos := b.Positions()
	if !s.Parts[0].Pattern.SolvablePositions(pos) {
		return 0, fmt.Errorf("%w for goal %s", ErrUnsolvable, puzzle.GoalName(s.Geom, s.Goal))
	}
	return s.Heuristic(pos), nil
}
