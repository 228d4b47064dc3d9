// Package solver solves sliding-tile puzzles with the tables of package
// format: optimally (IDA*, or a walk down an exact table), within a proven
// factor of the optimum, or as well as it can within limits, and says what
// each answer proves.
//
// # Optimal search
//
//   - An exact table (a format.Set holding one table whose pattern is
//     Exact): the table holds the true distance of every state, so the
//     solver walks down it, moving at every step to the first neighbour (in
//     the blank-move order u, d, l, r) whose value is one smaller. This takes
//     O(length) lookups.
//   - Additive pattern databases (Korf & Felner 2002, "Disjoint pattern
//     database heuristics", Artificial Intelligence 134), plain or
//     zero-aware: iterative-deepening A* (IDA*, Korf 1985,
//     "Depth-first iterative-deepening: an optimal admissible tree search",
//     Artificial Intelligence 27) with the sum of the table values as
//     heuristic. Optionally (Options.Reflect) the state reflected about the
//     main diagonal is looked up in the same tables and the larger of the
//     two sums is used (Culberson & Schaeffer 1998, "Pattern databases",
//     Computational Intelligence 14; Felner, Korf & Hanan 2004, "Additive
//     pattern database heuristics", JAIR 22); the reflected lookup is taken
//     only for children that the regular sum does not already cut, as in
//     Korf's program. A set's parts may be looked up through a table built
//     for a symmetric pattern (format.Part, puzzle.MapPattern): Korf &
//     Felner's 24-puzzle partition needs 2 tables for 4 parts.
//   - A catalogue (format.Set.Catalogue: SPEC.md section 12; Holte, Newton,
//     Felner, Meshulam & Furcy 2004, "Multiple pattern databases", ICAPS;
//     Clausecker & Reinefeld's catalogues of partitions): the heuristic is
//     the maximum over several additive partitions of each partition's sum.
//     Each distinct part is kept up to date per move once however many
//     partitions hold it, with one sum per partition; a child's partitions
//     are evaluated one after another up to the first that cuts it (the cut
//     and the next bound are those of the full maximum). A catalogue of one
//     partition is searched as the additive set of its parts.
//
// With Options.Threads > 1 each IDA* iteration is split below a shallow
// depth and shared among threads, with the same moves and node count. IDA*
// looks each table of at most 2^28 entries up through a direct copy indexed
// by the tiles' cells as base-N digits (the "sparse mapping" of Felner, Korf
// & Hanan 2004), so that a move updates the index by one addition
// (Options.Compact keeps the compact index; Options.MaxDirectBytes bounds
// the copies), and it never generates a child whose last moves form a
// forbidden move string: one whose effect a shorter string, or an equally
// long one earlier in the order u < d < l < r, has within the cells it
// visits (duplicate-path pruning, Taylor & Korf 1993: the automaton of
// package fsm, strings of up to 12 moves, one table lookup per child), so
// the first optimal solution in that order is still found.
//
// # The one entry point
//
// Solver.Search runs every search: an Algorithm of the one registry
// (algorithm.go; ParseAlgorithm reads the names, Algorithms lists them,
// Summary and About describe them), with the same SearchOptions (limits on
// time, stored states and memory, the algorithm's own Params:
// WeightParams, ScheduleParams or WidthParams, and a callback for the
// improvements of the anytime ones) and a context, answered with the same
// Bounded (solution, proven lower bound, nodes, elapsed time, stop reason:
// StopReason, StoppedError; Bounded.Text and Bounded.JSON format it).
// Besides optimal IDA* (AlgIDA) the registry holds searches that store
// states (packed boards in a hash table, bounded by Limits): weighted A*
// (AlgWeighted, a solution at most w times the optimum), ARA* (AlgAnytime:
// a first solution at once, then better ones with proven bounds down to
// the optimum), restarting weighted A* (AlgRestarts), the beam search
// (AlgBeamSearch: the best W states of each level, no bound on the
// length), the anytime beam search (AlgAnytimeBeamSearch: beam searches of
// growing width, then IDA* for the bound) and breadth-first search from
// both ends (AlgBidirectional, no table: an independent check of the
// others; NewBoard makes a Solver without tables for it). "Beam" in this
// package always means the beam search; the Apache Beam build driver is
// the separate module beam/.
//
// Moves are reported as the direction in which the BLANK moves: 'u', 'd',
// 'l', 'r'. Applying them in order to the input board gives the goal
// (Apply). With Options.FromBlankFirst boards in Korf's convention are
// solved with blank-last tables and the moves translated back.
//
// Node count (Result.Nodes): the number of states generated, that is, the
// number of children created by applying a move to an expanded state, summed
// over all IDA* iterations, including children that are pruned at once
// because their f = g + h exceeds the bound. The move that would undo the
// previous move is never applied and not counted; the start state is not
// counted, nor are the moves skipped by the duplicate-path pruning. For the
// exact-table walk, Nodes counts the neighbours looked up in the table on
// the way down (again never the parent).
//
// The package depends on format (the tables), puzzle and solver/fsm; it
// never writes files.
package solver
