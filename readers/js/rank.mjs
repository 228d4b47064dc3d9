// Ranking functions of tilepdb table files (format/SPEC.md section 4), with
// no dependencies, for Node and browsers (also inside a Web Worker).
//
// Conventions (SPEC.md): cells are numbered 0..N-1 in reading order
// (cell = row*W + col); a board lists the tile in each cell (0 = blank); a
// position vector pos lists the cell of each tile (pos[0] = the blank's cell).
// Boards are 2x2 to 8x8 (N <= 64 cells), so a set of cells does not fit in
// one 32-bit integer (the width of JavaScript's bitwise operators): these
// functions work on cell lists, not bit masks. Every rank fits in a
// JavaScript number (exactly, below 2^53): a table has at most
// MAX_ENTRIES = 2^36 entries, and Pattern refuses a larger one.

export const MIN_SIDE = 2;
export const MAX_SIDE = 8;
export const MAX_CELLS = 64;
/** Largest table a pattern may index (SPEC.md section 2, `entries`). */
export const MAX_ENTRIES = 2 ** 36;

export const RANKING_CELLSET_ORDER = 'cellset-order';
export const RANKING_LEHMER_HALF = 'lehmer-half';
export const RANKING_VERSION = 1;

/**
 * BINOM[n][r] = C(n, r) for 0 <= r <= n <= 64 (0 for r > n), as the
 * nearest JavaScript number: exact up to 2^53, which covers every binomial a
 * rank uses (C(N, j) for j <= k with C(N, k) <= N!/(N-k)! <= MAX_ENTRIES);
 * C(64, 32) ~ 1.8e18 and its neighbours are rounded.
 */
export const BINOM = (() => {
  const b = [];
  const big = [];
  for (let i = 0; i <= MAX_CELLS; i++) {
    big.push(new Array(MAX_CELLS + 2).fill(0n));
    big[i][0] = 1n;
    for (let j = 1; j <= i; j++) big[i][j] = big[i - 1][j - 1] + big[i - 1][j];
    b.push(big[i].map(Number));
  }
  return b;
})();

/** popcount of a 32-bit integer. */
export function popcount32(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index of the lowest set bit of a non-zero 32-bit integer. */
export function ctz32(x) {
  return 31 - Math.clz32(x & -x);
}

/**
 * Lehmer (lexicographic) rank of the k-permutation seq of 0..n-1
 * (k = seq.length <= n <= 64): sum_i d_i * (n-1-i)!/(n-k)!, with d_i the
 * number of values below seq[i] not used by seq[0..i-1]. Range
 * [0, n!/(n-k)!); exact while that is at most 2^53 (the caller keeps it so:
 * an exact table has at most MAX_ENTRIES entries, so n <= 14).
 */
export function lehmerRank(seq, n, k = seq.length) {
  let r = 0;
  if (n <= 32) {
    let used = 0;
    for (let i = 0; i < k; i++) {
      const c = seq[i];
      const d = c - popcount32(used & ((1 << c) - 1));
      used |= 1 << c;
      r = r * (n - i) + d;
    }
    return r;
  }
  for (let i = 0; i < k; i++) {
    const c = seq[i];
    let d = c;
    for (let j = 0; j < i; j++) if (seq[j] < c) d--;
    r = r * (n - i) + d;
  }
  return r;
}

/**
 * Colexicographic rank of the set of the k distinct cells cells[0..k) (in
 * any order; cells 0..63): sum_j C(s_j, j+1) over the cells sorted,
 * s_0 < s_1 < ... (the combinatorial number system). Range [0, C(N, k)).
 */
export function cellSetRank(cells, k) {
  let m = 0;
  for (let i = 0; i < k; i++) {
    const c = cells[i];
    let j = 1; // 1 + the number of cells below c
    for (let q = 0; q < k; q++) if (cells[q] < c) j++;
    m += BINOM[c][j];
  }
  return m;
}

/**
 * Lehmer rank (0..k!-1) of the order of the k distinct cells cells[0..k)
 * within their cell set: the order part of the cellset-order rank (SPEC.md
 * section 4.1). Digit i is the number of cells after position i that are
 * below cells[i].
 */
export function orderRank(cells, k) {
  let ord = 0;
  for (let i = 0; i < k; i++) {
    const c = cells[i];
    let d = 0;
    for (let q = i + 1; q < k; q++) if (cells[q] < c) d++;
    ord = ord * (k - i) + d;
  }
  return ord;
}

/**
 * Whether the state whose position vector is pos (tile t in cell pos[t],
 * length n <= 64) reaches the state whose position vector is goalPos on a
 * board of width w (SPEC.md 4.2): the parity of the permutation between
 * them equals the parity of the blank's Manhattan distance. perm (a
 * Uint8Array of length >= n) is scratch space, overwritten.
 */
export function solvableFrom(pos, goalPos, w, n, perm = new Uint8Array(n)) {
  const SEEN = 0xff;
  for (let t = 0; t < n; t++) perm[goalPos[t]] = pos[t];
  let cycles = 0;
  for (let i = 0; i < n; i++) {
    if (perm[i] === SEEN) continue;
    cycles++;
    for (let j = i; perm[j] !== SEEN;) {
      const next = perm[j];
      perm[j] = SEEN;
      j = next;
    }
  }
  const a = pos[0];
  const b = goalPos[0];
  const dist = Math.abs(Math.floor(a / w) - Math.floor(b / w)) + Math.abs((a % w) - (b % w));
  return (n - cycles) % 2 === dist % 2;
}

/** Error about a board or pattern; `message` is the text pdbgen prints. */
export class BoardError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BoardError';
  }
}

