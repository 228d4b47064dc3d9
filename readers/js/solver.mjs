// Optimal solver over tilepdb tables (a port of the Go package solver), with
// no dependencies, so that it runs in a Web Worker as well as in Node.
//
//  - One exact table: walk down it, at every step to the first neighbour
//    (blank moves in the order u, d, l, r) whose value is one smaller.
//  - Additive pattern databases (Korf & Felner 2002, "Disjoint pattern
//    database heuristics", Artificial Intelligence 134): IDA* (Korf 1985,
//    "Depth-first iterative-deepening: an optimal admissible tree search",
//    Artificial Intelligence 27) with the sum of the table values as
//    heuristic, and optionally the maximum with the sum for the state
//    reflected about the main diagonal (Culberson & Schaeffer 1998), which
//    stays admissible. Ranks are updated incrementally per move.
//
// Moves name the direction in which the BLANK moves: 'u', 'd', 'l', 'r'.
// The node count is the number of states generated (children of expanded
// states over all iterations, the undoing move never applied), as in Go.

import { BINOM, popcount32, ctz32 } from './rank.mjs';

const UP = 0, DOWN = 1, LEFT = 2, RIGHT = 3, NO_MOVE = 4;
const LETTER = 'udlr';
const UNDO = [DOWN, UP, RIGHT, LEFT, 0xff];

/** Thrown by solve() when opts.shouldStop() returned true. */
export class Stopped extends Error {}

/**
 * tables: objects with { pattern, values } (a tilepdb.mjs Table, or the same
 * fields rebuilt in a worker: pattern needs w, h, n, goal, tiles, exact).
 * opts.reflect: also look up the reflected state (square boards whose goal
 * has the blank on the main diagonal).
 */
export class Solver {
  constructor(tables, opts = {}) {
    if (tables.length === 0) throw new Error('solver: no tables');
    const p0 = tables[0].pattern;
    this.w = p0.w;
    this.h = p0.h;
    this.n = p0.n;
    const n = this.n;
    this.goal = Uint8Array.from(p0.goal);
    this.goalPos = new Uint8Array(n);
    for (let c = 0; c < n; c++) this.goalPos[this.goal[c]] = c;
    this.exact = p0.exact ? tables[0] : null;
    this.reflect = !!opts.reflect && !this.exact;
    // blank moves from each cell in the order u, d, l, r
    this.nbrDir = [];
    this.nbrTo = [];
    for (let c = 0; c < n; c++) {
      const dirs = [];
      const tos = [];
      const r = Math.floor(c / this.w);
      const col = c % this.w;
      if (r > 0) dirs.push(UP), tos.push(c - this.w);
      if (r < this.h - 1) dirs.push(DOWN), tos.push(c + this.w);
      if (col > 0) dirs.push(LEFT), tos.push(c - 1);
      if (col < this.w - 1) dirs.push(RIGHT), tos.push(c + 1);
      this.nbrDir.push(Uint8Array.from(dirs));
      this.nbrTo.push(Uint8Array.from(tos));
    }
    if (this.reflect) {
      if (this.w !== this.h) throw new Error(`solver: reflection needs a square board, not ${this.w}x${this.h}`);
      const b = this.goalPos[0];
      if (Math.floor(b / this.w) !== b % this.w) throw new Error("solver: reflection needs the goal's blank on the main diagonal");
      this.reflCell = new Uint8Array(n);
      this.reflTile = new Uint8Array(n);
      for (let c = 0; c < n; c++) this.reflCell[c] = (c % this.w) * this.w + Math.floor(c / this.w);
      for (let t = 0; t < n; t++) this.reflTile[t] = this.goal[this.reflCell[this.goalPos[t]]];
    }
    this.tileTab = new Int8Array(n).fill(-1);
    this.tileIdx = new Uint8Array(n);
    this.tabs = [];
    if (!this.exact) {
      tables.forEach((t, i) => {
        const k = t.pattern.tiles.length;
        this.tabs.push({ values: t.values, k, comb: BINOM[n][k] });
        Array.from(t.pattern.tiles).forEach((tile, j) => {
          if (this.tileTab[tile] >= 0) throw new Error(`solver: tile ${tile} is in two tables`);
          this.tileTab[tile] = i;
          this.tileIdx[tile] = j;
        });
      });
    }
  }

