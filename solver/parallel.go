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
		fx, found := s.frontierPass(ctx, b, bound, cut)
		if found {
			if fx.err != nil {
				return nil, total + fx.nodes, stopped(fx.err, bound, total+fx.nodes)
			}
			return fx.path, total + fx.nodes, nil // a solution above the cut
		}
		cut = adaptCut(cut, len(fx.frontier), s.opt.Threads)
		it := splitIteration{fx: fx}
		it.results, it.first = s.searchFrontier(ctx, b, fx.frontier, bound)
		if path, nodes, done, err := it.outcome(ctx, total, bound); done {
			return path, nodes, err
		}
		next := fx.next
		total += fx.nodes
		for i := range it.results {
			total += it.results[i].nodes
			next = min(next, it.results[i].next)
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

// frontierPass is the single-threaded pass of one iteration (bound) that
// lists the subtree roots at depth cut in the searcher's frontier; found
// is true when it found a solution above the cut (or was stopped: the
// searcher's err). Every solution found in an iteration is bound moves
// long, so below a cut < bound none is found above the cut; with cut >=
// bound the pass is the whole iteration, unsplit (a frontier at or below
// the solutions' depth would leave nodes the single-threaded search
// expands uncounted).
func (s *Solver) frontierPass(ctx context.Context, b puzzle.Board, bound, cut int) (fx *searcher, found bool) {
	fx = s.newSearcher(ctx, b)
	fx.bound, fx.next = bound, inf
	if cut < bound {
		fx.cut = cut
	}
	found = fx.dfs(0, 0)
	s.explored.Add(fx.nodes)
	return fx, found
}

// adaptCut is the cut of the next iteration after a frontier of n nodes
// at cut (the tree grows with the bound): one level deeper (2 moves, the
// parity of the puzzle) when the frontier was small, one shallower when
// it was large. Redoing a pass within an iteration would cost a whole
// small tree per try.
func adaptCut(cut, n, threads int) int {
	switch {
	case n < frontierPerThread*threads:
		return cut + 2
	case n > maxFrontierPerThread*threads && cut > minCut:
		return cut - 2
	}
	return cut
}

// searchFrontier searches the subtrees of the frontier items with
// Options.Threads goroutines taking them in order, and returns their
// results and the index of the first one holding a solution (len(items)
// when none does); the subtrees after that one are abandoned.
func (s *Solver) searchFrontier(ctx context.Context, b puzzle.Board, items []frontierNode, bound int) ([]subResult, int64) {
	results := make([]subResult, len(items))
	var first atomic.Int64 // index of the first subtree known to hold a solution
	first.Store(int64(len(items)))
	var counter atomic.Int64
	var wg sync.WaitGroup
	for range min(s.opt.Threads, len(items)) {
		wg.Go(func() { s.subtreeWorker(ctx, b, items, bound, results, &counter, &first) })
	}
	wg.Wait()
	return results, first.Load()
}

// subtreeWorker is one goroutine of searchFrontier: it takes the next
// subtree from counter until none is left or the ones left come after a
// solution's (first), and stops at an error other than errAbandoned.
func (s *Solver) subtreeWorker(ctx context.Context, b puzzle.Board, items []frontierNode, bound int, results []subResult, counter, first *atomic.Int64) {
	x := &searcher{s: s, tableState: tableState{reflect: s.reflSide}, n: s.n}
	for {
		i := counter.Add(1) - 1
		if i >= int64(len(items)) || i > first.Load() {
			return
		}
		r := s.searchSubtree(ctx, x, b, items[i].path, bound, first, i)
		results[i] = r
		if r.found {
			for {
				old := first.Load()
				if i >= old || first.CompareAndSwap(old, i) {
					break
				}
			}
		}
		if r.err != nil && !errors.Is(r.err, errAbandoned) {
			return
		}
	}
}

// splitIteration is the outcome of one split iteration: the frontier
// pass fx, the results of its subtrees, and the first subtree holding a
// solution (len of the frontier when none).
type splitIteration struct {
	fx      *searcher
	results []subResult
	first   int64
}

// outcome says whether the iteration ends the search (done): stopped by
// an error or the context (with the nodes generated until then), or with
// the solution of the first subtree holding one, with the node count of
// the single-threaded search (total: the nodes of the earlier
// iterations).
func (it *splitIteration) outcome(ctx context.Context, total uint64, bound int) (path []uint8, nodes uint64, done bool, err error) {
	items := it.fx.frontier
	spent := total + it.fx.nodes // the nodes generated so far, for a stop
	for i := range it.results {
		spent += it.results[i].nodes
	}
	for i := int64(0); i < int64(len(items)) && i <= it.first; i++ {
		if err := it.results[i].err; err != nil && !errors.Is(err, errAbandoned) {
			return nil, total, true, stopped(err, bound, spent)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, total, true, stopped(err, bound, spent)
	}
	if it.first == int64(len(items)) {
		return nil, 0, false, nil
	}
	nodes = total + items[it.first].nodes
	for i := int64(0); i <= it.first; i++ {
		nodes += it.results[i].nodes
	}
	return it.results[it.first].path, nodes, true, nil
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
	fs := dupState(0) // the duplicate-path automaton's state (the path was not cut)
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
