package fsm

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Letters are the move letters, in move order.
const Letters = "udlr"

// Dead is the transition of a move that completes a forbidden string.
const Dead = -1

// MaxDepth bounds the depth of Generate (strings are packed 2 bits a move
// in a uint64).
const MaxDepth = 32

// Automaton is a compiled set of forbidden move strings. State 0 is the
// start (no move made); Next gives the state after a move, or Dead.
type Automaton struct {
	// Depth is the length of the longest strings considered when the
	// forbidden strings were generated (0 for Compile).
	Depth int
	// Forbidden lists the forbidden strings, in order (shortest first).
	Forbidden []string
	next      []int32
}

// Next is the state after move m (0..3) from state st, or Dead.
func (a *Automaton) Next(st int32, m uint8) int32 { return a.next[int(st)<<2|int(m)] }

// Table is the transition table: the state after move m from state st is
// Table()[st*4+m], Dead when the move completes a forbidden string. It is
// the automaton's own slice, not to be modified.
func (a *Automaton) Table() []int32 { return a.next }

// States is the number of states.
func (a *Automaton) States() int { return len(a.next) / 4 }

// Run steps the automaton from the start through the moves of s (letters
// "udlr") and returns the state reached, or Dead as soon as a forbidden
// string is completed (and at a letter outside "udlr").
func (a *Automaton) Run(s string) int32 {
	st := int32(0)
	for i := 0; i < len(s); i++ {
		m := strings.IndexByte(Letters, s[i])
		if m < 0 {
			return Dead
		}
		st = a.Next(st, uint8(m))
		if st == Dead {
			return Dead
		}
	}
	return st
}

// New returns the automaton of the strings Generate(depth) forbids.
func New(depth int) (*Automaton, error) {
	f, err := Generate(depth)
	return compileDepth(depth, f, err)
}

// compileDepth compiles f, the forbidden strings of length at most depth
// (Generate's or Embedded's, which failed with err unless nil), and
// records depth in the automaton.
func compileDepth(depth int, f []string, err error) (*Automaton, error) {
	if err != nil {
		return nil, err
	}
	a, err := Compile(f)
	if err != nil {
		return nil, err
	}
	a.Depth = depth
	return a, nil
}

// Generate returns the minimal forbidden strings of length at most depth
// (see the package comment), in order. depth must be in 0..MaxDepth.
func Generate(depth int) ([]string, error) {
	return generate(depth, true)
}

// box is the bounding box of the cells a string visits, in grid
// coordinates (x to the right, y down, the origin at (0, 0)).
type box struct{ x0, y0, x1, y1 int8 }

func (b box) within(o box) bool {
	return b.x0 >= o.x0 && b.y0 >= o.y0 && b.x1 <= o.x1 && b.y1 <= o.y1
}

// dx, dy are the blank's displacement for each move.
var (
	dx = [4]int{0, 0, -1, 1}
	dy = [4]int{-1, 1, 0, 0}
)

// generate is Generate; with boxed false it drops the bounding-box
// condition (any equivalent string counts), which is wrong on bounded
// boards and kept for the tests that show it.
func generate(depth int, boxed bool) ([]string, error) {
	if depth < 0 || depth > MaxDepth {
		return nil, fmt.Errorf("fsm: depth %d out of range 0..%d", depth, MaxDepth)
	}
	// The grid: cells (x, y) with |x|, |y| <= depth, cell index
	// (y+depth)*side + x+depth, each holding its own index at the start.
	side := 2*depth + 1
	grid := make([]int32, side*side)
	for i := range grid {
		grid[i] = int32(i)
	}
	origin := depth*side + depth
	var visited []int
	var key []byte
	// play plays the string packed in s (length n, first move in the
	// highest bits) and returns its arrangement key and bounding box,
	// leaving the grid as it found it.
	play := func(s uint64, n int) (string, box) {
		visited = append(visited[:0], origin)
		x, y := 0, 0
		var b box
		blank := origin
		for i := n - 1; i >= 0; i-- {
			m := s >> (2 * i) & 3
			x, y = x+dx[m], y+dy[m]
			to := (y+depth)*side + x + depth
			grid[blank], grid[to] = grid[to], grid[blank]
			blank = to
			visited = append(visited, to)
			b.x0, b.x1 = min(b.x0, int8(x)), max(b.x1, int8(x))
			b.y0, b.y1 = min(b.y0, int8(y)), max(b.y1, int8(y))
		}
		slices.Sort(visited)
		key = key[:0]
		last := -1
		for _, c := range visited {
			if c == last {
				continue
			}
			last = c
			if t := int(grid[c]); t != c {
				key = append(key, byte(c), byte(c>>8), byte(t), byte(t>>8))
			}
			grid[c] = int32(c)
		}
		return string(key), b
	}

	seen := map[string][]box{} // arrangement -> boxes of the survivors reaching it
	k, b := play(0, 0)
	seen[k] = []box{b}
	forbidden := make([]map[uint64]bool, depth+1) // by length
	var out []string
	level := []uint64{0} // the survivors of the current length, in order
	for n := 1; n <= depth; n++ {
		forbidden[n] = map[uint64]bool{}
		var nextLevel []uint64
		for _, p := range level {
			for m := uint64(0); m < 4; m++ {
				s := p<<2 | m
				if hasForbiddenSuffix(s, n, forbidden) {
					continue
				}
				k, b := play(s, n)
				boxes := seen[k]
				bad := false
				for _, o := range boxes {
					if !boxed || o.within(b) {
						bad = true
						break
					}
				}
				if bad {
					forbidden[n][s] = true
					out = append(out, unpack(s, n))
					continue
				}
				seen[k] = append(boxes, b)
				nextLevel = append(nextLevel, s)
			}
		}
		level = nextLevel
	}
	return out, nil
}

