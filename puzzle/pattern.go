package puzzle

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// Ranking schemes. A table file names its scheme and version; the exact
// definitions are in format/SPEC.md and are implemented by Pattern.Rank.
const (
	// RankingCellsetOrder is the index of an additive pattern database:
	//   rank = P * C(N,k) + M
	// where M is the colexicographic rank of the set of occupied cells
	// (combinatorial number system: M = Σ_j C(s_j, j+1) over the occupied
	// cells s_0 < s_1 < ... < s_{k-1}) and P is the Lehmer-code
	// (lexicographic) rank of the permutation o, o_i = position of the cell
	// of the i-th pattern tile (tiles in ascending order) within the sorted
	// occupied cells. Range [0, N!/(N-k)!), no holes.
	RankingCellsetOrder = "cellset-order"
	// RankingLehmerHalf is the index of an exact table over all solvable
	// states: floor(L/2) where L is the Lehmer-code (lexicographic) rank of
	// the position vector (pos[0], pos[1], ..., pos[N-1]) as a permutation
	// of 0..N-1. Since the last Lehmer digit is always 0 and the one before
	// it (radix 2) is fixed by solvability, floor(L/2) is a bijection from
	// the N!/2 solvable states onto [0, N!/2).
	RankingLehmerHalf = "lehmer-half"
	// RankingVersion is the version of both schemes.
	RankingVersion = 1
)

// MaxEntries bounds the size of any table this package will index (2^36),
// so a pattern's index always fits comfortably in a uint64 and k! fits too.
const MaxEntries = 1 << 36

// Unreached is the reserved table value 255: the value of an entry that no
// search reached. Valid entries are distances in moves, 0..Unreached-1.
// Builders use it to mark entries not yet visited, the file format
// (format/SPEC.md) forbids it in a stored table, and checkers report it.
const Unreached = 255

// binomial[n][r] = C(n, r) for 0 <= r <= n <= MaxCells (0 for r > n), by
// Pascal's rule; built once when the package is initialised. C(64, 32) =
// 1,832,624,140,942,590,534 (below 2^61) is the largest entry, so no sum
// overflows a uint64.
var binomial = func() (b [MaxCells + 1][MaxCells + 1]uint64) {
	for n := range b {
		b[n][0] = 1
		for r := 1; r <= n; r++ {
			b[n][r] = b[n-1][r-1] + b[n-1][r]
		}
	}
	return b
}()

// maxFactorial is the largest i whose factorial fits in a uint64.
const maxFactorial = 20

// factorial[i] = i! for 0 <= i <= maxFactorial; built once when the package
// is initialised.
var factorial = func() (f [maxFactorial + 1]uint64) {
	f[0] = 1
	for i := 1; i <= maxFactorial; i++ {
		f[i] = f[i-1] * uint64(i)
	}
	return f
}()

// Binomial returns the binomial coefficient C(n, r) for 0 <= r <= n <=
// MaxCells, and 0 otherwise (including r > n, where C(n, r) = 0 by
// definition). It reads a table built once per process and does not
// allocate.
func Binomial(n, r int) uint64 {
	if uint(n) > MaxCells || uint(r) > MaxCells {
		return 0
	}
	return binomial[n][r]
}

// Factorial returns i! for 0 <= i <= 20 (20! is the largest factorial that
// fits in a uint64), and 0 otherwise.
func Factorial(i int) uint64 {
	if uint(i) > maxFactorial {
		return 0
	}
	return factorial[i]
}

// ErrPattern is wrapped by every error about an invalid pattern (tile set).
var ErrPattern = errors.New("bad pattern")

// Pattern is the abstraction a table is built for: a board geometry, a
// goal, and a set of pattern tiles. When the tiles are all of 1..N-1 the
// pattern is Exact: the table holds the true distance of every solvable
// state, indexed by RankingLehmerHalf. Otherwise the table is an additive
// pattern database (Korf & Felner 2002) indexed by RankingCellsetOrder.
//
// A Pattern is immutable after NewPattern and safe for concurrent use.
type Pattern struct {
	Geom  Geometry
	Goal  Board
	Tiles []uint8 // pattern tiles in ascending order, each in 1..N-1
	Exact bool

	n, k      int    // cells; ranked elements (k = len(Tiles), or N-2 for Exact)
	combCount uint64 // C(N,k) for additive patterns
	size      uint64
	goalPos   []uint8 // position vector of the goal
}

