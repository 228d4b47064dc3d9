package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// This file holds what the searches that store states (weighted A*, ARA*,
// bidirectional breadth-first search) share: packed state keys, a hash
// table of them, and the accounting of memory and time limits.

// Errors of the searches that store states. They are wrapped with the
// numbers involved; test with errors.Is.
var (
	// ErrNodeLimit: storing one more state would exceed Limits.MaxNodes.
	ErrNodeLimit = errors.New("node limit reached")
	// ErrMemoryLimit: growing an array of the search would exceed
	// Limits.MaxBytes.
	ErrMemoryLimit = errors.New("memory limit reached")
	// ErrTimeLimit: the search ran for Limits.TimeLimit.
	ErrTimeLimit = errors.New("time limit reached")
)

// DefaultMaxBytes is the memory limit of a search when Limits.MaxBytes is
// 0: 1 GiB.
const DefaultMaxBytes = 1 << 30

// Limits bound a search that stores states. The zero value means: no node
// limit, DefaultMaxBytes, no time limit.
type Limits struct {
	// MaxNodes is the largest number of distinct states the search may
	// store (for the bidirectional search, both directions together);
	// 0 means no limit.
	MaxNodes uint64
	// MaxBytes bounds, in bytes, the arrays of the search (state keys,
	// node records, hash slots, open list): a growth step that would make
	// the old and the new array together exceed it fails with
	// ErrMemoryLimit instead. 0 means DefaultMaxBytes. The arrays that
	// growth steps replaced are garbage until a collection, so a large
	// step first runs the collector (collectBytes); the process's memory
	// is then about the tables, the runtime and MaxBytes (pdbgen solve
	// gives a search 7/8 of what its budget leaves after the tables).
	MaxBytes int64
	// TimeLimit stops the search after this long (checked every few
	// thousand states); 0 means none.
	TimeLimit time.Duration
}

// validate rejects negative limits.
func (l Limits) validate() error {
	switch {
	case l.MaxBytes < 0:
		return fmt.Errorf("solver: memory limit %d bytes is negative", l.MaxBytes)
	case l.TimeLimit < 0:
		return fmt.Errorf("solver: time limit %v is negative", l.TimeLimit)
	}
	return nil
}

// checkEvery is the number of expanded states between checks of the
// context and the clock.
const checkEvery = 1 << 10

// guard enforces Limits and a context on a running search.
type guard struct {
	maxNodes uint64
	bud      budget
	ctx      context.Context
	start    time.Time
	deadline time.Time // zero: none
	limit    time.Duration
	left     int
}

func newGuard(ctx context.Context, l Limits) guard {
	g := guard{maxNodes: l.MaxNodes, ctx: ctx, start: time.Now(), limit: l.TimeLimit, left: checkEvery}
	g.bud.max = l.MaxBytes
	if g.bud.max == 0 {
		g.bud.max = DefaultMaxBytes
	}
	if g.maxNodes == 0 {
		g.maxNodes = ^uint64(0)
	}
	if l.TimeLimit > 0 {
		g.deadline = g.start.Add(l.TimeLimit)
	}
	return g
}

// tick is called once per expanded state; every checkEvery calls it
// returns the context's error or a time-limit error.
func (g *guard) tick() error {
	if g.left--; g.left > 0 {
		return nil
	}
	g.left = checkEvery
	if err := g.ctx.Err(); err != nil {
		return err
	}
	if !g.deadline.IsZero() && time.Now().After(g.deadline) {
		return fmt.Errorf("%w: %v", ErrTimeLimit, g.limit)
	}
	return nil
}

// room fails with ErrNodeLimit when stored states may not grow by one.
func (g *guard) room(stored uint64) error {
	if stored >= g.maxNodes {
		return fmt.Errorf("%w: %d states stored", ErrNodeLimit, stored)
	}
	return nil
}

// budget counts the bytes of the arrays a search holds.
type budget struct {
	max, cur, peak int64
}

