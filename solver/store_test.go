package solver

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// randomBoard returns a uniformly random permutation of 0..n-1.
func randomBoard(rng *rand.Rand, n int) puzzle.Board {
	b := make(puzzle.Board, n)
	for i, v := range rng.Perm(n) {
		b[i] = uint8(v)
	}
	return b
}

// TestPacker: pack/unpack round-trips and slide equals packing the moved
// board, on every supported width of key (1 to 7 words), and two random
// boards share a key only when they are equal.
func TestPacker(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		g     puzzle.Geometry
		words int
	}{
		{puzzle.Geometry{W: 2, H: 2}, 1}, {puzzle.Geometry{W: 3, H: 2}, 1}, {puzzle.Geometry{W: 3, H: 3}, 1}, {puzzle.Geometry{W: 4, H: 4}, 1},
		{puzzle.Geometry{W: 5, H: 4}, 2}, {puzzle.Geometry{W: 5, H: 5}, 2}, {puzzle.Geometry{W: 8, H: 4}, 3},
		{puzzle.Geometry{W: 6, H: 6}, 4}, {puzzle.Geometry{W: 7, H: 7}, 5}, {puzzle.Geometry{W: 8, H: 7}, 6}, {puzzle.Geometry{W: 8, H: 8}, 7},
	} {
		g := c.g
		n := g.N()
		p := newPacker(n)
		if p.words != c.words {
			t.Fatalf("%s: %d words, want %d", g, p.words, c.words)
		}
		seen := map[key]string{}
		for range 3000 {
			b := randomBoard(rng, n)
			var arr, back [puzzle.MaxCells]uint8
			copy(arr[:], b)
			k := p.pack(&arr)
			if o, ok := seen[k]; ok && o != string(b) {
				t.Fatalf("%s: %v and %v share key %x", g, b, []byte(o), k)
			}
			seen[k] = string(b)
			blank := p.unpack(k, &back)
			if !slices.Equal(back[:n], b) || b[blank] != 0 {
				t.Fatalf("%s: %v unpacks to %v blank %d", g, b, back[:n], blank)
			}
			for _, d := range puzzle.Directions {
				to, ok := g.Step(int(blank), d)
				if !ok {
					continue
				}
				moved := arr
				moved[blank], moved[to] = moved[to], 0
				if got, want := p.slide(k, blank, uint8(to), arr[to]), p.pack(&moved); got != want {
					t.Fatalf("%s: %v move %c: slide %x, pack %x", g, b, d.Letter(), got, want)
				}
			}
		}
	}
}

// TestStateStore checks the hash table against a map: ids are dense in
// insertion order, every key is found, absent keys are not, and a budget
// too small fails with ErrMemoryLimit instead of growing.
func TestStateStore(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, words := range []int{1, 2, 4, maxKeyWords} {
		s := newStateStore(words)
		bud := budget{max: 1 << 30}
		ref := map[key]uint32{}
		for range 50000 {
			k := key{rng.Uint64() & 0xFFFF}
			for j := 1; j < words; j++ {
				// Few values per word, so that keys differing in one
				// late word only are common.
				k[j] = rng.Uint64() & 0x3
			}
			id, slot := s.find(k)
			if want, ok := ref[k]; ok != (id >= 0) || ok && uint32(id) != want {
				t.Fatalf("words %d: find %x = %d, map has %d %v", words, k, id, want, ok)
			}
			if id >= 0 {
				continue
			}
			rebuilt, err := s.reserve(&bud)
			if err != nil {
				t.Fatal(err)
			}
			if rebuilt {
				_, slot = s.find(k)
			}
			ref[k] = s.insert(k, slot)
			if ref[k] != uint32(len(ref)-1) {
				t.Fatalf("id %d for the %d-th key", ref[k], len(ref))
			}
		}
		for k, id := range ref {
			if got, _ := s.find(k); got != int64(id) || s.key(id) != k {
				t.Fatalf("words %d: %x: id %d (want %d), key %x", words, k, got, id, s.key(id))
			}
		}
		if bud.cur != s.bytes() || bud.peak < bud.cur {
			t.Fatalf("budget %+v, store holds %d bytes", bud, s.bytes())
		}
	}
	s := newStateStore(1)
	bud := budget{max: 10000}
	var err error
	for i := uint64(0); err == nil; i++ {
		var rebuilt bool
		k := key{i}
		_, slot := s.find(k)
		if rebuilt, err = s.reserve(&bud); err == nil {
			if rebuilt {
				_, slot = s.find(k)
			}
			s.insert(k, slot)
		}
	}
	if !errors.Is(err, ErrMemoryLimit) || bud.peak > bud.max {
		t.Fatalf("error %v, budget %+v", err, bud)
	}
}

// TestHcalc: the incremental evaluation of children equals Heuristic on
// the moved board, for additive sets with and without reflection, tiles in
// no table, and the exact table.
func TestHcalc(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, tc := range []struct {
		name  string
		refl  bool
		goal  string
		parts [][]uint8
	}{
		{name: "additive", goal: "blank-last", parts: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}},
		{name: "additive+reflect", goal: "blank-last", parts: [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}, refl: true},
		{name: "partial+reflect", goal: "blank-first", parts: [][]uint8{{1, 3, 5, 7}, {2, 8}}, refl: true},
		{name: "exact", goal: "blank-last"},
	} {
		sv := newSolver(t, set(t, 3, 3, tc.goal, tc.parts...), Options{Reflect: tc.refl})
		g, goal := sv.geom, sv.goal
		hc := newHcalc(sv)
		for range 500 {
			b := pdbtest.RandomWalk(rng, g, goal, 1+rng.IntN(60))
			var arr [puzzle.MaxCells]uint8
			copy(arr[:], b)
			if got, want := hc.load(&arr), sv.Heuristic(b); got != want {
				t.Fatalf("%s: %v: load %d, Heuristic %d", tc.name, b, got, want)
			}
			blank := slices.Index(b, 0)
			for _, d := range puzzle.Directions {
				to, ok := g.Step(blank, d)
				if !ok {
					continue
				}
				nb := slices.Clone(b)
				nb[blank], nb[to] = nb[to], 0
				if got, want := hc.child(b[to], uint8(blank), uint8(to)), sv.Heuristic(nb); got != want {
					t.Fatalf("%s: %v move %c: child %d, Heuristic %d", tc.name, b, d.Letter(), got, want)
				}
			}
		}
	}
}
