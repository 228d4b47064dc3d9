// Type declarations of rank.mjs (tilepdb/rank): ranking functions of
// format/SPEC.md section 4. Cells are numbered 0..N-1 in reading order; a
// board lists the tile in each cell (0 = blank); a position vector lists the
// cell of each tile (pos[0] = the blank's cell). Boards are 2x2 to 8x8
// (N <= 64 cells); every rank is below MAX_ENTRIES = 2^36.

export type Board = ArrayLike<number>;

export const MIN_SIDE: 2;
export const MAX_SIDE: 8;
export const MAX_CELLS: 64;
/** Largest table a pattern may index: 2^36 entries. */
export const MAX_ENTRIES: number;
export const RANKING_CELLSET_ORDER: 'cellset-order';
export const RANKING_LEHMER_HALF: 'lehmer-half';
export const RANKING_VERSION: 1;
/** BINOM[n][r] = C(n, r) for 0 <= r <= n <= 64, exact up to 2^53 (every binomial a rank uses). */
export const BINOM: readonly (readonly number[])[];

export function popcount32(x: number): number;
export function ctz32(x: number): number;
/** Lehmer rank of the k-permutation seq of 0..n-1 (n <= 64), in [0, n!/(n-k)!); exact up to 2^53. */
export function lehmerRank(seq: ArrayLike<number>, n: number, k?: number): number;
/** Colexicographic rank (0..C(N,k)-1) of the set of the k distinct cells cells[0..k), in any order. */
export function cellSetRank(cells: ArrayLike<number>, k: number): number;
/** Lehmer rank (0..k!-1) of the order of cells[0..k) within their cell set (SPEC.md 4.1). */
export function orderRank(cells: ArrayLike<number>, k: number): number;
/** Whether the position vector pos reaches the position vector goalPos on a board of width w (SPEC.md 4.2); perm (length >= n) is scratch space, overwritten. */
export function solvableFrom(pos: ArrayLike<number>, goalPos: ArrayLike<number>, w: number, n: number, perm?: Uint8Array): boolean;

/** A malformed board or pattern (the message is puzzle.Board.Validate's). */
export class BoardError extends Error {}

/** 1 2 ... N-1 0. */
export function blankLastGoal(n: number): Uint8Array;
/** 0 1 ... N-1. */
export function blankFirstGoal(n: number): Uint8Array;
/** "blank-last", "blank-first", or the goal written out. */
export function goalName(goal: Board): string;
/** Position vector of a valid board: out[t] = cell of tile t. */
export function positions(board: Board, out?: Uint8Array): Uint8Array;
/** null, or what is wrong with board as a board of n cells. */
export function validateBoard(board: Board, n: number): string | null;

/** Board geometry, goal and pattern tiles; throws BoardError when invalid. */
export class Pattern {
  constructor(w: number, h: number, goal: Board, tiles: ArrayLike<number>);
  readonly w: number;
  readonly h: number;
  /** w * h cells. */
  readonly n: number;
  readonly goal: Uint8Array;
  /** The pattern tiles, ascending (1..N-1). */
  readonly tiles: Uint8Array;
  /** All tiles 1..N-1: an exact table (ranking lehmer-half). */
  readonly exact: boolean;
  readonly k: number;
  /** Number of table entries. */
  readonly size: number;
  /** C(N, k): number of occupied-cell sets (additive). */
  readonly comb: number;
  readonly goalPos: Uint8Array;
  readonly ranking: 'cellset-order' | 'lehmer-half';
  readonly kind: 'exact' | 'additive';
  readonly goalName: string;
  /** Rank of the state with position vector pos (length N); nothing checked. */
  rank(pos: ArrayLike<number>): number;
  /** cellset-order rank of cells[0..k) (the cell of each pattern tile, tiles ascending). */
  rankCells(cells: ArrayLike<number>, k?: number): number;
  /** Whether the state pos can reach the goal. */
  solvablePositions(pos: ArrayLike<number>): boolean;
  toString(): string;
}