// take accounts for replacing an array of oldBytes by one of newBytes. It
// returns false, changing nothing, when both together would exceed max
// (the old array lives until the copy is done).
func (b *budget) take(newBytes, oldBytes int64) bool {
	if b.cur+newBytes > b.max {
		return false
	}
	if newBytes >= collectBytes && newBytes >= b.max/collectShare {
		// Free the arrays earlier steps replaced before this one is
		// allocated: the collector would otherwise run only after the
		// heap had grown by them (see collectBytes).
		runtime.GC()
	}
	b.peak = max(b.peak, b.cur+newBytes)
	b.cur += newBytes - oldBytes
	return true
}

// A growth step of at least collectBytes, and at least 1/collectShare of
// the budget, first runs the collector. The budget counts the arrays that
// live at once (the old and the new during a copy), but the arrays that
// steps replaced stay in the heap until a collection: without one before
// each large step, a bidirectional search whose arrays stayed within 210
// MiB peaked at 263 MiB resident. The steps double, so this is a few
// collections per array, each short (the arrays hold no pointers, so the
// collector does not scan them).
const (
	collectBytes = 4 << 20
	collectShare = 32
)

func (b *budget) err() error {
	return fmt.Errorf("%w: the search's arrays would exceed %d bytes (%.1f MiB)", ErrMemoryLimit, b.max, float64(b.max)/(1<<20))
}

// growFor returns s with room for extra more elements: the same slice
// when it has room, else a copy with about twice the capacity (less when
// the budget allows only less). elem is the size of T in bytes.
func growFor[T any](b *budget, s []T, extra int, elem int64) ([]T, error) {
	if len(s)+extra <= cap(s) {
		return s, nil
	}
	old, need := int64(cap(s)), int64(len(s)+extra)
	most := int64(math.MaxInt) / elem // 32-bit platforms
	n := min(max(2*old, 256, need), most)
	if !b.take(n*elem, old*elem) {
		// As much as fits next to the old array, if that is enough.
		n = min((b.max-b.cur)/elem, most)
		if n < need || !b.take(n*elem, old*elem) {
			return s, b.err()
		}
	}
	out := make([]T, len(s), n)
	copy(out, s)
	return out, nil
}

// key is a packed board: the tiles of cells 0..N-2 (the last cell's tile
// follows from the others), 4 bits per cell for up to 16 cells (one word),
// 5 bits for up to 32 cells (12 cells per word: two words for the
// 24-puzzle), 6 bits for up to 64 (10 cells per word: 4 words for 6x6, 5
// for 7x7, 7 for 8x8). Words past packer.words are 0.
type key [maxKeyWords]uint64

// maxKeyWords is the words of the key of a board of puzzle.MaxCells cells.
const maxKeyWords = (puzzle.MaxCells - 1 + 9) / 10

// packer packs and unpacks boards of one geometry.
type packer struct {
	n     int
	bits  uint
	per   int // cells per word
	words int
	mask  uint64
	all   uint8 // XOR of 0..n-1
}

func newPacker(n int) packer {
	p := packer{n: n, bits: 4, per: 16}
	switch {
	case n > 32:
		p.bits, p.per = 6, 10
	case n > 16:
		p.bits, p.per = 5, 12
	}
	p.words = (n - 1 + p.per - 1) / p.per
	p.mask = 1<<p.bits - 1
	for t := 0; t < n; t++ {
		p.all ^= uint8(t)
	}
	return p
}

// pack returns the key of board.
func (p *packer) pack(board *[puzzle.MaxCells]uint8) key {
	var k key
	for c := 0; c < p.n-1; c++ {
		k[c/p.per] |= uint64(board[c]) << (uint(c%p.per) * p.bits)
	}
	return k
}

// unpack writes the board of k and returns the blank's cell.
func (p *packer) unpack(k key, board *[puzzle.MaxCells]uint8) uint8 {
	x := p.all
	blank := uint8(p.n - 1)
	m, last := uint8(p.mask), p.n-1
	// A word at a time, shifting its cells out (no division per cell).
	for w, c := 0, 0; c < last; w++ {
		v := k[w]
		for end := min(c+p.per, last); c < end; c++ {
			t := uint8(v) & m
			v >>= p.bits
			board[c] = t
			x ^= t
			if t == 0 {
				blank = uint8(c)
			}
		}
	}
	board[last] = x
	return blank
}

