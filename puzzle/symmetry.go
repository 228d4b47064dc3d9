package puzzle

import (
	"errors"
	"fmt"
	"strings"
)

// Symmetry is one of the 8 symmetries of a square board (the dihedral group
// of order 8), 4 of which (Identity, Rot180, FlipLR, FlipTB) also map a
// non-square rectangle onto itself. Each is defined on the cell (r, c) of a
// board of W columns and H rows (format/SPEC.md section 10 gives the same
// table):
//
//	Identity       (r, c) -> (r, c)
//	Rot90          (r, c) -> (c, H-1-r)        quarter turn clockwise, square only
//	Rot180         (r, c) -> (H-1-r, W-1-c)    half turn
//	Rot270         (r, c) -> (W-1-c, r)        quarter turn counter-clockwise, square only
//	FlipLR         (r, c) -> (r, W-1-c)        mirror left-right
//	FlipTB         (r, c) -> (H-1-r, c)        mirror top-bottom
//	Transpose      (r, c) -> (c, r)            main-diagonal reflection, square only
//	AntiTranspose  (r, c) -> (W-1-c, H-1-r)    anti-diagonal reflection, square only
//
// A symmetry preserves adjacency, so it maps the moves of one pattern onto
// the moves of its image: this is what lets one table serve several
// patterns (see MapPattern).
type Symmetry uint8

// The symmetries, in the fixed order FindSymmetry tries them.
const (
	Identity Symmetry = iota
	Rot90
	Rot180
	Rot270
	FlipLR
	FlipTB
	Transpose
	AntiTranspose
	numSymmetries
)

var symmetryNames = [numSymmetries]string{"identity", "rot90", "rot180", "rot270", "flip-lr", "flip-tb", "transpose", "anti-transpose"}

// String is the symmetry's name as written in set files: "identity",
// "rot90", "rot180", "rot270", "flip-lr", "flip-tb", "transpose",
// "anti-transpose".
func (s Symmetry) String() string {
	if s < numSymmetries {
		return symmetryNames[s]
	}
	return fmt.Sprintf("Symmetry(%d)", uint8(s))
}

// ErrSymmetry is wrapped by every error about a symmetry or a symmetric use
// of a table.
var ErrSymmetry = errors.New("bad symmetry")

// ParseSymmetry parses a symmetry name (see String).
func ParseSymmetry(name string) (Symmetry, error) {
	for i, n := range symmetryNames {
		if n == name {
			return Symmetry(i), nil
		}
	}
	return 0, fmt.Errorf("%w: %+q is not one of %s", ErrSymmetry, name, strings.Join(symmetryNames[:], ", "))
}

// ValidOn reports whether s maps the board g onto itself: always for the 4
// symmetries of a rectangle, and for the other 4 only when g is square.
func (s Symmetry) ValidOn(g Geometry) bool {
	switch s {
	case Identity, Rot180, FlipLR, FlipTB:
		return true
	case Rot90, Rot270, Transpose, AntiTranspose:
		return g.W == g.H
	}
	return false
}

// Symmetries lists the symmetries valid on g in their fixed order: 8 on a
// square board, 4 on another rectangle.
func Symmetries(g Geometry) []Symmetry {
	var out []Symmetry
	for s := Identity; s < numSymmetries; s++ {
		if s.ValidOn(g) {
			out = append(out, s)
		}
	}
	return out
}

// Cell returns the image of cell (0..N-1) under s on g; s must be valid on
// g (ValidOn).
func (s Symmetry) Cell(g Geometry, cell int) int {
	r, c := g.Row(cell), g.Col(cell)
	w, h := g.W, g.H
	switch s {
	case Rot90:
		r, c = c, h-1-r
	case Rot180:
		r, c = h-1-r, w-1-c
	case Rot270:
		r, c = w-1-c, r
	case FlipLR:
		c = w - 1 - c
	case FlipTB:
		r = h - 1 - r
	case Transpose:
		r, c = c, r
	case AntiTranspose:
		r, c = w-1-c, h-1-r
	}
	return r*g.W + c
}

// TileMap is the tile relabelling that goes with s for a goal: tile t
// becomes the tile whose goal cell is the image of t's goal cell,
// π(t) = goal[s(goalcell(t))]. The blank is relabelled like any tile, so
// π(0) = 0 only when s fixes the goal's blank cell. goal must be a valid
// board of g and s valid on g. The result has len g.N().
func (s Symmetry) TileMap(g Geometry, goal Board) []uint8 {
	out := make([]uint8, g.N())
	for c, t := range goal {
		out[t] = goal[s.Cell(g, c)]
	}
	return out
}

// Mapping is the symmetric use of a table: the pattern From (the tiles one
// part of a heuristic covers) is looked up through the table built for the
// pattern To, after the board symmetry Sym. Both patterns are additive and
// on the same board and goal; Sym maps From's goal cells exactly onto To's,
// and the tile relabelling Tile (Sym.TileMap) maps From's tiles onto To's.
//
// Why it is exact: an additive table is the distance in the abstract
// graph whose states are the placements of the pattern tiles and the
// region of the blank (the other tiles are indistinguishable; Korf &
// Felner 2002). A symmetry preserves adjacency, so (σ, π) is an
// isomorphism from From's abstract graph onto To's that maps From's goal
// onto To's goal; MapPattern also requires it to map the blank's goal
// region onto To's, so the two searches start at corresponding states and
// every distance is preserved: V_From(x) = V_To(σx).
type Mapping struct {
	From, To *Pattern
	Sym      Symmetry
	Cell     []uint8 // Cell[c] = Sym.Cell(c), len N
	Tile     []uint8 // Tile[t] = π(t), len N (Sym.TileMap of the goal)
	src      []uint8 // src[j] = the From tile relabelled to To.Tiles[j]
}