  /** Whether board (in the tables' convention) can reach the goal. */
  solvable(board) {
    const n = this.n;
    const perm = new Uint8Array(n);
    const pos = new Uint8Array(n);
    for (let c = 0; c < n; c++) pos[board[c]] = c;
    for (let t = 0; t < n; t++) perm[this.goalPos[t]] = pos[t];
    let seen = 0;
    let cycles = 0;
    for (let i = 0; i < n; i++) {
      if (seen & (1 << i)) continue;
      cycles++;
      for (let j = i; !(seen & (1 << j)); j = perm[j]) seen |= 1 << j;
    }
    const a = pos[0];
    const b = this.goalPos[0];
    const d = Math.abs(Math.floor(a / this.w) - Math.floor(b / this.w)) + Math.abs((a % this.w) - (b % this.w));
    return (n - cycles) % 2 === d % 2;
  }

  /**
   * Solves board (array-like, a valid board of N cells; in the blank-first
   * convention when opts.fromBlankFirst, the tables being blank-last).
   * Returns { solvable, length, moves, nodes }. opts.shouldStop() is polled
   * every 2^16 nodes; opts.onIteration(bound, nodes) after each IDA* bound.
   */
  solve(board, opts = {}) {
    let work = Uint8Array.from(board);
    if (opts.fromBlankFirst) work = blankFirstToLast(work);
    if (!this.solvable(work)) return { solvable: false, length: -1, moves: '', nodes: 0 };
    const { path, nodes } = this.exact ? this._walk(work) : this._ida(work, opts);
    let moves = '';
    for (const d of path) moves += LETTER[opts.fromBlankFirst ? UNDO[d] : d];
    return { solvable: true, length: path.length, moves, nodes };
  }

  /** Heuristic of a board (tables' convention): the sum, or with reflection the maximum of both sums. */
  heuristic(board) {
    const s = this._start(Uint8Array.from(board));
    return Math.max(s.sum, s.sumR);
  }

  _walk(b) {
    const t = this.exact;
    const pos = new Uint8Array(this.n);
    for (let c = 0; c < this.n; c++) pos[b[c]] = c;
    let d = t.values[t.pattern.rank(pos)];
    const path = [];
    const board = Uint8Array.from(b);
    let blank = pos[0];
    let skip = UNDO[NO_MOVE];
    let nodes = 0;
    while (d > 0) {
      const dirs = this.nbrDir[blank];
      const tos = this.nbrTo[blank];
      let moved = false;
      for (let i = 0; i < dirs.length; i++) {
        if (dirs[i] === skip) continue;
        const to = tos[i];
        const tile = board[to];
        pos[0] = to;
        pos[tile] = blank;
        nodes++;
        if (t.values[t.pattern.rank(pos)] === d - 1) {
          board[blank] = tile;
          board[to] = 0;
          blank = to;
          path.push(dirs[i]);
          skip = UNDO[dirs[i]];
          d--;
          moved = true;
          break;
        }
        pos[0] = blank;
        pos[tile] = to;
      }
      if (!moved) throw new Error('solver: exact table is inconsistent');
    }
    return { path, nodes };
  }

  // rank of table ti for cells (cell of each of its tiles): into out[0..2] = mask, m, ord
  _rank(ti, cells, out, o) {
    const k = this.tabs[ti].k;
    let mask = 0;
    for (let i = 0; i < k; i++) mask |= 1 << cells[i];
    let m = 0;
    let j = 1;
    for (let mm = mask; mm !== 0; mm &= mm - 1) m += BINOM[ctz32(mm)][j++];
    let used = 0;
    let r = 0;
    for (let i = 0; i < k; i++) {
      const c = cells[i];
      const oo = popcount32(mask & ((1 << c) - 1));
      const d = oo - popcount32(used & ((1 << oo) - 1));
      used |= 1 << oo;
      r = r * (k - i) + d;
    }
    out.mask[o] = mask;
    out.m[o] = m;
    out.ord[o] = r;
  }

