// Package builder computes pattern databases by breadth-first search
// backwards from the goal.
//
// Three kinds of table are built (format.Kind):
//
//   - Exact tables (all tiles are pattern tiles): the true distance of every
//     solvable state, a level-synchronous BFS over the lehmer-half index.
//   - Additive pattern databases (Korf & Felner 2002, "Disjoint pattern
//     database heuristics", Artificial Intelligence 134): for every placement
//     of the k pattern tiles, the fewest moves of pattern tiles that bring
//     them home when the other tiles are indistinguishable and the blank
//     moves among them at no cost. Only pattern moves are counted, so the
//     sum over a disjoint partition of the tiles is admissible.
//   - Zero-aware tables (Clausecker & Reinefeld 2019; BuildZeroAware): an
//     additive table with one value per placement and region of the blank
//     (zeroaware.go).
//
// The additive search works on abstract states (placement, blank region):
// the blank's position matters only up to the connected region of
// non-pattern cells it is in, since it moves there for free. Regions depend
// only on which cells are occupied, so the state space is laid out as
// k! order blocks (one per order of the tiles within their cells), each
// holding, for every set of occupied cells, one entry per region. A
// horizontal move never changes the order, and a vertical one only when it
// jumps over another pattern tile, so most successors lie in the same
// block, which stays in cache. Each BFS level runs one of two kernels over
// the blocks: push (the frontier states of the blocks that hold any mark
// their unvisited successors) while the frontier is small, pull (every
// unvisited state looks for a neighbour on the frontier) once it is large.
// Workers share a level block by block and set states with atomic
// operations, so the result is the same for every worker count. The stored
// value of a placement is the minimum over its regions, which is the first
// level at which any of them is reached. The top of additive.go explains
// the index (state, slot, block, packed move) and the 2-bit level code.
//
// The drivers: Build and BuildZeroAware search in memory (additive.go's
// kernels); a ShardPlan splits the same search into shards of order
// blocks whose Steps exchange batches of states (shard.go,
// shard_kernel.go), run in process by BuildSharded, out of core by
// BuildOutOfCore with the shards' data in a folder (shard_disk.go), and on
// Apache Beam by the nested module's package shardbeam. The in-memory and
// the shard kernels share the word-boundary filter (wordSpan) and the
// pull's parity filter; every driver writes byte-identical tables for any
// worker or shard count. What a build will take is estimated before it
// runs (cost.go): MemoryEstimate and EstimateBuild in memory,
// OutOfCoreModel out of core, and a rough CPU time per search state.
package builder