// ParseTiles parses a tile list such as "1,2,3" or "1 2 3" (a range "1-8"
// is accepted too). It does not check the tiles against a board.
func ParseTiles(s string) ([]uint8, error) {
	var out []uint8
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("%w: empty tile list", ErrPattern)
	}
	for _, f := range fields {
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 || a >= MaxCells {
			return nil, fmt.Errorf("%w: %q is not a tile number", ErrPattern, f)
		}
		b := a
		if isRange {
			b, err = strconv.Atoi(hi)
			if err != nil || b < a || b >= MaxCells {
				return nil, fmt.Errorf("%w: %q is not a tile range", ErrPattern, f)
			}
		}
		for t := a; t <= b; t++ {
			out = append(out, uint8(t))
		}
	}
	return out, nil
}

// NewPattern validates and returns the pattern of the given tiles on g with
// the given goal. Tiles must be distinct, in 1..N-1, and non-empty; their
// order does not matter. Errors wrap ErrPattern or ErrBoard.
func NewPattern(g Geometry, goal Board, tiles []uint8) (*Pattern, error) {
	if _, err := NewGeometry(g.W, g.H); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPattern, err)
	}
	n := g.N()
	if err := goal.Validate(n); err != nil {
		return nil, fmt.Errorf("goal: %w", err)
	}
	if len(tiles) == 0 {
		return nil, fmt.Errorf("%w: no tiles", ErrPattern)
	}
	ts := append([]uint8(nil), tiles...)
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	for i, t := range ts {
		if t == 0 {
			return nil, fmt.Errorf("%w: 0 is the blank, not a pattern tile", ErrPattern)
		}
		if int(t) >= n {
			return nil, fmt.Errorf("%w: tile %d does not exist on a %s board (tiles 1..%d)", ErrPattern, t, g, n-1)
		}
		if i > 0 && ts[i-1] == t {
			return nil, fmt.Errorf("%w: tile %d listed twice", ErrPattern, t)
		}
	}
	if len(ts) == n-2 {
		// With a single non-pattern tile, (placement, blank cell) is a full
		// state, so the parity rule leaves some placements with no solvable
		// state at all: they would have no value.
		return nil, fmt.Errorf("%w: %d of %d tiles leaves one non-pattern tile, so some placements are unreachable; use all %d tiles (the exact table) or at most %d", ErrPattern, len(ts), n-1, n-1, n-3)
	}
	p := &Pattern{Geom: g, Goal: append(Board(nil), goal...), Tiles: ts, n: n}
	p.Exact = len(ts) == n-1
	p.goalPos = goal.Positions()
	if p.Exact {
		p.k = n - 2
	} else {
		p.k = len(ts)
	}
	// size = N!/(N-k)!, checked against MaxEntries as it grows.
	size := uint64(1)
	for i := 0; i < p.k; i++ {
		size *= uint64(n - i)
		if size > MaxEntries {
			return nil, fmt.Errorf("%w: %d tiles on a %s board need more than 2^36 entries", ErrPattern, len(ts), g)
		}
	}
	if size > math.MaxInt {
		// Tables are Go slices: a 32-bit build cannot index more than
		// MaxInt entries (refused here so that building and reading alike
		// fail with this message instead of a makeslice panic).
		return nil, fmt.Errorf("%w: %d tiles on a %s board need %d entries, more than a %d-bit build can index (%d); use a 64-bit build",
			ErrPattern, len(ts), g, size, strconv.IntSize, math.MaxInt)
	}
	p.size = size
	p.combCount = Binomial(n, p.k)
	return p, nil
}

// Size is the number of table entries: N!/(N-k)! for an additive pattern of
// k tiles, N!/2 for an exact table.
func (p *Pattern) Size() uint64 { return p.size }

// K is the number of pattern tiles (N-1 for an exact table).
func (p *Pattern) K() int { return len(p.Tiles) }

// Ranking returns the name of the ranking scheme.
func (p *Pattern) Ranking() string {
	if p.Exact {
		return RankingLehmerHalf
	}
	return RankingCellsetOrder
}

// CellsLen is the length of the cells slice taken by RankCells and filled by
// Unrank: k (the cell of each pattern tile, tiles ascending) for an additive
// pattern, N (the full position vector, blank first) for an exact table.
func (p *Pattern) CellsLen() int {
	if p.Exact {
		return p.n
	}
	return p.k
}

// Combinations is C(N,k), the number of occupied-cell sets of an additive
// pattern (the M range of RankingCellsetOrder).
func (p *Pattern) Combinations() uint64 { return p.combCount }