// hasForbiddenSuffix reports whether a proper suffix of the string s of
// length n (its last moves in the low bits) is forbidden.
func hasForbiddenSuffix(s uint64, n int, forbidden []map[uint64]bool) bool {
	for k := 2; k < n; k++ {
		if len(forbidden[k]) > 0 && forbidden[k][s&(1<<(2*k)-1)] {
			return true
		}
	}
	return false
}

func unpack(s uint64, n int) string {
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = Letters[s&3]
		s >>= 2
	}
	return string(b)
}

// Compile builds the Aho–Corasick automaton of the forbidden strings
// (letters "udlr", none empty): its states are the proper prefixes of the
// strings that contain no forbidden string, the failure links are folded
// into the transitions, and a move that completes a forbidden string (as a
// suffix of the moves so far) leads to Dead. It fails on an empty string
// or a letter outside "udlr".
func Compile(forbidden []string) (*Automaton, error) {
	// The trie; node 0 is the root.
	type node struct {
		child [4]int32
		fail  int32
		dead  bool
	}
	nodes := []node{{child: [4]int32{-1, -1, -1, -1}}}
	for _, f := range forbidden {
		if f == "" {
			return nil, errors.New("fsm: empty forbidden string")
		}
		v := int32(0)
		for i := 0; i < len(f); i++ {
			m := strings.IndexByte(Letters, f[i])
			if m < 0 {
				return nil, fmt.Errorf("fsm: forbidden string %q: letter %q is not one of %q", f, f[i], Letters)
			}
			if nodes[v].child[m] < 0 {
				nodes[v].child[m] = int32(len(nodes))
				nodes = append(nodes, node{child: [4]int32{-1, -1, -1, -1}})
			}
			v = nodes[v].child[m]
		}
		nodes[v].dead = true
	}
	// Breadth-first: failure links, dead states (a forbidden suffix) and
	// the full transition function goto(v, m), stored in child.
	queue := []int32{}
	for m := range 4 {
		if c := nodes[0].child[m]; c >= 0 {
			nodes[c].fail = 0
			queue = append(queue, c)
		} else {
			nodes[0].child[m] = 0
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if nodes[nodes[v].fail].dead {
			nodes[v].dead = true
		}
		for m := range 4 {
			c := nodes[v].child[m]
			f := nodes[nodes[v].fail].child[m]
			if c >= 0 {
				nodes[c].fail = f
				queue = append(queue, c)
			} else {
				nodes[v].child[m] = f
			}
		}
	}
	// Number the live states reachable from the root, breadth-first, and
	// write the dense table.
	id := make([]int32, len(nodes))
	for i := range id {
		id[i] = -1
	}
	id[0] = 0
	order := []int32{0}
	for i := 0; i < len(order); i++ {
		for _, c := range nodes[order[i]].child {
			if !nodes[c].dead && id[c] < 0 {
				id[c] = int32(len(order))
				order = append(order, c)
			}
		}
	}
	next := make([]int32, 4*len(order))
	for i, v := range order {
		for m, c := range nodes[v].child {
			if nodes[c].dead {
				next[4*i+m] = Dead
			} else {
				next[4*i+m] = id[c]
			}
		}
	}
	fs := slices.Clone(forbidden)
	sort.SliceStable(fs, func(i, j int) bool { return less(fs[i], fs[j]) })
	return &Automaton{Forbidden: fs, next: minimize(next)}, nil
}

// minimize merges the states of the transition table next (4 entries a
// state, Dead or a state; state 0 the start) that no move string tells
// apart (Moore's partition refinement: states start in one class, and a
// class is split by the classes its four moves lead to until no class
// splits), and returns the table of the classes, numbered breadth-first
// from the start's class. The automaton cuts exactly the same strings.
func minimize(next []int32) []int32 {
	n := len(next) / 4
	class := make([]int32, n) // all live states in class 0
	classes := 1
	for {
		type sig [5]int32
		ids := map[sig]int32{}
		nc := make([]int32, n)
		for s := range n {
			k := sig{class[s]}
			for m := range 4 {
				k[m+1] = Dead
				if t := next[4*s+m]; t != Dead {
					k[m+1] = class[t]
				}
			}
			id, ok := ids[k]
			if !ok {
				id = int32(len(ids))
				ids[k] = id
			}
			nc[s] = id
		}
		class = nc
		if len(ids) == classes {
			break
		}
		classes = len(ids)
	}
	// One representative a class; classes renumbered breadth-first.
	rep := make([]int32, classes)
	for i := range rep {
		rep[i] = -1
	}
	for s := n - 1; s >= 0; s-- {
		rep[class[s]] = int32(s)
	}
	id := make([]int32, classes)
	for i := range id {
		id[i] = -1
	}
	id[class[0]] = 0
	order := []int32{class[0]}
	for i := 0; i < len(order); i++ {
		s := rep[order[i]]
		for m := range 4 {
			if t := next[4*int(s)+m]; t != Dead && id[class[t]] < 0 {
				id[class[t]] = int32(len(order))
				order = append(order, class[t])
			}
		}
	}
	out := make([]int32, 4*len(order))
	for i, c := range order {
		s := rep[c]
		for m := range 4 {
			out[4*i+m] = Dead
			if t := next[4*int(s)+m]; t != Dead {
				out[4*i+m] = id[class[t]]
			}
		}
	}
	return out
}

// less is the order of move strings: shorter first, then lexicographic in
// move order (the letters "udlr" are not in alphabetical order).
func less(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return strings.IndexByte(Letters, a[i]) < strings.IndexByte(Letters, b[i])
		}
	}
	return false
}
