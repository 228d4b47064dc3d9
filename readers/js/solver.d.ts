// Type declarations of solver.mjs (tilepdb/solver): an optimal solver
// (IDA* over additive pattern databases or catalogues of them, or a walk down an exact table)
// with no dependencies, for Node, browsers and Web Workers. Moves name the
// direction in which the BLANK moves: 'u', 'd', 'l', 'r'.

import type { Pattern } from './rank.js';
import type { TableSet } from './tilepdb.js';

/** One part of the heuristic: a table's pattern and values, looked up for its own tiles or, with map, through a board symmetry. */
export interface SolverPart {
  pattern: Pick<Pattern, 'w' | 'h' | 'n' | 'goal' | 'tiles' | 'exact'> & Partial<Pattern>;
  values: Uint8Array;
  /** null/absent: the table's own pattern; else the part's tile src[j] is looked up as table tile j, at cell cell[c]. */
  map?: { cell: ArrayLike<number>; src: ArrayLike<number> } | null;
  /** A zero-aware table's regions (values indexed by Regions.index, SPEC.md section 11). */
  regions?: import('./tilepdb.js').Regions | null;
  /** A zero-aware table without its regions: the solver labels them. */
  zeroAware?: boolean;
}

export interface SolverOptions {
  /** Also look up the state reflected about the main diagonal (square boards, goal blank on the diagonal). */
  reflect?: boolean;
  /**
   * With an array of parts: a catalogue's partitions (SPEC.md section 12), the indices into the
   * array of each partition's parts; h is the maximum over the partitions of their sums. A
   * TableSet brings its own (TableSet.partitions).
   */
  partitions?: number[][];
}

export interface SolveOptions {
  /** The board is in the blank-first convention (tables blank-last): converted, and the moves converted back. */
  fromBlankFirst?: boolean;
  /** Polled every 2^16 nodes; true stops the search with Stopped. */
  shouldStop?: () => boolean;
  /** Called after each IDA* iteration with its bound and the nodes so far. */
  onIteration?: (bound: number, nodes: number) => void;
}

export interface Solution {
  solvable: boolean;
  /** Moves of an optimal solution; -1 when not solvable. */
  length: number;
  /** The blank's moves, one letter each (u, d, l, r). */
  moves: string;
  /** States generated over all iterations. */
  nodes: number;
}

/** Thrown by solve() when shouldStop() returned true. */
export class Stopped extends Error {}

export class Solver {
  constructor(tables: TableSet | SolverPart[], opts?: SolverOptions);
  readonly w: number;
  readonly h: number;
  readonly n: number;
  readonly goal: Uint8Array;
  /** Whether board (the tables' convention) can reach the goal. */
  solvable(board: ArrayLike<number>): boolean;
  /** An optimal solution of a valid board. */
  solve(board: ArrayLike<number>, opts?: SolveOptions): Solution;
  /** The heuristic of a board (the tables' convention). */
  heuristic(board: ArrayLike<number>): number;
}

/** Blank-first board to blank-last (rotate 180°, relabel t -> N-t); its own inverse. */
export function blankFirstToLast(board: ArrayLike<number>): Uint8Array;
/** Plays the blank's moves on a board of w columns; throws on a move off the board. */
export function applyMoves(board: ArrayLike<number>, w: number, moves: string): Uint8Array;
