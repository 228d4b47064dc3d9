package puzzle

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Board lists the tile in each cell in reading order; 0 is the blank.
// A valid board of N cells holds each of 0..N-1 exactly once.
type Board []uint8

// ErrBoard is wrapped by every error about a malformed board.
var ErrBoard = errors.New("bad board")

// ParseBoard parses one board: N numbers in reading order, separated by
// spaces, tabs and/or commas; "0", "x", "X" or "_" is the blank. A comma
// separates two cells: one at the start or end of the line, or two with
// only spaces or tabs between them, leave a cell empty, which is an error
// ("1,,2,..."). When n > 0
// the board must have exactly n cells; when n == 0 any count forming a
// supported board is accepted (the caller checks the geometry). Errors wrap
// ErrBoard and say what is wrong (count, foreign symbol, repeated or missing
// tile). It never panics.
func ParseBoard(line string, n int) (Board, error) {
	fields := strings.FieldsFunc(line, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == '\r'
	})
	if len(fields) == 0 {
		return nil, fmt.Errorf("%w: empty line", ErrBoard)
	}
	if i := emptyCell(line); i >= 0 {
		return nil, fmt.Errorf("%w: cell %d: empty (a comma with no tile before it)", ErrBoard, i)
	}
	if n > 0 && len(fields) != n {
		return nil, fmt.Errorf("%w: %d cells, want %d", ErrBoard, len(fields), n)
	}
	if len(fields) > MaxCells || len(fields) < MinSide*MinSide {
		return nil, fmt.Errorf("%w: %d cells, want between %d and %d", ErrBoard, len(fields), MinSide*MinSide, MaxCells)
	}
	b := make(Board, len(fields))
	for i, f := range fields {
		switch f {
		case "x", "X", "_":
			b[i] = 0
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%w: cell %d: %q is not a tile number or blank (0, x, _)", ErrBoard, i, f)
		}
		if v < 0 || v >= len(fields) {
			return nil, fmt.Errorf("%w: cell %d: tile %d out of range 0..%d", ErrBoard, i, v, len(fields)-1)
		}
		b[i] = uint8(v)
	}
	if err := b.Validate(len(fields)); err != nil {
		return nil, err
	}
	return b, nil
}

// Validate checks that b has n cells holding each of 0..n-1 exactly once.
func (b Board) Validate(n int) error {
	if len(b) != n {
		return fmt.Errorf("%w: %d cells, want %d", ErrBoard, len(b), n)
	}
	seen := make([]int, n)
	for i, t := range b {
		if int(t) >= n {
			return fmt.Errorf("%w: cell %d: tile %d out of range 0..%d", ErrBoard, i, t, n-1)
		}
		if seen[t] > 0 {
			if t == 0 {
				return fmt.Errorf("%w: more than one blank", ErrBoard)
			}
			return fmt.Errorf("%w: tile %d appears twice", ErrBoard, t)
		}
		seen[t]++
	}
	for t, c := range seen {
		if c == 0 {
			if t == 0 {
				return fmt.Errorf("%w: no blank", ErrBoard)
			}
			return fmt.Errorf("%w: tile %d is missing", ErrBoard, t)
		}
	}
	return nil
}

// Positions returns the position vector of b: pos[t] is the cell of tile t
// (pos[0] is the blank's cell). b must be valid.
func (b Board) Positions() []uint8 {
	pos := make([]uint8, len(b))
	for c, t := range b {
		pos[t] = uint8(c)
	}
	return pos
}

// BoardFromPositions is the inverse of Board.Positions.
func BoardFromPositions(pos []uint8) Board {
	b := make(Board, len(pos))
	for t, c := range pos {
		b[c] = uint8(t)
	}
	return b
}

// String formats the board as numbers separated by single spaces.
func (b Board) String() string {
	var sb strings.Builder
	for i, t := range b {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(int(t)))
	}
	return sb.String()
}

// Equal reports whether two boards are the same.
func (b Board) Equal(o Board) bool {
	if len(b) != len(o) {
		return false
	}
	for i := range b {
		if b[i] != o[i] {
			return false
		}
	}
	return true
}

// Goal conventions (see ../shared reference; Korf 1985 uses blank-first).
const (
	GoalBlankLast  = "blank-last"  // tiles 1..N-1 in reading order, blank in cell N-1
	GoalBlankFirst = "blank-first" // blank in cell 0, tile t in cell t
)

// BlankLastGoal returns the blank-last goal of g: 1 2 ... N-1 0.
func BlankLastGoal(g Geometry) Board {
	b := make(Board, g.N())
	for i := 0; i < g.N()-1; i++ {
		b[i] = uint8(i + 1)
	}
	return b
}

// BlankFirstGoal returns the blank-first goal of g: 0 1 2 ... N-1.
func BlankFirstGoal(g Geometry) Board {
	b := make(Board, g.N())
	for i := range b {
		b[i] = uint8(i)
	}
	return b
}