// Binomial is the package function Binomial: C(n,r) for 0 <= r <= n <=
// MaxCells, else 0.
func (p *Pattern) Binomial(n, r int) uint64 { return Binomial(n, r) }

// Factorial is the package function Factorial: i! for 0 <= i <= 20, else 0.
func (p *Pattern) Factorial(i int) uint64 { return Factorial(i) }

// GoalPositions returns a copy of the goal's position vector.
func (p *Pattern) GoalPositions() []uint8 { return append([]uint8(nil), p.goalPos...) }

// Manhattan is the sum over the pattern's tiles of the taxicab distance
// from their cell in the position vector pos (len N, pos[t] = cell of tile
// t) to their goal cell: the Manhattan distance of the pattern, in moves.
// It does not allocate.
func (p *Pattern) Manhattan(pos []uint8) int {
	md := 0
	for _, t := range p.Tiles {
		md += p.Geom.Manhattan(int(pos[t]), int(p.goalPos[t]))
	}
	return md
}

// GoalCells returns the cells argument of RankCells for the goal.
func (p *Pattern) GoalCells() []uint8 {
	if p.Exact {
		return p.GoalPositions()
	}
	cells := make([]uint8, p.k)
	for i, t := range p.Tiles {
		cells[i] = p.goalPos[t]
	}
	return cells
}

// Rank returns the table index of a state given by its full position vector
// (pos[t] = cell of tile t, len N). Only the pattern tiles are read for an
// additive pattern. pos must describe a valid (and, for an exact table,
// solvable) state; Rank does not check.
func (p *Pattern) Rank(pos []uint8) uint64 {
	if p.Exact {
		return p.lehmerHalf(pos)
	}
	var cells [MaxCells]uint8
	for i, t := range p.Tiles {
		cells[i] = pos[t]
	}
	return p.cellsetOrder(cells[:p.k])
}

// RankCells ranks a cells slice of length CellsLen (see there).
func (p *Pattern) RankCells(cells []uint8) uint64 {
	if p.Exact {
		return p.lehmerHalf(cells)
	}
	return p.cellsetOrder(cells)
}

// cellsetOrder implements RankingCellsetOrder.
// builder/additive.go relies on P being major: order P's placements fill [P·C(N,k), (P+1)·C(N,k)).
func (p *Pattern) cellsetOrder(cells []uint8) uint64 {
	var mask uint64
	for _, c := range cells {
		mask |= 1 << c
	}
	return OrderRank(mask, cells)*p.combCount + CombinationRank(mask)
}

// CombinationRank is the colexicographic rank M of a set of k cells given
// as a bit mask (bit c set = cell c occupied, cells below MaxCells):
// Σ_j C(s_j, j+1) over the occupied cells s_0 < s_1 < ... (combinatorial
// number system). The range is [0, C(N,k)) on a board of N cells. It does
// not allocate.
func CombinationRank(mask uint64) uint64 {
	var m uint64
	j := 1
	for mask != 0 {
		s := bits.TrailingZeros64(mask)
		m += binomial[s][j]
		j++
		mask &= mask - 1
	}
	return m
}

// CombinationUnrank returns, as a bit mask, the set of k cells of a board
// of n cells (0 <= k <= n <= MaxCells) whose colexicographic rank is m, the
// inverse of CombinationRank; m must be below C(n,k).
func CombinationUnrank(m uint64, n, k int) uint64 {
	var mask uint64
	s := n - 1
	for j := k; j >= 1; j-- {
		for binomial[s][j] > m {
			s--
		}
		m -= binomial[s][j]
		mask |= 1 << uint(s)
		s--
	}
	return mask
}

// OrderRank is the Lehmer-code rank P of the order of k tiles within
// their occupied cells: cells[i] is the cell of the i-th tile (k =
// len(cells)) and mask must be the set of those cells. The range is
// [0, k!). It does not allocate.
func OrderRank(mask uint64, cells []uint8) uint64 {
	var used uint64
	var r uint64
	k := len(cells)
	for i, c := range cells {
		o := uint(bits.OnesCount64(mask & (1<<c - 1)))
		d := o - uint(bits.OnesCount64(used&(1<<o-1)))
		used |= 1 << o
		r = r*uint64(k-i) + uint64(d)
	}
	return r
}

// CombinationRank is the package function CombinationRank.
func (p *Pattern) CombinationRank(mask uint64) uint64 { return CombinationRank(mask) }