/** The blank-last goal 1 2 ... N-1 0. */
export function blankLastGoal(n) {
  const g = new Uint8Array(n);
  for (let i = 0; i < n - 1; i++) g[i] = i + 1;
  return g;
}

/** The blank-first goal 0 1 ... N-1. */
export function blankFirstGoal(n) {
  const g = new Uint8Array(n);
  for (let i = 0; i < n; i++) g[i] = i;
  return g;
}

function equalSeq(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** "blank-last", "blank-first", or the goal written out (numbers and spaces), as pdbgen names it. */
export function goalName(goal) {
  const n = goal.length;
  if (equalSeq(goal, blankLastGoal(n))) return 'blank-last';
  if (equalSeq(goal, blankFirstGoal(n))) return 'blank-first';
  return Array.from(goal).join(' ');
}

/** Position vector of a valid board: pos[t] = cell of tile t. */
export function positions(board, out = new Uint8Array(board.length)) {
  for (let c = 0; c < board.length; c++) out[board[c]] = c;
  return out;
}

/**
 * A pattern: board geometry (w x h), goal board and pattern tiles. With all
 * tiles 1..N-1 it is exact (ranking lehmer-half, N!/2 entries), else an
 * additive pattern database (ranking cellset-order, N!/(N-k)! entries).
 * The constructor validates like puzzle.NewPattern and throws BoardError.
 */
export class Pattern {
  constructor(w, h, goal, tiles) {
    if (!Number.isInteger(w) || !Number.isInteger(h) || w < MIN_SIDE || w > MAX_SIDE || h < MIN_SIDE || h > MAX_SIDE) {
      throw new BoardError(`board ${w}x${h}: each side must be between ${MIN_SIDE} and ${MAX_SIDE}`);
    }
    const n = w * h;
    const g = Uint8Array.from(goal);
    const vErr = validateBoard(goal, n);
    if (vErr) throw new BoardError(`goal: ${vErr}`);
    if (tiles.length === 0) throw new BoardError('bad pattern: no tiles');
    const ts = Array.from(tiles).sort((a, b) => a - b);
    for (let i = 0; i < ts.length; i++) {
      if (ts[i] === 0) throw new BoardError('bad pattern: 0 is the blank, not a pattern tile');
      if (ts[i] >= n) throw new BoardError(`bad pattern: tile ${ts[i]} does not exist on a ${w}x${h} board (tiles 1..${n - 1})`);
      if (i > 0 && ts[i - 1] === ts[i]) throw new BoardError(`bad pattern: tile ${ts[i]} listed twice`);
    }
    if (ts.length === n - 2) {
      throw new BoardError(`bad pattern: ${ts.length} of ${n - 1} tiles leaves one non-pattern tile, so some placements are unreachable`);
    }
    this.w = w;
    this.h = h;
    this.n = n;
    this.goal = g;
    this.tiles = Uint8Array.from(ts);
    this.exact = ts.length === n - 1;
    this.k = this.exact ? n - 2 : ts.length;
    let size = 1;
    for (let i = 0; i < this.k; i++) {
      size *= n - i;
      if (size > MAX_ENTRIES) throw new BoardError(`bad pattern: ${ts.length} tiles on a ${w}x${h} board need more than 2^36 entries`);
    }
    /** Number of table entries. */
    this.size = size;
    /** C(N,k): number of occupied-cell sets (additive). */
    this.comb = BINOM[n][this.k];
    this.goalPos = positions(g);
    this.ranking = this.exact ? RANKING_LEHMER_HALF : RANKING_CELLSET_ORDER;
    this.kind = this.exact ? 'exact' : 'additive';
    this.goalName = goalName(g);
    this._cells = new Uint8Array(MAX_CELLS);
  }

  /** "4x4 blank-last tiles 1,2,3" or "3x3 blank-last exact (all tiles)". */
  toString() {
    const what = this.exact ? 'exact (all tiles)' : `tiles ${Array.from(this.tiles).join(',')}`;
    return `${this.w}x${this.h} ${this.goalName} ${what}`;
  }

  /**
   * Table index of the state with full position vector pos (length N; for
   * an additive pattern only the pattern tiles are read). pos must be a
   * valid state, solvable for an exact table: not checked, no allocation.
   */
  rank(pos) {
    if (this.exact) return lehmerRank(pos, this.n, this.n - 2);
    const cells = this._cells;
    const tiles = this.tiles;
    const k = tiles.length;
    for (let i = 0; i < k; i++) cells[i] = pos[tiles[i]];
    return this.rankCells(cells, k);
  }

  /** cellset-order rank of cells[0..k) (cell of each pattern tile, tiles ascending). */
  rankCells(cells, k = this.k) {
    // one pass over the pairs: the order digit counts the later cells below
    // cells[i], the colexicographic term all of them
    let ord = 0;
    let m = 0;
    for (let i = 0; i < k; i++) {
      const c = cells[i];
      let before = 0;
      let after = 0;
      for (let q = 0; q < i; q++) if (cells[q] < c) before++;
      for (let q = i + 1; q < k; q++) if (cells[q] < c) after++;
      ord = ord * (k - i) + after;
      m += BINOM[c][before + after + 1];
    }
    return ord * this.comb + m;
  }

  /** Whether the state pos (length N) can reach the goal (SPEC.md 4.2). */
  solvablePositions(pos) {
    return solvableFrom(pos, this.goalPos, this.w, this.n, this._cells);
  }
}

/**
 * Checks that board (array-like) has n cells holding each of 0..n-1 once.
 * Returns null, or the message of puzzle.Board.Validate.
 */
export function validateBoard(board, n) {
  if (board.length !== n) return `bad board: ${board.length} cells, want ${n}`;
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = board[i];
    if (!Number.isInteger(t) || t < 0 || t >= n) return `bad board: cell ${i}: tile ${t} out of range 0..${n - 1}`;
    if (seen[t]) return t === 0 ? 'bad board: more than one blank' : `bad board: tile ${t} appears twice`;
    seen[t] = 1;
  }
  for (let t = 0; t < n; t++) {
    if (!seen[t]) return t === 0 ? 'bad board: no blank' : `bad board: tile ${t} is missing`;
  }
  return null;
}
