package solver

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime/debug"
	"slices"
	"time"

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
// shorter solutions than weighted A* in the same time (README, "35-puzzle
// and 48-puzzle").
//
// Duplicate detection is by 64-bit key hashes, in two steps. A child whose
// hash was generated in a window of recent levels is dropped before its
// heuristic is computed: a state of the sliding-tile graph can come back
// only after a cycle of at least 12 moves (the blank around a 2x2 block
// three times) besides the move undoing the last one, which is never
// generated, and the window (two tables, each dropped in turn once half
// full: 8*width to 16*width hashes, several levels) catches the short
// cycles, which are the common ones. Then a child about to be kept is
// dropped when a state with its hash was kept at any earlier level (one
// set of the hashes of every state kept): without it a narrow beam can
// go round a long cycle for ever (width 1000 on one of DeepCubeA's
// 35-puzzle states went 134,000 levels deep). A beam also gives up
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

func (hs *hashSet) insert(h uint64) {
	mask := uint64(len(hs.t) - 1)
	i := h >> hs.shift
	for hs.t[i] != 0 {
		i = (i + 1) & mask
	}
	hs.t[i] = h
	hs.n++
}

// hashWindow is a set of 64-bit hashes over recent levels: two
// open-addressing tables (linear probing, 0 = empty), the older dropped
// when the newer is half full.
type hashWindow struct {
	cur, old []uint64
	n        int // hashes in cur
	shift    uint
}

// maxWindowSlots caps each table of a hash window (128 MiB): past a width
// of 2^20 the window covers fewer levels instead of growing.
const maxWindowSlots = 1 << 24

// windowSlots is the size of each table of the window of a beam of the
// given width: 16*width rounded up to a power of two, within [1024,
// maxWindowSlots].
func windowSlots(width int) int {
	return min(1<<bits.Len(uint(max(16*width, 1024)-1)), maxWindowSlots)
}

// newHashWindow allocates a window of two tables of slots each (a power
// of two), within b.
func newHashWindow(slots int, b *budget) (hashWindow, error) {
	if !b.take(2*int64(slots)*8, 0) {
		return hashWindow{}, b.err()
	}
	return hashWindow{cur: make([]uint64, slots), old: make([]uint64, slots), shift: 64 - uint(bits.TrailingZeros(uint(slots)))}, nil
}

