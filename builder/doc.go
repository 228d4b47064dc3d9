// Package builder computes the tables of tilepdb by breadth-first search
// backwards from the goal, and says beforehand what a build will need.
//
// # What it builds
//
// Every table is the []uint8 of values of one *puzzle.Pattern, indexed by
// Pattern.Rank (or, for a zero-aware table, by the index of
// puzzle.Regions); package format writes it to a file. Three kinds are
// built:
//
//   - Exact tables (all tiles are pattern tiles, Build): the true distance
//     of every solvable state, a level-synchronous BFS over the lehmer-half
//     index.
//   - Additive pattern databases (Build; Korf & Felner 2002, "Disjoint
//     pattern database heuristics", Artificial Intelligence 134): for every
//     placement of the k pattern tiles, the fewest moves of pattern tiles
//     that bring them home when the other tiles are indistinguishable and
//     the blank moves among them at no cost. Only pattern moves are counted,
//     so the sum over a disjoint partition of the tiles is admissible.
//   - Zero-aware tables (BuildZeroAware; Clausecker & Reinefeld's
//     zero-aware pattern databases): the same search, keeping one value per
//     placement and region of the blank instead of the minimum over the
//     regions (SPEC.md section 11).
//
// # The additive search
//
// The additive search works on abstract states (placement, blank region):
// the blank's position matters only up to the connected region of
// non-pattern cells it is in, since it moves there for free. Regions depend
// only on which cells are occupied, so the state space is laid out as k!
// order blocks (one per order of the tiles within their cells), each
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
// # Beyond one machine's memory
//
// The shard kernel (ShardPlan, NewShardPlan, ShardPlan.Step) is the same
// search cut into shards: contiguous ranges of order blocks that keep their
// 2-bit states as opaque bytes between levels and exchange sorted batches
// of states. Drivers run it in memory (BuildSharded, the reference the
// tests compare with Build), out of core on one machine (BuildOutOfCore:
// shard states, batches and value logs in a shard folder on disk, with a
// budget, resume, locking and checksums), and on Apache Beam (package
// shardbeam of the separate beam/ module). Every driver gives the same
// bytes. The byte layouts are at the top of shard.go and in
// docs/sharding.md.
//
// # Before a build
//
// CheckLimits refuses, from its size alone, an additive pattern the builder
// cannot take whatever the memory (more than 15 tiles, or 2^24 or more sets
// of occupied cells; puzzle.NewPattern already refuses more than 2^36
// entries).
// MemoryEstimate and ZeroAwareMemoryEstimate give the bytes an in-memory
// build allocates, so that a caller compares them with the memory it has
// before anything large is allocated; an out-of-core build is planned to
// fit the budget it is given.
//
// Builds take a context and stop with ErrCanceled when it ends; Options
// and OutOfCoreOptions carry the worker count and a progress callback
// (Event, OutOfCoreEvent). The package depends on puzzle (patterns,
// ranking, regions) and internal/atomicfile (the shard folder's files).
package builder
