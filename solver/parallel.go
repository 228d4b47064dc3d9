package solver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tilepdb/tilepdb/puzzle"
)

// frontierNode is the root of one subtree of a split IDA* iteration: the
// moves from the search's root, and the number of nodes the
// single-threaded search would have generated when it reached it.
type frontierNode struct {
	path  []uint8
	nodes uint64
}

// subResult is the outcome of searching one subtree.
type subResult struct {
	found bool
	path  []uint8
	nodes uint64
	next  int
	err   error
}

// errAbandoned stops the search of a subtree whose result is no longer
// needed (a subtree earlier in the order holds a solution).
var errAbandoned = errors.New("subtree abandoned")

// Frontier sizes of idaParallel: the cut depth starts at minCut and moves
// by 2 between iterations to keep the frontier between frontierPerThread
// and maxFrontierPerThread nodes per thread.
const (
	minCut               = 6
	frontierPerThread    = 256
	maxFrontierPerThread = 16384
)

// idaParallel is IDA* with each iteration's tree split among
// Options.Threads goroutines: a single-threaded pass lists, in depth-first
// order, the nodes at a shallow depth (the cut) whose f is within the
// bound; the threads take their subtrees in that order from a shared
// counter. When a subtree holds a solution, the subtrees after it are
// abandoned and those before it completed, so the solution returned is the
// one the single-threaded search finds first, and the node count is
// exactly its count: the nodes generated above the cut up to that subtree,
// plus the subtrees before it, plus the solution's subtree up to the
// solution. Moves and nodes therefore do not depend on the number of
// threads or on the cut.
func (s *Solver) idaParallel(ctx context.Context, b puzzle.Board, upper int, onBound func(int, uint64)) ([]uint8, uint64, error) {
	root := s.newSearcher(ctx, b)
	if root.isGoal() {
		return nil, 0, nil
	}
	threads := s.opt.Threads
	bound := root.value()
	cut := minCut
	var total uint64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, stopped(err, bound, total)
		}
		if bound >= upper {
			return nil, total, &StoppedError{Lower: bound, Nodes: total, Err: errUpper}
		}
		// The frontier of this iteration, one single-threaded pass. The cut
		// adapts between iterations (the tree grows with the bound): one
		// level deeper (2 moves, the parity of the puzzle) when the
		// frontier was small, one shallower when it was large. Redoing a
		// pass within an iteration would cost a whole small tree per try.
		fx := s.newSearcher(ctx, b)
		fx.bound, fx.next = bound, inf
		// Every solution found in this iteration is bound moves long, so
		// below a cut < bound none is found above the cut. With cut >=
		// bound the pass is the whole iteration, unsplit (a frontier at or
		// below the solutions' depth would leave nodes the single-threaded
		// search expands uncounted).
		if cut < bound {
			fx.cut = cut
		}
		found := fx.dfs(0, 0)
		s.explored.Add(fx.nodes)
		if found {
			if fx.err != nil {
				return nil, total + fx.nodes, stopped(fx.err, bound, total+fx.nodes)
			}
			return fx.path, total + fx.nodes, nil // a solution above the cut
		}
		switch n := len(fx.frontier); {
		case n < frontierPerThread*threads:
			cut += 2
		case n > maxFrontierPerThread*threads && cut > minCut:
			cut -= 2
		}
		items := fx.frontier
		results := make([]subResult, len(items))
		var best atomic.Int64 // index of the first subtree known to hold a solution
		best.Store(int64(len(items)))
		var counter atomic.Int64
		var wg sync.WaitGroup
		for range min(threads, len(items)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				x := &searcher{s: s, tableState: tableState{reflect: s.opt.Reflect}, n: s.n}
				for {
					i := counter.Add(1) - 1
					if i >= int64(len(items)) || i > best.Load() {
						return
					}
					r := s.searchSubtree(ctx, x, b, items[i].path, bound, &best, i)
					results[i] = r
					if r.found {
						for {
							old := best.Load()
							if i >= old || best.CompareAndSwap(old, i) {
								break
							}
						}
					}
					if r.err != nil && !errors.Is(r.err, errAbandoned) {
						return
					}
				}
			}()
		}
		wg.Wait()
		w := best.Load()
		done := total + fx.nodes // the nodes generated so far, for a stop
		for i := range results {
			done += results[i].nodes
		}
		for i := int64(0); i < int64(len(items)) && i <= w; i++ {
			if err := results[i].err; err != nil && !errors.Is(err, errAbandoned) {
				return nil, total, stopped(err, bound, done)
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, total, stopped(err, bound, done)
		}
		if w < int64(len(items)) {
			nodes := total + items[w].nodes
			for i := int64(0); i <= w; i++ {
				nodes += results[i].nodes
			}
			return results[w].path, nodes, nil
		}
		next := fx.next
		total += fx.nodes
		for i := range results {
			total += results[i].nodes
			next = min(next, results[i].next)
		}
		if next == inf {
			return nil, total, fmt.Errorf("solver: search space exhausted without reaching the goal from %q", b)
		}
		bound = next
		if onBound != nil {
			onBound(bound, total)
		}
	}
}

// searchSubtree runs one IDA* iteration (bound) below the frontier node
// reached from b by path, with the searcher x (reset here).
func (s *Solver) searchSubtree(ctx context.Context, x *searcher, b puzzle.Board, path []uint8, bound int, stop *atomic.Int64, item int64) subResult {
	var board [puzzle.MaxCells]uint8
	copy(board[:], b)
	blank := 0
	for c, t := range b {
		if t == 0 {
			blank = c
		}
	}
	for _, d := range path {
		to, _ := s.geom.Step(blank, puzzle.Direction(d))
		board[blank], board[to] = board[to], 0
		blank = to
	}
	x.reset(ctx, board[:len(b)])
	x.bound, x.next = bound, inf
	x.stop, x.item = stop, item
	x.path = append(x.path, path...)
	fs := uint16(0) // the duplicate-path automaton's state (the path was not cut)
	for _, d := range path {
		fs = s.dup[int(fs)<<2|int(d)]
	}
	found := x.dfs(len(path), fs)
	s.explored.Add(x.nodes)
	if x.err != nil {
		return subResult{nodes: x.nodes, err: x.err}
	}
	r := subResult{found: found, nodes: x.nodes, next: x.next}
	if found {
		r.path = append([]uint8(nil), x.path...) // x is reused
	}
	return r
}