  _start(b) {
    const n = this.n;
    const T = this.tabs.length;
    const x = {
      board: Uint8Array.from(b),
      blank: 0,
      cells: this.tabs.map(() => new Uint8Array(25)),
      cellsR: this.tabs.map(() => new Uint8Array(25)),
      st: { mask: new Int32Array(T), m: new Float64Array(T), ord: new Float64Array(T) },
      stR: { mask: new Int32Array(T), m: new Float64Array(T), ord: new Float64Array(T) },
      h: new Uint8Array(T),
      hR: new Uint8Array(T),
      sum: 0,
      sumR: 0,
    };
    for (let c = 0; c < n; c++) {
      const t = b[c];
      if (t === 0) x.blank = c;
      const ti = this.tileTab[t];
      if (ti >= 0) x.cells[ti][this.tileIdx[t]] = c;
      if (this.reflect) {
        const rt = this.reflTile[t];
        const tj = this.tileTab[rt];
        if (tj >= 0) x.cellsR[tj][this.tileIdx[rt]] = this.reflCell[c];
      }
    }
    for (let i = 0; i < T; i++) {
      const tab = this.tabs[i];
      this._rank(i, x.cells[i], x.st, i);
      x.h[i] = tab.values[x.st.ord[i] * tab.comb + x.st.m[i]];
      x.sum += x.h[i];
      if (this.reflect) {
        this._rank(i, x.cellsR[i], x.stR, i);
        x.hR[i] = tab.values[x.stR.ord[i] * tab.comb + x.stR.m[i]];
        x.sumR += x.hR[i];
      }
    }
    return x;
  }

  _ida(b, opts) {
    const x = this._start(b);
    const n = this.n;
    const goal = this.goal;
    const isGoal = () => {
      for (let c = 0; c < n; c++) if (x.board[c] !== goal[c]) return false;
      return true;
    };
    if (isGoal()) return { path: [], nodes: 0 };
    const self = this;
    const tabs = this.tabs;
    const tileTab = this.tileTab;
    const tileIdx = this.tileIdx;
    const reflect = this.reflect;
    const reflTile = this.reflTile;
    const reflCell = this.reflCell;
    const shouldStop = opts.shouldStop;
    const scratch = { mask: new Int32Array(1), m: new Float64Array(1), ord: new Float64Array(1) };
    let nodes = 0;
    let bound = Math.max(x.sum, x.sumR);
    let next = Infinity;
    let poll = 1 << 16;
    const path = [];

    // moved: new rank state of table ti after its tile moved from cell a to b
    // (cells already updated), into scratch; returns the new value.
    const moved = (ti, st, cells, a, b2) => {
      const tab = tabs[ti];
      const mask = st.mask[ti];
      const lo = a < b2 ? a : b2;
      const hi = a < b2 ? b2 : a;
      if (mask & ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)) {
        self._rank(ti, cells, scratch, 0);
      } else {
        const j = popcount32(mask & ((1 << a) - 1)) + 1;
        scratch.mask[0] = (mask & ~(1 << a)) | (1 << b2);
        scratch.m[0] = st.m[ti] - BINOM[a][j] + BINOM[b2][j];
        scratch.ord[0] = st.ord[ti];
      }
      return tab.values[scratch.ord[0] * tab.comb + scratch.m[0]];
    };