// MapPattern returns the Mapping that looks up pattern from through the
// table of pattern to after symmetry s, or an error wrapping ErrSymmetry
// when it does not hold: different boards or goals, an exact pattern, a
// symmetry not valid on the board, goal cells that s does not map exactly
// onto to's goal cells (the error names the first tile that misses), or
// a blank goal region that s does not map onto to's.
func MapPattern(from, to *Pattern, s Symmetry) (*Mapping, error) {
	g := from.Geom
	switch {
	case to.Geom != g:
		return nil, fmt.Errorf("%w: pattern %s is on a %s board, its table %s on %s", ErrSymmetry, from, g, to, to.Geom)
	case !to.Goal.Equal(from.Goal):
		return nil, fmt.Errorf("%w: pattern %s has goal %q, its table %s has goal %q", ErrSymmetry, from, from.Goal, to, to.Goal)
	case from.Exact || to.Exact:
		return nil, fmt.Errorf("%w: exact tables (%s) serve only themselves", ErrSymmetry, to)
	case !s.ValidOn(g):
		return nil, fmt.Errorf("%w: %s does not map a %s board onto itself (square boards only)", ErrSymmetry, s, g)
	case len(from.Tiles) != len(to.Tiles):
		return nil, fmt.Errorf("%w: pattern %s has %d tiles, its table %s has %d", ErrSymmetry, from, len(from.Tiles), to, len(to.Tiles))
	}
	m := &Mapping{From: from, To: to, Sym: s, Cell: make([]uint8, g.N()), Tile: s.TileMap(g, from.Goal)}
	for c := range m.Cell {
		m.Cell[c] = uint8(s.Cell(g, c))
	}
	idx := make(map[uint8]int, len(to.Tiles))
	for j, t := range to.Tiles {
		idx[t] = j
	}
	m.src = make([]uint8, len(to.Tiles))
	for _, t := range from.Tiles {
		j, ok := idx[m.Tile[t]]
		if !ok {
			return nil, fmt.Errorf("%w: %s maps the goal cell %d of tile %d of %s to cell %d, which is not a goal cell of %s", ErrSymmetry, s, from.goalPos[t], t, from, m.Cell[from.goalPos[t]], to)
		}
		m.src[j] = t
	}
	fromRegion := goalBlankRegion(from)
	var img uint64
	for c := 0; c < g.N(); c++ {
		if fromRegion&(1<<c) != 0 {
			img |= 1 << m.Cell[c]
		}
	}
	if img != goalBlankRegion(to) {
		return nil, fmt.Errorf("%w: %s maps the blank's goal region of %s (the free cells around goal cell %d) onto another region than that of %s", ErrSymmetry, s, from, from.goalPos[0], to)
	}
	return m, nil
}

// FindSymmetry returns the first symmetry, in the fixed order of the
// constants, under which the table of pattern to serves pattern from
// (MapPattern), and false when there is none.
func FindSymmetry(from, to *Pattern) (*Mapping, bool) {
	for _, s := range Symmetries(from.Geom) {
		if m, err := MapPattern(from, to, s); err == nil {
			return m, true
		}
	}
	return nil, false
}

// Cells fills cells (length To.CellsLen()) with the cells of To's tiles
// (ascending) in the transformed state of the position vector pos (len N):
// the To tile π(t) sits on cell σ(pos[t]). To.RankCells(cells) is then the
// index of From's value in To's table. It does not allocate.
func (m *Mapping) Cells(pos []uint8, cells []uint8) {
	for j, t := range m.src {
		cells[j] = m.Cell[pos[t]]
	}
}

// Positions returns the transformed position vector: out[π(t)] = σ(pos[t])
// for every t, that is, the board with tile π(t) on cell σ(c) for each
// tile t on cell c. To.Rank(m.Positions(pos)) = To.RankCells of Cells.
func (m *Mapping) Positions(pos []uint8) []uint8 {
	out := make([]uint8, len(pos))
	for t, c := range pos {
		out[m.Tile[t]] = m.Cell[c]
	}
	return out
}

// Rank is To's table index of From's value for the position vector pos.
// It does not allocate.
func (m *Mapping) Rank(pos []uint8) uint64 {
	var cells [MaxCells]uint8
	m.Cells(pos, cells[:len(m.src)])
	return m.To.cellsetOrder(cells[:len(m.src)])
}

// Sources returns, for each tile of To (ascending), the tile of From that
// is looked up as it: the inverse of the relabelling restricted to the
// pattern.
func (m *Mapping) Sources() []uint8 { return append([]uint8(nil), m.src...) }

// goalBlankRegion is the set of cells (bit mask) connected to the goal's
// blank cell through cells that hold no pattern tile in the goal.
func goalBlankRegion(p *Pattern) uint64 {
	g := p.Geom
	var occupied uint64
	for _, t := range p.Tiles {
		occupied |= 1 << p.goalPos[t]
	}
	start := int(p.goalPos[0])
	region := uint64(1) << start
	stack := []int{start}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range Directions {
			n, ok := g.Step(c, d)
			if !ok || occupied&(1<<n) != 0 || region&(1<<n) != 0 {
				continue
			}
			region |= 1 << n
			stack = append(stack, n)
		}
	}
	return region
}