// slide returns the key after the tile in cell to moves into the blank's
// cell blank.
func (p *packer) slide(k key, blank, to, tile uint8) key {
	if int(blank) < p.n-1 {
		k[int(blank)/p.per] ^= uint64(tile) << (uint(int(blank)%p.per) * p.bits)
	}
	if int(to) < p.n-1 {
		k[int(to)/p.per] ^= uint64(tile) << (uint(int(to)%p.per) * p.bits)
	}
	return k
}

// stateStore numbers distinct keys 0, 1, 2, ... in insertion order: an
// array of keys and an open-addressing hash table (linear probing) of ids.
type stateStore struct {
	words int
	keys  []uint64 // words per state
	slots []uint32 // id+1; 0 is empty; len a power of two
	shift uint     // 64 - log2(len(slots))
}

func newStateStore(words int) stateStore { return stateStore{words: words} }

// len is the number of states stored.
func (s *stateStore) len() int { return len(s.keys) / s.words }

// key returns the key of state id.
func (s *stateStore) key(id uint32) key {
	var k key
	copy(k[:], s.keys[int(id)*s.words:int(id+1)*s.words])
	return k
}

func hashKey(k key) uint64 {
	h := k[0] ^ k[1]*0x9e3779b97f4a7c15
	if k[2]|k[3]|k[4]|k[5]|k[6] != 0 { // boards of more than 24 cells
		for _, w := range k[2:] {
			h ^= h >> 31
			h = h*0xbf58476d1ce4e5b9 ^ w
		}
	}
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	return h * 0x94d049bb133111eb
}

// find returns the id of k, or -1 and the slot where k would go.
func (s *stateStore) find(k key) (id int64, slot uint64) {
	if len(s.slots) == 0 {
		return -1, 0
	}
	mask := uint64(len(s.slots) - 1)
	i := hashKey(k) >> s.shift
	for {
		v := s.slots[i]
		if v == 0 {
			return -1, i
		}
		o := int(v-1) * s.words
		if s.keys[o] == k[0] && s.sameTail(o, &k) {
			return int64(v - 1), i
		}
		i = (i + 1) & mask
	}
}

// sameTail reports whether the stored key at offset o equals k in the
// words after the first.
func (s *stateStore) sameTail(o int, k *key) bool {
	for j := 1; j < s.words; j++ {
		if s.keys[o+j] != k[j] {
			return false
		}
	}
	return true
}

// reserve makes room for one more state within b. It reports whether the
// hash table was rebuilt (slots from find are then stale).
func (s *stateStore) reserve(b *budget) (bool, error) {
	n := s.len()
	if uint64(n) >= 1<<32-2 {
		return false, fmt.Errorf("%w: %d states, the most one search can number", ErrNodeLimit, n)
	}
	var err error
	if s.keys, err = growFor(b, s.keys, s.words, 8); err != nil {
		return false, err
	}
	if 4*(n+1) <= 3*len(s.slots) {
		return false, nil
	}
	size := max(2*len(s.slots), 1024)
	if !b.take(int64(size)*4, int64(len(s.slots))*4) {
		// Keep going at a higher load while it is below 15/16.
		if 16*(n+1) <= 15*len(s.slots) {
			return false, nil
		}
		return false, b.err()
	}
	s.slots = make([]uint32, size)
	s.shift = 64 - uint(bits.TrailingZeros(uint(size)))
	mask := uint64(size - 1)
	for id := 0; id < n; id++ {
		i := hashKey(s.key(uint32(id))) >> s.shift
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = uint32(id + 1)
	}
	return true, nil
}

// insert stores k (absent, at slot from find after reserve) and returns
// its id.
func (s *stateStore) insert(k key, slot uint64) uint32 {
	id := uint32(s.len())
	s.keys = append(s.keys, k[:s.words]...)
	s.slots[slot] = id + 1
	return id
}

// bytes is the memory held by the store's arrays.
func (s *stateStore) bytes() int64 { return int64(cap(s.keys))*8 + int64(len(s.slots))*4 }