// ParseGoal parses a goal: "blank-last", "blank-first", or an explicit board
// of g.N() cells in the syntax of ParseBoard.
func ParseGoal(s string, g Geometry) (Board, error) {
	switch strings.TrimSpace(s) {
	case "", GoalBlankLast:
		return BlankLastGoal(g), nil
	case GoalBlankFirst:
		return BlankFirstGoal(g), nil
	}
	if !strings.ContainsAny(s, "0123456789") {
		return nil, fmt.Errorf("%w: goal %q: want %s, %s or a board of %d cells", ErrBoard, s, GoalBlankLast, GoalBlankFirst, g.N())
	}
	b, err := ParseBoard(s, g.N())
	if err != nil {
		return nil, fmt.Errorf("goal %q: %w", s, err)
	}
	return b, nil
}

// GoalName returns "blank-last" or "blank-first" when goal is one of those
// conventions for g, else the board written out.
func GoalName(g Geometry, goal Board) string {
	switch {
	case goal.Equal(BlankLastGoal(g)):
		return GoalBlankLast
	case goal.Equal(BlankFirstGoal(g)):
		return GoalBlankFirst
	}
	return goal.String()
}

// BlankFirstToLast converts a board of the blank-first convention to the
// blank-last one: rotated by 180 degrees (cell c -> N-1-c) and relabelled
// (tile t -> N-t, see BlankFirstToLastTile). The blank-first goal maps to
// the blank-last goal, every move maps to the move in the opposite
// direction (Direction.Opposite), so distances are preserved. The map is
// its own inverse, so it also converts blank-last boards to blank-first.
// b must have at most MaxCells cells; it is not modified.
func BlankFirstToLast(b Board) Board {
	n := len(b)
	out := make(Board, n)
	for c, t := range b {
		out[n-1-c] = BlankFirstToLastTile(n, t)
	}
	return out
}

// BlankFirstToLastTile is the relabelling of BlankFirstToLast on a board
// of n cells: tile t (1..n-1) becomes n-t, the blank (0) stays 0. A tile
// set given for one convention describes the same pattern database, up to
// the 180-degree rotation, under the other convention after this map. It
// is its own inverse.
func BlankFirstToLastTile(n int, t uint8) uint8 {
	if t == 0 {
		return 0
	}
	return uint8(n) - t
}

// Solvable reports whether board b can be brought to goal on geometry g by
// sliding moves. Both must be valid boards of g.N() cells. It does not
// allocate.
//
// Rule: let σ be the permutation of cells taking goal to b (including the
// blank). Every move is a transposition involving the blank, so b is
// reachable iff the parity of σ equals the parity of the taxicab distance
// between the blank's cell in b and in goal. For boards with both sides at
// least 2 this condition is also sufficient (Johnson & Story 1879; Wilson
// 1974), which covers the familiar odd/even-width inversion rules.
func Solvable(g Geometry, b, goal Board) bool {
	var pos, goalPos [MaxCells]uint8
	for c, t := range b {
		pos[t] = uint8(c)
	}
	for c, t := range goal {
		goalPos[t] = uint8(c)
	}
	n := g.N()
	return solvablePositions(g, pos[:n], goalPos[:n])
}

// solvablePositions is the rule of Solvable, the one place it is written,
// for the position vectors pos of the board and goalPos of the goal (both
// of length g.N()). It does not allocate.
func solvablePositions(g Geometry, pos, goalPos []uint8) bool {
	// σ maps the goal cell of tile t to its cell in pos; σ and its inverse
	// have the same parity.
	var perm [MaxCells]uint8
	for t, c := range goalPos {
		perm[c] = pos[t]
	}
	parity := permutationParity(perm[:len(pos)])
	return parity == g.Manhattan(int(pos[0]), int(goalPos[0]))%2
}

// permutationParity returns 0 for an even permutation and 1 for an odd one,
// counting cycles: parity = (n - cycles) mod 2.
func permutationParity(perm []uint8) int {
	var seen uint64
	cycles := 0
	for i := range perm {
		if seen&(1<<uint(i)) != 0 {
			continue
		}
		cycles++
		for j := i; seen&(1<<uint(j)) == 0; j = int(perm[j]) {
			seen |= 1 << uint(j)
		}
	}
	return (len(perm) - cycles) % 2
}

// emptyCell returns the index of the first cell that a comma leaves empty
// in line (a comma at the start or end, or two commas with only spaces or
// tabs between them), or -1.
func emptyCell(line string) int {
	cells := 0
	want := true // at the start or just after a comma: a cell must come
	inCell := false
	comma := false
	for _, r := range line {
		switch r {
		case ',':
			if want {
				return cells
			}
			want, inCell, comma = true, false, true
		case ' ', '\t', '\r':
			inCell = false
		default:
			if !inCell {
				cells++
				inCell = true
			}
			want = false
		}
	}
	if comma && want {
		return cells
	}
	return -1
}