// CombinationUnrank is the package function CombinationUnrank on this
// pattern's board: the set of k cells with colexicographic rank m, as a
// bit mask; m must be below C(N,k).
func (p *Pattern) CombinationUnrank(m uint64, k int) uint64 { return CombinationUnrank(m, p.n, k) }

// OrderRank is the package function OrderRank.
func (p *Pattern) OrderRank(mask uint64, cells []uint8) uint64 { return OrderRank(mask, cells) }

// lehmerHalf implements RankingLehmerHalf: the Lehmer rank of the first
// N-2 entries of pos as an (N-2)-permutation of N, which equals floor(L/2).
func (p *Pattern) lehmerHalf(pos []uint8) uint64 {
	return LehmerRank(pos[:p.n-2], p.n)
}

// Unrank fills cells (length CellsLen) with the placement of index idx,
// the inverse of RankCells. idx must be below Size. For an exact table the
// last two tiles are placed so that the state is solvable.
func (p *Pattern) Unrank(idx uint64, cells []uint8) {
	if p.Exact {
		p.unrankLehmerHalf(idx, cells)
		return
	}
	m := idx % p.combCount
	ord := idx / p.combCount
	mask := CombinationUnrank(m, p.n, p.k)
	var sorted [MaxCells]uint8
	for j := 0; mask != 0; j++ {
		sorted[j] = uint8(bits.TrailingZeros64(mask))
		mask &= mask - 1
	}
	LehmerUnrank(ord, p.k, p.k, cells)
	for i := range cells[:p.k] {
		cells[i] = sorted[cells[i]]
	}
}

// LehmerRank is the lexicographic (Lehmer-code) rank of the k-permutation
// seq of 0..n-1 (k = len(seq) <= n, distinct values below n <= MaxCells):
// Σ_i d_i · (n-1-i)!/(n-k)!, where d_i counts the values below seq[i] not
// used by seq[0..i-1]. The range is [0, n!/(n-k)!), which the caller must
// keep within a uint64 (NewPattern keeps every table within MaxEntries;
// 64!/(64-k)! fits for k <= 10).
func LehmerRank(seq []uint8, n int) uint64 {
	var used uint64
	var r uint64
	for i, c := range seq {
		d := uint64(c) - uint64(bits.OnesCount64(used&(1<<c-1)))
		used |= 1 << c
		r = r*uint64(n-i) + d
	}
	return r
}

// LehmerUnrank writes into out[0:k] the k-permutation of 0..n-1 whose
// Lehmer rank is r, the inverse of LehmerRank; r must be below n!/(n-k)!.
func LehmerUnrank(r uint64, n, k int, out []uint8) {
	// digits from least significant: radices n-k+1, ..., n
	var digits [MaxCells]uint8
	for i := k - 1; i >= 0; i-- {
		radix := uint64(n - i)
		digits[i] = uint8(r % radix)
		r /= radix
	}
	var used uint64
	for i := 0; i < k; i++ {
		// the digits[i]-th unused value
		free := ^used
		for d := digits[i]; d > 0; d-- {
			free &= free - 1
		}
		v := uint8(bits.TrailingZeros64(free))
		out[i] = v
		used |= 1 << v
	}
}

func (p *Pattern) unrankLehmerHalf(idx uint64, pos []uint8) {
	n := p.n
	LehmerUnrank(idx, n, n-2, pos)
	var used uint64
	for _, c := range pos[:n-2] {
		used |= 1 << c
	}
	free := ^used & FullMask(n)
	a := uint8(bits.TrailingZeros64(free))
	free &= free - 1
	b := uint8(bits.TrailingZeros64(free))
	pos[n-2], pos[n-1] = a, b
	if !p.SolvablePositions(pos) {
		pos[n-2], pos[n-1] = b, a
	}
}

// SolvablePositions reports whether the state with position vector pos
// (len N) is solvable for this pattern's goal; see Solvable for the rule.
// It does not allocate.
func (p *Pattern) SolvablePositions(pos []uint8) bool {
	return solvablePositions(p.Geom, pos, p.goalPos)
}

// String describes the pattern, e.g. "4x4 blank-last tiles 1,2,3".
func (p *Pattern) String() string {
	var sb strings.Builder
	for i, t := range p.Tiles {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(int(t)))
	}
	kind := "tiles " + sb.String()
	if p.Exact {
		kind = "exact (all tiles)"
	}
	return fmt.Sprintf("%s %s %s", p.Geom, GoalName(p.Geom, p.Goal), kind)
}