// has reports whether h is in t.
func (w *hashWindow) has(t []uint64, h uint64) bool {
	mask := uint64(len(t) - 1)
	for i := h >> w.shift; ; i = (i + 1) & mask {
		switch t[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// addNew adds h (a key's hash) and reports whether it was new in the
// window.
func (w *hashWindow) addNew(h uint64) bool {
	h |= 1 // 0 marks an empty slot
	if w.has(w.old, h) {
		return false
	}
	mask := uint64(len(w.cur) - 1)
	i := h >> w.shift
	for ; w.cur[i] != 0; i = (i + 1) & mask {
		if w.cur[i] == h {
			return false
		}
	}
	w.cur[i] = h
	if w.n++; 2*w.n >= len(w.cur) {
		w.cur, w.old = w.old, w.cur
		clear(w.cur)
		w.n = 0
	}
	return true
}

// SolveBeam solves b by beam search (above) keeping width states per
// level, 1 <= width <= MaxBeamWidth. The answer's Lower is the start's
// heuristic (raised to the solution's parity): a beam search proves
// nothing more; Width is width. Stats.Stored counts the states kept over all levels,
// Generated the children made.
//
// Memory is bounded by lim.MaxBytes (DefaultMaxBytes when 0): about
// 3*width*(8*words+18) bytes for a level's children (words: 2 on the
// 24-puzzle, 4 on 6x6, 5 on 7x7, 7 on 8x8), 256*width (at most 256 MiB)
// for the hash window, and 8 bytes of link plus 16 of hash set per state
// kept over all levels; lim.MaxNodes bounds the states
// kept, lim.TimeLimit the time. A search that reaches a limit, or finds
// every child of a level a duplicate, returns the Bounded without a
// solution (Length -1) and an error (ErrMemoryLimit, ErrNodeLimit,
// ErrTimeLimit, ctx's error, or ErrBeamExhausted). Bad boards are errors
// as for SolveWeighted; an unsolvable board gives Solvable false.
func (s *Solver) SolveBeam(ctx context.Context, b puzzle.Board, width int, lim Limits) (Bounded, error) {
	return s.beam(ctx, b, width, lim, 0)
}

// beam is SolveBeam; upper > 0 drops every child whose g + h is at least
// upper (no solution through it is shorter than upper, h being
// admissible), so that a beam looking for a solution shorter than a known
// one spends its width on the states that may lead to one; it then fails
// with ErrBeamExhausted when none does.
func (s *Solver) beam(ctx context.Context, b puzzle.Board, width int, lim Limits, upper int) (Bounded, error) {
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

// MaxBeamWidth is the largest width SolveBeam takes: level indices are
// 32-bit, with room for the children of a full level.
const MaxBeamWidth = 1 << 28

// ErrBeamExhausted is the error of a beam search whose level had no new
// child: every child was a duplicate (or the level was empty). A wider
// beam may still succeed.
var ErrBeamExhausted = errors.New("no new state at a level (or past the deepest level)")

// beamSearch is one beam search in progress.
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
}

func (bs *beamSearch) run(work puzzle.Board, width int) error {
	s, pk := bs.s, &bs.pk
	words := pk.words
	var board, gb [puzzle.MaxCells]uint8
	copy(gb[:], s.goal)
	goalKey := pk.pack(&gb)
	copy(board[:], work)
	bs.startH = bs.hc.load(&board)
	bs.parity = s.geom.Manhattan(slices.Index(work, 0), int(s.goalPos[0])) % 2
	k0 := pk.pack(&board)
	bud := &bs.guard.bud
	// cur: the keys of the level being expanded; its links in links[len-1].
	// Children go to ckeys/ch/clink; the kept ones become the next level.
	maxKids := 3 * width
	win, err := newHashWindow(windowSlots(width), bud)
	if err != nil {
		return err
	}
	if k0 == goalKey {
		return nil
	}
	var (
		cur   = append(make([]uint64, 0, words), k0[:words]...)
		links [][]beamLink
		ckeys []uint64
		ch    []uint16
		chash []uint64
		clink []beamLink
		kept  hashSet
		count []int
	)
	win.addNew(hashKey(k0))
	if _, err := kept.addNew(hashKey(k0), bud); err != nil {
		return err
	}
	maxLevels := beamMaxLevels(bs.startH)
	links = append(links, []beamLink{{move: noMove}})
	for {
		n := len(cur) / words
		last := links[len(links)-1]
		if len(links) > maxLevels {
			return ErrBeamExhausted
		}
		ckeys, ch, chash, clink = ckeys[:0], ch[:0], chash[:0], clink[:0]
		for i := 0; i < n; i++ {
			if err := bs.guard.tick(); err != nil {
				return err
			}
			bs.stats.Expanded++
			var k key
			copy(k[:], cur[i*words:(i+1)*words])
			blank := pk.unpack(k, &board)
			bs.hc.load(&board)
			m := &s.nbr[blank]
			skip := undo[last[i].move]
			for j := uint8(0); j < m.n; j++ {
				dir := m.dir[j]
				if dir == skip {
					continue
				}
				to := m.to[j]
				tile := board[to]
				ck := pk.slide(k, blank, to, tile)
				bs.stats.Generated++
				hv := hashKey(ck)
				if !win.addNew(hv) {
					continue
				}
				h := bs.hc.child(tile, blank, to)
				if bs.upper > 0 && len(links)+h >= bs.upper {
					continue // no solution through it is shorter than upper
				}
				if ck == goalKey {
					bs.path = append(bs.path, dir)
					for d, p := len(links)-1, uint32(i); d > 0; d-- {
						l := links[d][p]
						bs.path = append(bs.path, l.move)
						p = l.parent
					}
					for a, z := 0, len(bs.path)-1; a < z; a, z = a+1, z-1 {
						bs.path[a], bs.path[z] = bs.path[z], bs.path[a]
					}
					return nil
				}
				if len(ch) == cap(ch) {
					// Grow the child arrays together, within the budget.
					c := max(2*cap(ch), 1024)
					c = min(c, maxKids)
					if c <= len(ch) {
						c = len(ch) + 1
					}
					if ckeys, err = growFor(bud, ckeys, c*words-len(ckeys), 8); err != nil {
						return err
					}
					if ch, err = growFor(bud, ch, c-len(ch), 2); err != nil {
						return err
					}
					if chash, err = growFor(bud, chash, c-len(chash), 8); err != nil {
						return err
					}
					if clink, err = growFor(bud, clink, c-len(clink), beamLinkBytes); err != nil {
						return err
					}
				}
				ckeys = append(ckeys, ck[:words]...)
				ch = append(ch, uint16(h))
				chash = append(chash, hv)
				clink = append(clink, beamLink{parent: uint32(i), move: dir})
			}
		}
		if len(ch) == 0 {
			return ErrBeamExhausted
		}
		// Keep the width children with the smallest h: all below the cut
		// value, and the first ones at it.
		keep := len(ch)
		cut, room := 1<<16, 0
		if keep > width {
			maxH := 0
			for _, h := range ch {
				maxH = max(maxH, int(h))
			}
			count = append(count[:0], make([]int, maxH+1)...)
			for _, h := range ch {
				count[h]++
			}
			below := 0
			for cut = 0; below+count[cut] < width; cut++ {
				below += count[cut]
			}
			room, keep = width-below, width
		}
		if bs.stats.Stored+uint64(keep) > bs.guard.maxNodes {
			return fmt.Errorf("%w: %d states kept, and a level of %d more would pass the limit of %d", ErrNodeLimit, bs.stats.Stored+1, keep, bs.guard.maxNodes)
		}
		var next []beamLink
		if next, err = growFor(bud, next, keep, beamLinkBytes); err != nil {
			return err
		}
		nkeys := cur[:0]
		if cap(cur) < keep*words {
			if nkeys, err = growFor(bud, []uint64(nil), keep*words, 8); err != nil {
				return err
			}
			bud.take(0, int64(cap(cur))*8)
		}
		for c, h := range ch {
			if int(h) > cut || int(h) == cut && room == 0 {
				continue
			}
			if isNew, err := kept.addNew(chash[c], bud); err != nil {
				return err
			} else if !isNew {
				continue // kept at an earlier level
			}
			if int(h) == cut {
				room--
			}
			nkeys = append(nkeys, ckeys[c*words:(c+1)*words]...)
			next = append(next, clink[c])
		}
		if len(next) == 0 {
			return ErrBeamExhausted
		}
		cur = nkeys
		links = append(links, next)
		bs.stats.Stored += uint64(len(next))
	}
}

// Anytime beam search (AnytimeOptions.Beam).

// FirstBeamWidth is the width of the first beam search of SolveAnytime
// with AnytimeOptions.Beam; each next one is twice as wide.
const FirstBeamWidth = 1000

// beamBoundShare is the share of AnytimeOptions.TimeLimit that the beam
// searches leave to IDA* for the lower bound.
const beamBoundShare = 4 // a quarter

// solveBeamAnytime is SolveAnytime with opt.Beam: beam searches of widths
// FirstBeamWidth, twice that, and so on up to opt.MaxWidth, each started
// only when a search twice as long as the last one would still leave a
// quarter of the time limit; then IDA* with the time left, up to the best
// length found: it raises the proven lower bound an iteration at a time,
// proves the solution optimal when its bound reaches the length, and
// replaces it by an optimal one when it finds one.
func (s *Solver) solveBeamAnytime(ctx context.Context, b puzzle.Board, opt AnytimeOptions) (Bounded, error) {
	start := time.Now()
	maxWidth := opt.MaxWidth
	if maxWidth == 0 {
		maxWidth = MaxBeamWidth
	}
	if maxWidth < 1 || maxWidth > MaxBeamWidth {
		return Bounded{}, fmt.Errorf("solver: beam width %d: want 1 to %d", maxWidth, MaxBeamWidth)
	}
	best, work, ok, err := s.start(b, opt.Limits)
	if err != nil || !ok {
		return best, err
	}
	left := func() time.Duration { return opt.TimeLimit - time.Since(start) }
	parity := s.geom.Manhattan(slices.Index(work, 0), int(s.goalPos[0])) % 2
	reserve := opt.TimeLimit / beamBoundShare
	// settle fills best's bound fields from Length and Lower.
	settle := func() {
		best.Stats.Elapsed = time.Since(start)
		if best.Length < 0 {
			return
		}
		best.Lower = min(best.Lower, best.Length)
		best.Optimal = best.Length == best.Lower
		best.Bound = 1
		if best.Lower > 0 {
			best.Bound = float64(best.Length) / float64(best.Lower)
		}
	}
	// bound runs IDA* up to the best length for at most d (0: no limit)
	// and takes what it proves. done is true when the answer is then
	// proven optimal; err is a context's error or trouble, not the end of
	// d.
	bound := func(d time.Duration) (done bool, err error) {
		ictx := ctx
		if d > 0 {
			var cancel context.CancelFunc
			ictx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		upper := inf
		if best.Length >= 0 {
			upper = best.Length
		}
		// raise takes a proven bound and reports it when it is higher.
		raise := func(lb int) {
			if (lb-parity)%2 != 0 {
				lb++
			}
			if lb <= best.Lower {
				return
			}
			best.Lower = lb
			settle()
			if best.Length >= 0 && opt.OnSolution != nil {
				opt.OnSolution(best)
			}
		}
		var (
			path  []uint8
			nodes uint64
		)
		if s.exact != nil {
			path, nodes, err = s.walk(work) // an exact table: the optimum at once
		} else {
			base := best.Stats.Generated
			path, nodes, err = s.idaUpTo(ictx, work, upper, func(lb int, n uint64) {
				best.Stats.Generated = base + n
				raise(min(lb, upper))
			})
			best.Stats.Generated = base
		}
		best.Stats.Generated += nodes
		var se *StoppedError
		switch {
		case err == nil: // the optimum, shorter than the best
			best.Length, best.Moves, best.Width, best.Weight = len(path), s.moveString(path), 0, 1
			best.Lower = best.Length
			settle()
			if opt.OnSolution != nil {
				opt.OnSolution(best)
			}
			return true, nil
		case errors.As(err, &se):
			raise(min(se.Lower, upper))
			if done = errors.Is(err, errUpper); done || ctx.Err() == nil {
				err = nil // the bound reached, or the slice's end
			}
			settle()
			return done, err
		}
		return false, err // trouble, not a limit
	}
	var last time.Duration
	for w := min(FirstBeamWidth, maxWidth); ; w = min(2*w, maxWidth) {
		lim := opt.Limits
		if opt.TimeLimit > 0 {
			if w > FirstBeamWidth && left()-reserve < 2*last {
				break
			}
			lim.TimeLimit = max(left()-reserve, 1)
		}
		out, err := s.beam(ctx, b, w, lim, max(best.Length, 0))
		best.Stats = addStats(best.Stats, out.Stats, w == min(FirstBeamWidth, maxWidth))
		best.Lower = max(best.Lower, out.Lower)
		last = out.Stats.Elapsed
		if out.Stats.PeakBytes > 64<<20 {
			// Give the beam's arrays back before a wider one allocates
			// twice as much: the collector would otherwise keep both, and
			// the process would hold about twice the search's budget.
			debug.FreeOSMemory()
		}
		switch {
		case err == nil:
		case ctx.Err() != nil:
			settle()
			return best, fmt.Errorf("anytime beam search: %w", err)
		case errors.Is(err, ErrBeamExhausted):
			// No solution shorter than the best at this width: try wider.
		case errors.Is(err, ErrNodeLimit):
			// --max-nodes bounds the whole search: no IDA* after it.
			settle()
			return best, fmt.Errorf("anytime beam search: %w", err)
		default:
			w = maxWidth // a limit of this width: the wider ones would reach it too
		}
		if err == nil && (best.Length < 0 || out.Length < best.Length) {
			best.Length, best.Moves, best.Width, best.Weight = out.Length, out.Moves, w, 0
			settle()
			if opt.OnSolution != nil {
				opt.OnSolution(best)
			}
		}
		if best.Optimal || w == maxWidth {
			break
		}
		// A short IDA* slice (a quarter of this beam's time) between beams:
		// on boards IDA* solves at once it ends the search early.
		if done, err := bound(max(last/4, time.Millisecond)); err != nil || done {
			settle()
			if err != nil {
				return best, fmt.Errorf("anytime beam search, IDA* for the bound: %w", err)
			}
			return best, nil
		}
	}
	if best.Optimal {
		settle()
		return best, nil
	}
	// IDA* for the bound, within the time left.
	slice := time.Duration(0)
	if opt.TimeLimit > 0 {
		if slice = left(); slice <= 0 {
			settle()
			return best, fmt.Errorf("anytime beam search: %w: %v", ErrTimeLimit, opt.TimeLimit)
		}
	}
	done, err := bound(slice)
	settle()
	if err != nil {
		return best, fmt.Errorf("anytime beam search, IDA* for the bound: %w", err)
	}
	if !done && opt.TimeLimit > 0 {
		return best, fmt.Errorf("anytime beam search: %w: %v", ErrTimeLimit, opt.TimeLimit)
	}
	return best, nil
}