    const dfs = (g, prev) => {
      const blank = x.blank;
      const dirs = self.nbrDir[blank];
      const tos = self.nbrTo[blank];
      const skip = UNDO[prev];
      for (let i = 0; i < dirs.length; i++) {
        const dir = dirs[i];
        if (dir === skip) continue;
        const to = tos[i];
        const tile = x.board[to];
        nodes++;
        const ti = tileTab[tile];
        let sum = x.sum;
        let hv = 0, nMask = 0, nM = 0, nOrd = 0;
        if (ti >= 0) {
          x.cells[ti][tileIdx[tile]] = blank;
          hv = moved(ti, x.st, x.cells[ti], to, blank);
          nMask = scratch.mask[0]; nM = scratch.m[0]; nOrd = scratch.ord[0];
          sum += hv - x.h[ti];
        }
        let h = sum;
        let rt = 0, tj = -1, sumR = x.sumR, hvR = 0, rMask = 0, rM = 0, rOrd = 0;
        if (reflect) {
          rt = reflTile[tile];
          tj = tileTab[rt];
          if (tj >= 0) {
            x.cellsR[tj][tileIdx[rt]] = reflCell[blank];
            hvR = moved(tj, x.stR, x.cellsR[tj], reflCell[to], reflCell[blank]);
            rMask = scratch.mask[0]; rM = scratch.m[0]; rOrd = scratch.ord[0];
            sumR += hvR - x.hR[tj];
          }
          if (sumR > h) h = sumR;
        }
        const f = g + 1 + h;
        if (f > bound) {
          if (f < next) next = f;
          if (ti >= 0) x.cells[ti][tileIdx[tile]] = to;
          if (tj >= 0) x.cellsR[tj][tileIdx[rt]] = reflCell[to];
          continue;
        }
        // make the move
        const oldSum = x.sum, oldSumR = x.sumR;
        let oH = 0, oMask = 0, oM = 0, oOrd = 0, oHR = 0, oRMask = 0, oRM = 0, oROrd = 0;
        if (ti >= 0) {
          oH = x.h[ti]; oMask = x.st.mask[ti]; oM = x.st.m[ti]; oOrd = x.st.ord[ti];
          x.h[ti] = hv; x.st.mask[ti] = nMask; x.st.m[ti] = nM; x.st.ord[ti] = nOrd;
        }
        if (tj >= 0) {
          oHR = x.hR[tj]; oRMask = x.stR.mask[tj]; oRM = x.stR.m[tj]; oROrd = x.stR.ord[tj];
          x.hR[tj] = hvR; x.stR.mask[tj] = rMask; x.stR.m[tj] = rM; x.stR.ord[tj] = rOrd;
        }
        x.sum = sum;
        x.sumR = sumR;
        x.board[blank] = tile;
        x.board[to] = 0;
        x.blank = to;
        path.push(dir);
        if (h === 0 && isGoal()) return true;
        if (--poll <= 0) {
          poll = 1 << 16;
          if (shouldStop && shouldStop()) throw new Stopped('stopped');
        }
        if (dfs(g + 1, dir)) return true;
        // undo it
        path.pop();
        x.blank = blank;
        x.board[blank] = 0;
        x.board[to] = tile;
        x.sum = oldSum;
        x.sumR = oldSumR;
        if (ti >= 0) {
          x.h[ti] = oH; x.st.mask[ti] = oMask; x.st.m[ti] = oM; x.st.ord[ti] = oOrd;
          x.cells[ti][tileIdx[tile]] = to;
        }
        if (tj >= 0) {
          x.hR[tj] = oHR; x.stR.mask[tj] = oRMask; x.stR.m[tj] = oRM; x.stR.ord[tj] = oROrd;
          x.cellsR[tj][tileIdx[rt]] = reflCell[to];
        }
      }
      return false;
    };

    for (;;) {
      next = Infinity;
      path.length = 0;
      if (dfs(0, NO_MOVE)) return { path: path.slice(), nodes };
      if (opts.onIteration) opts.onIteration(bound, nodes);
      if (next === Infinity) throw new Error('solver: search space exhausted without reaching the goal');
      bound = next;
    }
  }
}

/**
 * Converts a board of the blank-first convention to blank-last: rotated by
 * 180 degrees (cell c -> N-1-c) and relabelled (t -> N-t, blank stays 0).
 * Distances are preserved; the map is its own inverse.
 */
export function blankFirstToLast(b) {
  const n = b.length;
  const out = new Uint8Array(n);
  for (let c = 0; c < n; c++) out[n - 1 - c] = b[c] === 0 ? 0 : n - b[c];
  return out;
}

/** Plays blank moves on board (w columns); returns the new board or throws on an illegal move. */
export function applyMoves(board, w, moves) {
  const b = Uint8Array.from(board);
  const n = b.length;
  let blank = b.indexOf(0);
  for (const ch of moves) {
    const d = LETTER.indexOf(ch);
    const r = Math.floor(blank / w);
    const c = blank % w;
    let to = -1;
    if (d === UP && r > 0) to = blank - w;
    else if (d === DOWN && blank + w < n) to = blank + w;
    else if (d === LEFT && c > 0) to = blank - 1;
    else if (d === RIGHT && c < w - 1) to = blank + 1;
    if (to < 0) throw new Error(`move ${ch}: the blank would leave the board`);
    b[blank] = b[to];
    b[to] = 0;
    blank = to;
  }
  return b;
}
