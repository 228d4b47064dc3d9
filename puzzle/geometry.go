// Package puzzle is the domain model of the sliding-tile puzzle shared by the
// builder, the file format, the verifier and the solver: board geometry,
// boards and goals, solvability, and the ranking functions that map a
// placement of tiles to a compact table index.
//
// Conventions used throughout: cells are numbered 0..N-1 in reading order
// (row-major, cell = row*W + col) on a board of W columns and H rows,
// N = W*H. Tiles are numbered 1..N-1 and the blank is 0. A Board lists the
// tile in each cell; a position vector (pos) lists the cell of each tile,
// pos[t] for t in 0..N-1 (pos[0] is the blank's cell).
package puzzle

import (
	"fmt"
	"strconv"
	"strings"
)

// Board size limits. Boards from 2×2 to 8×8 are supported (any W×H with
// both sides in [MinSide, MaxSide], so at most MaxCells = 64 cells): a cell
// or tile number always fits in a uint8 and a set of cells in a uint64 bit
// mask (bit c set = cell c in the set; see FullMask).
const (
	MinSide  = 2
	MaxSide  = 8
	MaxCells = MaxSide * MaxSide
)

// FullMask is the cell set of all n cells, bits 0..n-1, for 0 <= n <=
// MaxCells (all 64 bits for n = 64).
func FullMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// Geometry is a rectangular board of W columns and H rows.
type Geometry struct {
	W, H int
}

// NewGeometry returns the W×H geometry, or an error when a side is outside
// [MinSide, MaxSide].
func NewGeometry(w, h int) (Geometry, error) {
	if w < MinSide || w > MaxSide || h < MinSide || h > MaxSide {
		return Geometry{}, fmt.Errorf("board %dx%d: each side must be between %d and %d", w, h, MinSide, MaxSide)
	}
	return Geometry{W: w, H: h}, nil
}

// ParseGeometry parses "WxH" (for example "4x4"; "X" is accepted too).
func ParseGeometry(s string) (Geometry, error) {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(s)), "x")
	if len(parts) != 2 {
		return Geometry{}, fmt.Errorf("board size %q: want WxH, for example 4x4", s)
	}
	w, err1 := strconv.Atoi(parts[0])
	h, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return Geometry{}, fmt.Errorf("board size %q: want WxH, for example 4x4", s)
	}
	return NewGeometry(w, h)
}

// N is the number of cells, W*H.
func (g Geometry) N() int { return g.W * g.H }

// String returns "WxH".
func (g Geometry) String() string { return fmt.Sprintf("%dx%d", g.W, g.H) }

// Row and Col of a cell.
func (g Geometry) Row(cell int) int { return cell / g.W }

// Col returns the column of a cell.
func (g Geometry) Col(cell int) int { return cell % g.W }

// Direction of a move. For the solver's output, a move names the direction
// in which the blank moves (the POJ 1077 "Eight" convention).
type Direction uint8

// The four directions, in the fixed order used everywhere a deterministic
// move order matters.
const (
	Up Direction = iota
	Down
	Left
	Right
)

// Directions lists the four directions in their fixed order.
var Directions = [4]Direction{Up, Down, Left, Right}

// Letter is the move letter of the direction: 'u', 'd', 'l' or 'r'.
func (d Direction) Letter() byte { return "udlr"[d] }

// Opposite is the reverse direction.
func (d Direction) Opposite() Direction { return [4]Direction{Down, Up, Right, Left}[d] }

// Step returns the cell reached from cell by one step in direction d, and
// false when that step leaves the board.
func (g Geometry) Step(cell int, d Direction) (int, bool) {
	switch d {
	case Up:
		if cell >= g.W {
			return cell - g.W, true
		}
	case Down:
		if cell+g.W < g.N() {
			return cell + g.W, true
		}
	case Left:
		if cell%g.W != 0 {
			return cell - 1, true
		}
	case Right:
		if cell%g.W != g.W-1 {
			return cell + 1, true
		}
	}
	return -1, false
}

// Neighbors returns, for every cell, the cells one step away in the order
// Up, Down, Left, Right (those that exist).
func (g Geometry) Neighbors() [][]uint8 {
	out := make([][]uint8, g.N())
	for c := 0; c < g.N(); c++ {
		for _, d := range Directions {
			if n, ok := g.Step(c, d); ok {
				out[c] = append(out[c], uint8(n))
			}
		}
	}
	return out
}

// Manhattan is the taxicab distance between two cells.
func (g Geometry) Manhattan(a, b int) int {
	dr := g.Row(a) - g.Row(b)
	dc := g.Col(a) - g.Col(b)
	if dr < 0 {
		dr = -dr
	}
	if dc < 0 {
		dc = -dc
	}
	return dr + dc
}
