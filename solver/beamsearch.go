package solver

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Beam search (breadth-first beam search: Bisiani 1987, "Beam search", in
// Shapiro (ed.), Encyclopedia of Artificial Intelligence; on sliding-tile
// puzzles with admissible heuristics see Wilt, Thayer & Ruml 2010, "A
// comparison of greedy search algorithms", SoCS): the search goes down
// one level at a time, and of the children of a level it keeps only the
// width with the smallest heuristic (ties in the order they were
// generated: parents in the order kept, moves in the solver's order), so
// a level holds at most width states and the search costs time and
// memory proportional to width times the solution's length. It finds a
// solution or none (every state of a level may be a duplicate), with no
// guarantee on its length; on DeepCubeA's 35-puzzle states it gives far
// shorter solutions than weighted A* in the same time (docs/big-boards.md, "The 35-puzzle,
// the 48-puzzle and DeepCubeA").
//
// Duplicate detection is by 64-bit key hashes, in two steps. A child whose
// hash was generated in a window of recent levels is dropped before its
// heuristic is computed: a state of the sliding-tile graph can come back
// only after a cycle of at least 12 moves (the blank around a 2x2 block
// three times) besides the move undoing the last one, which is never
// generated, and the window (two tables, each dropped in turn once half
// full: 8*width to 16*width hashes, several levels) catches the short
// cycles, which are the common ones. Then, in a beam without an upper
// bound on its length, a child about to be kept is dropped when a state
// with its hash was kept at any earlier level (one set of the hashes of
// every state kept): without it a narrow beam can go round a long cycle
// for ever (width 1000 on one of DeepCubeA's 35-puzzle states went
// 134,000 levels deep). A beam with an upper bound goes fewer levels down
// than it, so it does without the set, which costs a cache miss per
// state kept (a tenth of a 35-puzzle beam's time) and caught none of the
// 8.1 million states a beam of width 64,000 kept on DeepCubeA's 35-puzzle
// instance 0, nor any at widths 1,000 to 16,000. A beam also gives up
// (ErrBeamExhausted) past beamMaxLevels levels. A hash collision can only
// drop a child, never make a wrong path: every solution is the chain of
// moves that reached the goal.

// beamLink is how a state of a level was reached: the index of its parent
// in the level above, and the blank's move.
type beamLink struct {
	parent uint32
	move   uint8
}

const beamLinkBytes = 8

// beamKeepParts: a beam search over an additive set keeps each state's
// value per table (beamSearch.np; over a catalogue, per distinct part),
// so that expanding a state looks up only its children (the state's own
// values are not looked up again); false looks them up (hcalc.load), for
// the tests that compare the two.
var beamKeepParts = true

// beamLevels is the number of levels a beam search from a state of
// heuristic h is expected to go down: upper when it prunes by a known
// length upper > 0 (it keeps no child at g + h >= upper, so it goes at
// most upper - 1 levels down and the goal is the upper-th), else
// 1.25 h + 1 (DeepCubeA's solutions are 1.25 to 1.3 times our h).
func beamLevels(h, upper int) int {
	if upper > 0 {
		return upper
	}
	return h + h/4 + 1
}

// beamBytes estimates the peak of the arrays of a beam search of the given
// width that goes levels deep (solveBeam's memory): the set of the states
// kept (reserved at once, a power of two at most half full), their links,
// the children of a level (at most 3 per state kept), the level's keys and
// values per table, and the hash window; the set only with kept
// (usesKept).
func (s *Solver) beamBytes(width, levels int, kept bool) int64 {
	words := int64(newPacker(s.n).words)
	np := int64(0)
	if s.exact == nil && beamKeepParts {
		np = int64(partsLen(s))
	}
	w := int64(width)
	set := int64(0)
	if kept {
		set = 8 * int64(hashSetSlots(keptHashes(width, levels)))
	}
	links := w * int64(levels) * beamLinkBytes
	children := 3 * w * (8*words + 2 + 8 + beamLinkBytes + np)
	level := w * (8*words + np)
	window := 2 * int64(windowSlots(width)) * windowSlotBytes
	return set + links + children + level + window
}

// usesKept reports whether a beam with the given upper bound on its
// length (0: none) keeps the set of the states it kept: only without one
// (a bounded beam goes fewer levels down than its bound, so it cannot go
// round a cycle for ever; see the duplicate detection above).
func usesKept(upper int) bool { return upper == 0 }

// beamMaxLevels is the deepest level a beam search from a state of
// heuristic h goes to before giving up: 4h + 200 moves, far beyond the
// optimum on every board measured (DeepCubeA's 48-puzzle lengths are
// about 1.3 times our h).
func beamMaxLevels(h int) int { return 4*h + 200 }

// hashSet is a growing set of 64-bit hashes (open addressing, linear
// probing, 0 = empty), at most half full.
type hashSet struct {
	t     []uint64
	n     int
	shift uint
	sink  uint64 // keeps touch's reads from being optimised away
}

// addNew adds h and reports whether it was new; it grows the table within
// b (false and the budget's error when it may not).
func (hs *hashSet) addNew(h uint64, b *budget) (bool, error) {
	h |= 1
	if 2*(hs.n+1) > len(hs.t) {
		size := max(2*len(hs.t), 1<<16)
		if !b.take(int64(size)*8, int64(len(hs.t))*8) {
			return false, b.err()
		}
		old := hs.t
		hs.t = make([]uint64, size)
		sysmem.AdviseHugePages(hs.t, false)
		hs.shift = 64 - uint(bits.TrailingZeros(uint(size)))
		for _, v := range old {
			if v != 0 {
				hs.insert(v)
			}
		}
	}
	mask := uint64(len(hs.t) - 1)
	i := h >> hs.shift
	for ; hs.t[i] != 0; i = (i + 1) & mask {
		if hs.t[i] == h {
			return false, nil
		}
	}
	hs.t[i] = h
	hs.n++
	return true, nil
}

// touch reads the slots of hashes, so that their cache misses overlap
// before addNew reads them one by one (nextLevel, keptChunk); it changes
// nothing.
func (hs *hashSet) touch(hashes []uint64) {
	if len(hs.t) == 0 {
		return
	}
	var sink uint64
	for _, h := range hashes {
		sink += hs.t[h>>hs.shift]
	}
	hs.sink = sink
}

// keptChunk is the number of children whose slots in the kept set
// nextLevel touches at a time.
const keptChunk = 64

// reserve grows an empty set to hold n hashes without growing again,
// when the budget allows (else it stays as it is and grows as it fills).
func (hs *hashSet) reserve(n int, b *budget) {
	size := hashSetSlots(n)
	if hs.n != 0 || size <= len(hs.t) || !b.take(int64(size)*8, int64(len(hs.t))*8) {
		return
	}
	hs.t = make([]uint64, size)
	sysmem.AdviseHugePages(hs.t, false) // read at random: a TLB miss per read on 4 KiB pages
	hs.shift = 64 - uint(bits.TrailingZeros(uint(size)))
}

// hashSetSlots is the size of a hashSet reserved for n hashes: twice n
// rounded up to a power of two, at least 2^16.
func hashSetSlots(n int) int { return 1 << bits.Len(uint(max(2*n, 1<<16)-1)) }

// keptHashes is the number of hashes a beam of the given width reserves
// its set of kept states for, levels deep (beamLevels), at most 2^30.
func keptHashes(width, levels int) int { return min(width*levels, 1<<30) }

func (hs *hashSet) insert(h uint64) {
	mask := uint64(len(hs.t) - 1)
	i := h >> hs.shift
	for hs.t[i] != 0 {
		i = (i + 1) & mask
	}
	hs.t[i] = h
	hs.n++
}

// hashWindow is a set of the 64-bit hashes of recent levels: two
// open-addressing tables (linear probing, 0 = empty), the older dropped
// when the newer is half full. A hash's slot comes from its high bits and
// the table holds its low 32 bits (its fingerprint): half the memory of
// whole hashes, so more of the window stays in cache, for a false match
// (a child dropped as seen) with odds of about 2^-31 per slot compared
// (the low bit is always set; a lookup compares a few slots in each
// table). A false match drops a child, it never makes a wrong path.
type hashWindow struct {
	cur, old []uint32
	n        int // hashes in cur
	shift    uint
	sink     uint32 // keeps touch's reads from being optimised away
}

// maxWindowSlots caps each table of a hash window (64 MiB): past a width
// of 2^20 the window covers fewer levels instead of growing.
const maxWindowSlots = 1 << 24

// windowSlots is the size of each table of the window of a beam of the
// given width: 16*width rounded up to a power of two, within [1024,
// maxWindowSlots].
func windowSlots(width int) int {
	return min(1<<bits.Len(uint(max(16*width, 1024)-1)), maxWindowSlots)
}

// windowSlotBytes is the size of a slot of a hash window.
const windowSlotBytes = 4

// newHashWindow allocates a window of two tables of slots each (a power
// of two), within b.
func newHashWindow(slots int, b *budget) (hashWindow, error) {
	if !b.take(2*int64(slots)*windowSlotBytes, 0) {
		return hashWindow{}, b.err()
	}
	w := hashWindow{cur: make([]uint32, slots), old: make([]uint32, slots), shift: 64 - uint(bits.TrailingZeros(uint(slots)))}
	sysmem.AdviseHugePages(w.cur, false) // read at random, as the kept set
	sysmem.AdviseHugePages(w.old, false)
	return w, nil
}

// has reports whether the fingerprint f, at slot i, is in t.
func has(t []uint32, i uint64, f uint32) bool {
	mask := uint64(len(t) - 1)
	for ; ; i = (i + 1) & mask {
		switch t[i] {
		case f:
			return true
		case 0:
			return false
		}
	}
}

// touch reads the slots of the children's hashes in both tables, so that
// their cache misses overlap before addNew reads them one by one
// (beamChunk); it changes nothing.
func (w *hashWindow) touch(ps []beamPending) {
	var sink uint32
	for i := range ps {
		j := ps[i].hv >> w.shift
		sink += w.old[j] + w.cur[j]
	}
	w.sink = sink
}

// addNew adds h (a key's hash) and reports whether it was new in the
// window.
func (w *hashWindow) addNew(h uint64) bool {
	i, f := h>>w.shift, uint32(h)|1 // 0 marks an empty slot
	if has(w.old, i, f) {
		return false
	}
	mask := uint64(len(w.cur) - 1)
	for ; w.cur[i] != 0; i = (i + 1) & mask {
		if w.cur[i] == f {
			return false
		}
	}
	w.cur[i] = f
	if w.n++; 2*w.n >= len(w.cur) {
		w.cur, w.old = w.old, w.cur
		clear(w.cur)
		w.n = 0
	}
	return true
}

// solveBeam solves b by beam search (above) keeping width states per
// level, 1 <= width <= MaxBeamWidth. The answer's Lower is the start's
// heuristic (raised to the solution's parity): a beam search proves
// nothing more; Width is width. Stats.Stored counts the states kept over all levels,
// Generated the children made.
//
// Memory is bounded by lim.MaxBytes (DefaultMaxBytes when 0): about
// 3*width*(8*words+18+np) bytes for a level's children (words: 2 on the
// 24-puzzle, 4 on 6x6, 5 on 7x7, 7 on 8x8; np: a byte per table or
// distinct part of a catalogue, twice with the reflected side), 128*width (at most 128 MiB)
// for the hash window, and 8 bytes of link plus 16 of hash set per state
// kept over all levels; lim.MaxNodes bounds the states
// kept, lim.TimeLimit the time. A search that reaches a limit, or finds
// every child of a level a duplicate, returns the Bounded without a
// solution (Length -1) and an error (ErrMemoryLimit, ErrNodeLimit,
// ErrTimeLimit, ctx's error, or ErrBeamExhausted). Bad boards are errors
// as for solveWeighted; an unsolvable board gives Solvable false.
func (s *Solver) solveBeam(ctx context.Context, b puzzle.Board, width int, lim Limits) (Bounded, error) {
	return s.runBeamSearch(ctx, b, width, lim, 0)
}

// runBeamSearch is solveBeam; upper > 0 drops every child whose g + h is at least
// upper (no solution through it is shorter than upper, h being
// admissible), so that a beam looking for a solution shorter than a known
// one spends its width on the states that may lead to one; it then fails
// with ErrBeamExhausted when none does.
func (s *Solver) runBeamSearch(ctx context.Context, b puzzle.Board, width int, lim Limits, upper int) (Bounded, error) {
	if width < 1 || width > MaxBeamWidth {
		return Bounded{}, fmt.Errorf("solver: beam width %d: want 1 to %d", width, MaxBeamWidth)
	}
	out, work, ok, err := s.start(b, lim)
	if err != nil || !ok {
		return out, err
	}
	bs := beamSearch{s: s, pk: newPacker(s.n), hc: newHcalc(s), guard: newGuard(ctx, lim), upper: upper}
	err = bs.run(work, width)
	out.Stats = bs.stats
	out.Stats.Stored++ // the start
	out.Stats.PeakBytes = bs.guard.bud.peak
	out.Stats.Elapsed = time.Since(bs.guard.start)
	out.Lower = bs.startH
	if (out.Lower-bs.parity)%2 != 0 {
		out.Lower++
	}
	if err != nil {
		return out, fmt.Errorf("beam search (width %d): %w", width, err)
	}
	out.Length = len(bs.path)
	out.Moves = s.moveString(bs.path)
	out.Width = width
	out.Lower = min(out.Lower, out.Length)
	out.Optimal = out.Length == out.Lower
	out.Bound = 1
	if out.Lower > 0 {
		out.Bound = float64(out.Length) / float64(out.Lower)
	}
	return out, nil
}

// MaxBeamWidth is the largest width of a beam search (WidthParams): level indices are
// 32-bit, with room for the children of a full level.
const MaxBeamWidth = 1 << 28

// ErrBeamExhausted is the error of a beam search whose level had no new
// child: every child was a duplicate (or the level was empty). A wider
// beam may still succeed.
var ErrBeamExhausted = errors.New("no new state at a level (or past the deepest level)")

// beamSearch is one beam search in progress. The level being expanded is
// cur (its keys, words each) with its links in links[len(links)-1]; its
// children go to the child arrays (ckeys, ch, chash, clink), and the ones
// kept become the next level.
type beamSearch struct {
	s      *Solver
	pk     packer
	hc     *hcalc
	guard  guard
	stats  Stats
	startH int
	parity int
	path   []uint8
	upper  int // > 0: drop the children whose g + h is at least upper

	width   int
	words   int
	goalKey key
	win     hashWindow // hashes of the children of recent levels
	kept    hashSet    // hashes of every state kept (usesKept only)
	cur     []uint64
	links   [][]beamLink
	// np: the bytes of a state's values per table or distinct part
	// (partsLen), 0 for an exact table; curParts holds the level's,
	// cparts the children's, np each (hcalc.loadParts).
	np       int
	curParts []uint8
	cparts   []uint8

	ckeys []uint64   // children's keys, words each
	ch    []uint16   // children's ranking keys: h, or the weighted key (rank)
	chash []uint64   // children's key hashes
	clink []beamLink // how each child was reached
	count []int      // per heuristic value, the children with it (keep)
	// ev: evaluates children in halves (Solver.splitSteps, with np > 0;
	// nil otherwise); buf: the chunk being expanded.
	ev  *beamEval
	buf *beamChunkBuf
}

// run searches from work (in the tables' convention, solvable), keeping
// width states per level, and leaves the solution in bs.path.
func (bs *beamSearch) run(work puzzle.Board, width int) error {
	done, err := bs.begin(work, width)
	if err != nil || done {
		return err
	}
	maxLevels := beamMaxLevels(bs.startH)
	for {
		if len(bs.links) > maxLevels {
			return ErrBeamExhausted
		}
		found, err := bs.expand()
		if err != nil || found {
			return err
		}
		if len(bs.ch) == 0 {
			return ErrBeamExhausted
		}
		if err := bs.nextLevel(); err != nil {
			return err
		}
	}
}

// begin sets up the search at the start work: its heuristic and parity,
// the duplicate tables and the first level. done is true when work is the
// goal.
func (bs *beamSearch) begin(work puzzle.Board, width int) (done bool, err error) {
	s, pk := bs.s, &bs.pk
	bs.width, bs.words = width, pk.words
	var board, gb [puzzle.MaxCells]uint8
	copy(gb[:], s.goal)
	bs.goalKey = pk.pack(&gb)
	copy(board[:], work)
	bs.startH = bs.hc.load(&board)
	if s.exact == nil && beamKeepParts {
		bs.np = partsLen(s)
		bs.curParts = bs.hc.parts(s, bs.curParts[:0])
	}
	if bs.np > 0 && s.splitSteps() {
		bs.ev = newBeamEval(s)
	}
	bs.parity = s.geom.Manhattan(slices.Index(work, 0), int(s.goalPos[0])) % 2
	k0 := pk.pack(&board)
	if bs.win, err = newHashWindow(windowSlots(width), &bs.guard.bud); err != nil {
		return false, err
	}
	if k0 == bs.goalKey {
		return true, nil
	}
	bs.cur = append(make([]uint64, 0, bs.words), k0[:bs.words]...)
	bs.win.addNew(hashKey(k0))
	// The states a beam without an upper bound keeps: width per level
	// over beamLevels levels, reserved at once, so that the set is not
	// rehashed at every doubling (a tenth of a 48-puzzle beam's time).
	if usesKept(bs.upper) {
		bs.kept.reserve(keptHashes(width, beamLevels(bs.startH, bs.upper)), &bs.guard.bud)
		if _, err := bs.kept.addNew(hashKey(k0), &bs.guard.bud); err != nil {
			return false, err
		}
	}
	bs.links = append(bs.links, []beamLink{{move: noMove}})
	return false, nil
}

// beamChunk is the number of states expand takes at a time. It first
// makes all their children's keys and hashes and reads their slots in
// the hash window in one short loop, so that the window's cache misses
// overlap (the processor has several loads in flight) instead of coming
// one per child; with Solver.splitSteps it then ranks the part each new
// child's move changes, on each side, and reads those table entries the
// same way, before looking their values up. The children are kept in the order one
// state at a time would keep them.
const beamChunk = 32

// beamPending is a child made by expand's first pass: its key and hash,
// its parent's index in the level, the cell its blank moves to and the
// move; dup when the window has seen it, steps its table steps
// (beamEval.steps).
type beamPending struct {
	ck      key
	hv      uint64
	parent  uint32
	to, dir uint8
	dup     bool
	steps   [2]childStep
}

// beamChunkBuf holds the states of a chunk being expanded and their
// children (expand).
type beamChunkBuf struct {
	boards  [beamChunk][puzzle.MaxCells]uint8
	blanks  [beamChunk]uint8
	pending [3 * beamChunk]beamPending
	sink    uint8 // keeps the reads of the table entries
}

// expand generates the children of every state of the level into the
// child arrays, dropping those seen in the window and (upper) those that
// cannot lead to a shorter solution. found is true when a child is the
// goal (bs.path then holds the solution).
func (bs *beamSearch) expand() (found bool, err error) {
	bs.ckeys, bs.ch, bs.chash, bs.clink, bs.cparts = bs.ckeys[:0], bs.ch[:0], bs.chash[:0], bs.clink[:0], bs.cparts[:0]
	if bs.buf == nil {
		bs.buf = new(beamChunkBuf)
	}
	n := len(bs.cur) / bs.words
	for lo := 0; lo < n; lo += beamChunk {
		hi := min(lo+beamChunk, n)
		pending := bs.makeChunk(lo, hi)
		bs.win.touch(pending)
		if bs.ev != nil {
			found, err = bs.splitChunk(lo, hi, pending)
		} else {
			found, err = bs.plainChunk(lo, hi, pending)
		}
		if err != nil || found {
			return found, err
		}
	}
	return false, nil
}

// makeChunk unpacks the states lo to hi-1 of the level into bs.buf and
// makes their children's keys and hashes, in the order of the states and
// of their moves.
func (bs *beamSearch) makeChunk(lo, hi int) []beamPending {
	s, pk, words, buf := bs.s, &bs.pk, bs.words, bs.buf
	last := bs.links[len(bs.links)-1]
	np := 0
	for i := lo; i < hi; i++ {
		var k key
		copy(k[:], bs.cur[i*words:(i+1)*words])
		b := &buf.boards[i-lo]
		blank := pk.unpack(k, b)
		buf.blanks[i-lo] = blank
		m := &s.nbr[blank]
		skip := undo[last[i].move]
		for j := uint8(0); j < m.n; j++ {
			if dir := m.dir[j]; dir != skip {
				p := &buf.pending[np]
				p.ck = pk.slide(k, blank, m.to[j], b[m.to[j]])
				p.hv, p.parent, p.to, p.dir = hashKey(p.ck), uint32(i), m.to[j], dir
				np++
			}
		}
	}
	return buf.pending[:np]
}

// parts is the values per table of state i of the level (nil without
// them).
func (bs *beamSearch) parts(i int) []uint8 {
	if bs.np == 0 {
		return nil
	}
	return bs.curParts[i*bs.np : (i+1)*bs.np]
}

// plainChunk evaluates the children of states lo to hi-1 (makeChunk) one
// at a time.
func (bs *beamSearch) plainChunk(lo, hi int, pending []beamPending) (found bool, err error) {
	c := 0
	for i := lo; i < hi; i++ {
		if err := bs.guard.tick(); err != nil {
			return false, err
		}
		bs.stats.Expanded++
		b, parts := &bs.buf.boards[i-lo], bs.parts(i)
		if parts != nil {
			bs.hc.loadParts(b, parts)
		} else {
			bs.hc.load(b)
		}
		for ; c < len(pending) && pending[c].parent == uint32(i); c++ {
			p := &pending[c]
			bs.stats.Generated++
			if !bs.win.addNew(p.hv) {
				continue
			}
			if found, err := bs.keepChild(p, bs.hc.child(b[p.to], bs.buf.blanks[i-lo], p.to)); err != nil || found {
				return found, err
			}
		}
	}
	return false, nil
}

// splitChunk is plainChunk in three passes (Solver.splitSteps, through
// bs.ev): the new children's table steps without their entries, a short
// loop that reads the entries (their cache misses overlap), then the
// values, the limits checked before each state's (expanded).
func (bs *beamSearch) splitChunk(lo, hi int, pending []beamPending) (found bool, err error) {
	buf, ev, c := bs.buf, bs.ev, 0
	for i := lo; i < hi; i++ {
		b := &buf.boards[i-lo]
		ev.load(b, bs.parts(i))
		for ; c < len(pending) && pending[c].parent == uint32(i); c++ {
			p := &pending[c]
			if p.dup = !bs.win.addNew(p.hv); !p.dup {
				ev.steps(b[p.to], buf.blanks[i-lo], p.to, &p.steps)
			}
		}
	}
	var sink uint8
	for c := range pending {
		if !pending[c].dup {
			sink += ev.touch(&pending[c].steps)
		}
	}
	buf.sink = sink
	next := lo // the next state to count as expanded
	for c := range pending {
		p := &pending[c]
		if err := bs.expanded(&next, int(p.parent)+1); err != nil {
			return false, err
		}
		bs.stats.Generated++
		if p.dup {
			continue
		}
		if found, err := bs.keepChild(p, -1); err != nil || found {
			return found, err
		}
	}
	return false, bs.expanded(&next, hi)
}

// expanded counts the states from *next to end-1 as expanded, checking
// the limits before each (guard.tick) as plainChunk does, and sets *next
// to end.
func (bs *beamSearch) expanded(next *int, end int) error {
	for ; *next < end; *next++ {
		if err := bs.guard.tick(); err != nil {
			return err
		}
		bs.stats.Expanded++
	}
	return nil
}

// keepChild keeps the new child p, of heuristic h, among the children
// unless (upper) it cannot lead to a shorter solution; h < 0 means
// bs.ev evaluates it from p.steps (splitChunk), else bs.hc has just
// evaluated it (plainChunk). found is true when it is the goal.
func (bs *beamSearch) keepChild(p *beamPending, h int) (found bool, err error) {
	var key int
	if h < 0 {
		h, key = bs.ev.value(&p.steps, bs.parts(int(p.parent)))
	}
	if bs.upper > 0 && len(bs.links)+h >= bs.upper {
		return false, nil // no solution through it is shorter than upper
	}
	link := beamLink{parent: p.parent, move: p.dir}
	if p.ck == bs.goalKey {
		bs.trace(link)
		return true, nil
	}
	if len(bs.ch) == cap(bs.ch) {
		if err := bs.growChildren(); err != nil {
			return false, err
		}
	}
	bs.ckeys = append(bs.ckeys, p.ck[:bs.words]...)
	if bs.ev != nil {
		bs.ch = append(bs.ch, uint16(min(key, 1<<16-1)))
		bs.cparts = bs.ev.appendChild(bs.cparts)
	} else {
		bs.ch = append(bs.ch, bs.rank(h))
		if bs.np > 0 {
			bs.cparts = bs.hc.childParts(bs.cparts, bs.parts(int(p.parent)))
		}
	}
	bs.chash = append(bs.chash, p.hv)
	bs.clink = append(bs.clink, link)
	return false, nil
}

// rank is the ranking key of the child just evaluated, whose heuristic
// is h: h itself, with Options.RankWeights the weighted key, or with
// Solver.rankSides the sum of the regular and the reflected sums (both
// capped to 16 bits).
func (bs *beamSearch) rank(h int) uint16 {
	if bs.s.rankW == nil && !bs.s.rankSides {
		return uint16(h)
	}
	return uint16(min(bs.hc.ckey, 1<<16-1))
}

// trace sets bs.path to the moves from the start to the goal, the child
// of the current level reached by link.
func (bs *beamSearch) trace(link beamLink) {
	bs.path = append(bs.path, link.move)
	for d, p := len(bs.links)-1, link.parent; d > 0; d-- {
		l := bs.links[d][p]
		bs.path = append(bs.path, l.move)
		p = l.parent
	}
	slices.Reverse(bs.path)
}

// growChildren grows the child arrays together, within the budget: twice
// as large, at least 1024 and at most the 3*width children of a level.
func (bs *beamSearch) growChildren() error {
	bud, words := &bs.guard.bud, bs.words
	c := min(max(2*cap(bs.ch), 1024), 3*bs.width)
	if c <= len(bs.ch) {
		c = len(bs.ch) + 1
	}
	var err error
	if bs.ckeys, err = growFor(bud, bs.ckeys, c*words-len(bs.ckeys), 8); err != nil {
		return err
	}
	if bs.ch, err = growFor(bud, bs.ch, c-len(bs.ch), 2); err != nil {
		return err
	}
	if bs.chash, err = growFor(bud, bs.chash, c-len(bs.chash), 8); err != nil {
		return err
	}
	if bs.cparts, err = growFor(bud, bs.cparts, c*bs.np-len(bs.cparts), 1); err != nil {
		return err
	}
	bs.clink, err = growFor(bud, bs.clink, c-len(bs.clink), beamLinkBytes)
	return err
}

// keep returns which children the next level keeps: the width with the
// smallest h, that is all with h below cut and the first room ones at cut
// (all of them, cut 1<<16, when there are at most width), keep in all.
func (bs *beamSearch) keep() (cut, room, keep int) {
	keep, cut = len(bs.ch), 1<<16
	if keep <= bs.width {
		return cut, 0, keep
	}
	maxH := 0
	for _, h := range bs.ch {
		maxH = max(maxH, int(h))
	}
	bs.count = append(bs.count[:0], make([]int, maxH+1)...)
	for _, h := range bs.ch {
		bs.count[h]++
	}
	below := 0
	for cut = 0; below+bs.count[cut] < bs.width; cut++ {
		below += bs.count[cut]
	}
	return cut, bs.width - below, bs.width
}

// nextLevel makes the children kept (keep) the next level, less (in a
// beam without an upper bound) those kept at an earlier level, within the
// node limit and the budget.
func (bs *beamSearch) nextLevel() error {
	bud, words := &bs.guard.bud, bs.words
	cut, room, keep := bs.keep()
	if bs.stats.Stored+uint64(keep) > bs.guard.maxNodes {
		return fmt.Errorf("%w: %d states kept, and a level of %d more would pass the limit of %d", ErrNodeLimit, bs.stats.Stored+1, keep, bs.guard.maxNodes)
	}
	next, err := growFor(bud, []beamLink(nil), keep, beamLinkBytes)
	if err != nil {
		return err
	}
	nkeys := bs.cur[:0]
	if cap(bs.cur) < keep*words {
		if nkeys, err = growFor(bud, []uint64(nil), keep*words, 8); err != nil {
			return err
		}
		bud.take(0, int64(cap(bs.cur))*8)
	}
	nparts := bs.curParts[:0]
	if cap(bs.curParts) < keep*bs.np {
		if nparts, err = growFor(bud, []uint8(nil), keep*bs.np, 1); err != nil {
			return err
		}
		bud.take(0, int64(cap(bs.curParts)))
	}
	// The children kept, keptChunk at a time: their slots in kept are read
	// in one short loop (hashSet.touch), so that the misses overlap, and
	// only theirs (most children are above the cut).
	useKept := usesKept(bs.upper)
	var sel [keptChunk]int32
	var hs [keptChunk]uint64
	for c := 0; c < len(bs.ch); {
		n := 0
		for ; c < len(bs.ch) && n < keptChunk; c++ {
			if h := int(bs.ch[c]); h < cut || h == cut && room > 0 {
				sel[n], hs[n] = int32(c), bs.chash[c]
				n++
			}
		}
		if useKept {
			bs.kept.touch(hs[:n])
		}
		for _, c := range sel[:n] {
			h := int(bs.ch[c])
			if h == cut && room == 0 {
				continue
			}
			if useKept {
				if isNew, err := bs.kept.addNew(bs.chash[c], bud); err != nil {
					return err
				} else if !isNew {
					continue // kept at an earlier level
				}
			}
			if h == cut {
				room--
			}
			nkeys = append(nkeys, bs.ckeys[int(c)*words:(int(c)+1)*words]...)
			nparts = append(nparts, bs.cparts[int(c)*bs.np:(int(c)+1)*bs.np]...)
			next = append(next, bs.clink[c])
		}
	}
	if len(next) == 0 {
		return ErrBeamExhausted
	}
	bs.cur, bs.curParts = nkeys, nparts
	bs.links = append(bs.links, next)
	bs.stats.Stored += uint64(len(next))
	return nil
}
