// Package fsm prunes duplicate paths in the depth-first search of a
// sliding-tile puzzle with a finite-state automaton over blank moves
// (Taylor & Korf 1993, "Pruning duplicate nodes in depth-first search",
// AAAI-93, pp. 756-761).
//
// # Moves and states
//
// A move is a blank move in the order of puzzle.Direction: 0 = u, 1 = d,
// 2 = l, 3 = r; a move string is written with those letters. The order of
// strings is by length, then lexicographically by that move order, which is
// the order in which IDA* (package solver) tries children.
//
// Play a string s from the blank at the origin of an unbounded grid whose
// every cell holds its own tile. The state reached is the whole
// arrangement: every cell the blank passed over may hold another tile
// afterwards, so two strings are equivalent when they leave every cell with
// the same tile (the blank included), not merely when they end on the same
// cell. Because tiles only move where the blank passes, two equivalent
// strings played from the same cell of any bounded board on which both can
// be played also reach the same board, whatever the tiles.
//
// # Forbidden strings
//
// A string s is forbidden when an equivalent string t comes before it in
// the order (shorter, or as long and lexicographically smaller) and every
// cell t visits lies in the bounding box of the cells s visits. The
// bounding box is what makes the rule safe on bounded boards: the automaton
// does not know where the blank is, and a rectangular board on which s can
// be played contains every cell of s, hence their bounding box, hence every
// cell of t; the intersection of all placements of a W×H board around s is
// exactly that box, so no larger region can be assumed. (Up to depth 12 the
// condition changes nothing; at depth 14 it keeps 18 strings of 13 moves,
// such as "dllurdrulldru" in a 3×2 box, whose smaller equivalents all leave
// the box: forbidding one would cut the only shortest path on a 3×2
// board.) Immediate
// reversals ("ud", "du", "lr", "rl") are forbidden strings of length 2:
// the empty string is equivalent and visits only the origin.
//
// # Why the smallest optimal path is never pruned
//
// Let P be the smallest (in the order above) of the shortest paths from a
// start to a goal on a rectangular board, and suppose P = x s y for a
// forbidden s with equivalent t. Then t can be played where s was (its
// cells lie in the bounding box of s, inside the board) and reaches the
// same state, so x t y is a path from the start to the goal that is shorter
// than P or as long and smaller: a contradiction. Hence no substring of P
// is forbidden and a search that skips every child completing a forbidden
// substring keeps P. For IDA* with an admissible heuristic every node of P
// has f <= the optimal cost, so the last iteration still returns P, and the
// bound of every earlier iteration still rises to at most the optimal cost
// (the first node of P beyond the bound is generated).
//
// # Generation
//
// Generate enumerates strings breadth-first, level by level and within a
// level in order, keeping only survivors: strings none of whose substrings
// is forbidden. A new string is a survivor's extension by one move; if a
// proper suffix is forbidden it is dropped, otherwise it is forbidden
// exactly when a survivor enumerated before it has the same arrangement and
// a bounding box inside its own. Looking only among survivors loses
// nothing: the smallest string equivalent to s within the box of s is
// itself a survivor (replacing one of its forbidden substrings by that
// substring's equivalent, which stays within the substring's box, would
// give a smaller one, and an immediate reversal could be cut out). The
// strings found are therefore minimal: no proper substring of one is
// forbidden, since its prefixes are survivors and its suffixes were
// checked. Compile turns them into an Aho–Corasick automaton whose states
// are the proper prefixes of forbidden strings, then merges the states that
// no move string tells apart (a smaller table of the same automaton).
package fsm
