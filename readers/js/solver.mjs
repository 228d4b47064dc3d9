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
//    stays admissible; the reflected lookup is made only for a child the
//    direct one does not already cut. Ranks are updated incrementally per
//    move. Parts may be looked up through a board symmetry (set files).
//    Two six-move paths round a 2x2 square that reach the same state are
//    not both searched (duplicate-path pruning, as in Go). Zero-aware
//    tables (SPEC.md section 11) are read at the region of the blank too;
//    a part's region changes only when one of its tiles moves (the blank
//    then takes that tile's cell), so the incremental update is the same.
//  - Catalogues (SPEC.md section 12; Holte, Felner, Newton, Meshulam &
//    Furcy 2006, "Maximizing over multiple pattern databases speeds up
//    heuristic search"): the maximum over several additive partitions of
//    their sums, each sum (and with reflection each reflected sum) kept up
//    to date per move; a move touches one lookup per partition.
//
// Moves name the direction in which the BLANK moves: 'u', 'd', 'l', 'r'.
// The node count is the number of states generated (children of expanded
// states over all iterations, the undoing move never applied, nor the
// moves the duplicate-path pruning skips), as in Go: the same boards give
// the same counts.

import { BINOM, popcount32, cellSetRank, orderRank, solvableFrom } from './rank.mjs';
import { Regions } from './regions.mjs';

// A set of cells of a board of up to 64 cells is kept as two 32-bit words
// (JavaScript's bitwise operators are 32-bit): lo holds cells 0..31 (bit c),
// hi cells 32..63 (bit c-32). bitsBelow(lo, hi, c) is the number of cells
// of the set below cell c (0..64).
function bitsBelow(lo, hi, c) {
  return c < 32 ? popcount32(lo & ((1 << c) - 1)) : popcount32(lo) + popcount32(hi & ((1 << (c - 32)) - 1));
}

const UP = 0, DOWN = 1, LEFT = 2, RIGHT = 3, NO_MOVE = 4;
const LETTER = 'udlr';
const UNDO = [DOWN, UP, RIGHT, LEFT, 0xff];

// Duplicate-path pruning (Taylor & Korf 1993, "Pruning duplicate nodes in
// depth-first search"; the same rule as the Go solver, solver/search.go):
// six blank moves that go one and a half times round a 2x2 square reach
// the same state as the six that go the other way round from the same
// cell; of each pair the search skips the one larger in the order
// u < d < l < r, so the lexicographically smallest optimal solution is
// never cut. A history holds the last six moves, 3 bits each, the latest
// lowest (NO_MOVE before the root).
const HIST_BITS = 3;
const HIST_MASK = (1 << (6 * HIST_BITS)) - 1;
const hist6 = (m) => [...m].reduce((h, ch) => (h << HIST_BITS) | LETTER.indexOf(ch), 0);
const HIST_START = [0, 1, 2, 3, 4, 5].reduce((h) => (h << HIST_BITS) | NO_MOVE, 0);
const DUP_RDLURD = hist6('rdlurd'); // kept: druldr (the blank starts at the square's top-left)
const DUP_LDRULD = hist6('ldruld'); // kept: dlurdl (top-right)
const DUP_LURDLU = hist6('lurdlu'); // kept: uldrul (bottom-right)
const DUP_RULDRU = hist6('ruldru'); // kept: urdlur (bottom-left)

/** Thrown by solve() when opts.shouldStop() returned true. */
export class Stopped extends Error {}

/**
 * tables: the heuristic's parts, either a TableSet (tilepdb.mjs: tables and
 * set files, its parts looked up through shared tables by a board
 * symmetry; or a catalogue, SPEC.md section 12, whose heuristic is the
 * maximum over its partitions of their sums) or an array of { pattern, values, map, regions, zeroAware } (a
 * tilepdb.mjs Table, or the same fields rebuilt in a Web Worker: pattern
 * needs w, h, n, goal, tiles, exact; map is null or absent for the table's
 * own pattern, else { cell, src } of setfile.mjs mapPattern: the part's
 * tiles src[j] are looked up as table tile j, at cells cell[c]; a
 * zero-aware table gives its regions.mjs Regions, or zeroAware: true to
 * have them labelled here).
 * opts.reflect: also look up the reflected state (square boards whose goal
 * has the blank on the main diagonal).
 * opts.partitions (with an array of tables): a catalogue's partitions, the
 * indices into the array of each partition's parts (each part in one).
 */
export class Solver {
  constructor(tables, opts = {}) {
    const parts = Array.isArray(tables)
      ? tables.map((t) => ({ pattern: t.pattern, values: t.values, map: t.map ?? null, regions: t.regions ?? (t.zeroAware ? new Regions(t.pattern) : null) }))
      : tables.parts.map((p) => ({ pattern: p.table.pattern, values: p.table.values, map: p.map, regions: p.table.regions ?? null }));
    if (parts.length === 0) throw new Error('solver: no tables');
    // a catalogue's partitions (SPEC.md section 12): indices into parts; else one partition of all the parts
    const partitions = (Array.isArray(tables) ? opts.partitions : tables.partitions) ?? [parts.map((_, i) => i)];
    const p0 = parts[0].pattern;
    this.w = p0.w;
    this.h = p0.h;
    this.n = p0.n;
    const n = this.n;
    this.goal = Uint8Array.from(p0.goal);
    this.goalPos = new Uint8Array(n);
    for (let c = 0; c < n; c++) this.goalPos[this.goal[c]] = c;
    this.exact = p0.exact ? parts[0] : null;
    if (this.exact && (parts.length > 1 || partitions.length > 1)) throw new Error('solver: an exact table is used alone');
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
    // Per part: its table's values, k and C(N,k), and the cell each board
    // cell is looked up as (partCell: the symmetry's σ, or the identity;
    // partCellR: the same for the reflected board, σ(reflection(c))).
    // Per partition k: tileTabs[k][t] = the part of partition k holding
    // tile t (-1: none), tileIdxs[k][t] = the table tile it is looked up
    // as. tileTab and tileIdx are those of partition 0.
    this.tileTabs = partitions.map(() => new Int16Array(n).fill(-1));
    this.tileIdxs = partitions.map(() => new Uint8Array(n));
    this.partitions = partitions.map((idx) => Int32Array.from(idx));
    this.tileTab = this.tileTabs[0];
    this.tileIdx = this.tileIdxs[0];
    this.tabs = [];
    this.partCell = [];
    this.partCellR = [];
    if (!this.exact) {
      parts.forEach((part, i) => {
        const t = part.pattern;
        if (t.w !== this.w || t.h !== this.h || Array.from(t.goal).join(' ') !== Array.from(this.goal).join(' ')) {
          throw new Error(`solver: part ${i + 1} is for another board or goal than part 1`);
        }
        const k = t.tiles.length;
        // za: a zero-aware table's slots S, slotStart and region labels (SPEC.md section 11)
        const r = part.regions;
        const za = r ? { slots: r.slots, slotStart: r.slotStart, regionOf: r.regionOf } : null;
        this.tabs.push({ values: part.values, k, comb: BINOM[n][k], za });
        const cell = part.map ? Uint8Array.from(part.map.cell) : Uint8Array.from({ length: n }, (_, c) => c);
        this.partCell.push(cell);
        if (this.reflect) this.partCellR.push(Uint8Array.from(this.reflCell, (rc) => cell[rc]));
      });
      const seen = new Uint8Array(parts.length);
      partitions.forEach((idx, k) => {
        for (const i of idx) {
          if (seen[i]++) throw new Error(`solver: part ${i + 1} is in two partitions`);
          const part = parts[i];
          const src = part.map ? Array.from(part.map.src) : Array.from(part.pattern.tiles);
          src.forEach((tile, j) => {
            if (this.tileTabs[k][tile] >= 0) throw new Error(`solver: tile ${tile} is in two parts${partitions.length > 1 ? ` of partition ${k + 1}` : ''}`);
            this.tileTabs[k][tile] = i;
            this.tileIdxs[k][tile] = j;
          });
        }
      });
      if (seen.some((x) => x === 0)) throw new Error('solver: a part is in no partition');
    }
  }

  /** Whether board (in the tables' convention) can reach the goal. */
  solvable(board) {
    const pos = new Uint8Array(this.n);
    for (let c = 0; c < this.n; c++) pos[board[c]] = c;
    return solvableFrom(pos, this.goalPos, this.w, this.n);
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

  // rank of table ti for cells (cell of each of its tiles): into out's
  // arrays at o: the cell set (words lo, hi), its colexicographic rank m
  // and the order rank ord
  _rank(ti, cells, out, o) {
    const k = this.tabs[ti].k;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < k; i++) {
      if (cells[i] < 32) lo |= 1 << cells[i];
      else hi |= 1 << (cells[i] - 32);
    }
    out.lo[o] = lo;
    out.hi[o] = hi;
    out.m[o] = cellSetRank(cells, k);
    out.ord[o] = orderRank(cells, k);
  }

  _start(b) {
    const n = this.n;
    const T = this.tabs.length;
    const x = {
      board: Uint8Array.from(b),
      blank: 0,
      cells: this.tabs.map(() => new Uint8Array(n)),
      cellsR: this.tabs.map(() => new Uint8Array(n)),
      // m < C(N,k) and ord < k! fit in 31 bits for every table (<= 2^36 entries)
      st: { lo: new Int32Array(T), hi: new Int32Array(T), m: new Int32Array(T), ord: new Int32Array(T) },
      stR: { lo: new Int32Array(T), hi: new Int32Array(T), m: new Int32Array(T), ord: new Int32Array(T) },
      h: new Uint8Array(T),
      hR: new Uint8Array(T),
      // per partition the sum of its parts, and for the reflected board
      sums: new Int32Array(this.partitions.length),
      sumsR: new Int32Array(this.partitions.length),
      // the maximum over the partitions
      sum: 0,
      sumR: 0,
    };
    for (let c = 0; c < n; c++) {
      const t = b[c];
      if (t === 0) x.blank = c;
      for (let k = 0; k < this.tileTabs.length; k++) {
        const ti = this.tileTabs[k][t];
        if (ti >= 0) x.cells[ti][this.tileIdxs[k][t]] = this.partCell[ti][c];
        if (this.reflect) {
          const rt = this.reflTile[t];
          const tj = this.tileTabs[k][rt];
          if (tj >= 0) x.cellsR[tj][this.tileIdxs[k][rt]] = this.partCellR[tj][c];
        }
      }
    }
    // value of table tab at order o, cell set m, the blank on (mapped) cell bc
    const at = (tab, o, m, bc) => tab.values[tab.za ? o * tab.za.slots + tab.za.slotStart[m] + tab.za.regionOf[m * n + bc] : o * tab.comb + m];
    for (let i = 0; i < T; i++) {
      const tab = this.tabs[i];
      this._rank(i, x.cells[i], x.st, i);
      x.h[i] = at(tab, x.st.ord[i], x.st.m[i], this.partCell[i][x.blank]);
      if (this.reflect) {
        this._rank(i, x.cellsR[i], x.stR, i);
        x.hR[i] = at(tab, x.stR.ord[i], x.stR.m[i], this.partCellR[i][x.blank]);
      }
    }
    this.partitions.forEach((idx, k) => {
      for (const i of idx) {
        x.sums[k] += x.h[i];
        x.sumsR[k] += x.hR[i];
      }
      x.sum = Math.max(x.sum, x.sums[k]);
      x.sumR = Math.max(x.sumR, x.sumsR[k]);
    });
    return x;
  }

  // _lookups: the state of every lookup for IDA* from x (_start): lookup
  // q < P is part q on the board, q >= P part q - P on the reflected
  // board; per lookup its table (vals, comb, k, zero-aware slots), its
  // cell set (maskLo, maskHi), rank m (mm) and order rank (ord), value
  // (hv), the cells of its tiles (cells, stride S) and the cell each board
  // cell is looked up as (cmap); the neighbours of each cell flattened;
  // and evalMove(q, a, c, t): lookup q after one of its tiles moved from
  // cell a to cell c (cells[] already updated): the new cell set (lo, hi
  // words), m, ord into tmp[t..t+3]; returns the value (the blank is on
  // cell a now). tmp holds 4 words for each of the search's groups (a
  // partition, or a partition on the reflected board).
  _lookups(x) {
    const n = this.n;
    const P = this.tabs.length;
    const reflect = this.reflect;
    const Q = reflect ? 2 * P : P;
    const S = 64; // stride of the per-lookup rows below (>= N)
    const vals = [];
    const comb = new Int32Array(Q);
    const kk = new Int32Array(Q);
    const maskLo = new Int32Array(Q);
    const maskHi = new Int32Array(Q);
    const mm = new Int32Array(Q);
    const ord = new Int32Array(Q);
    const hv = new Int32Array(Q);
    const cells = new Uint8Array(Q * S);
    const cmap = new Uint8Array(Q * S); // cell a board cell is looked up as, per lookup
    // zero-aware lookups: zaOn[q] = 1, slots, slotStart and region labels
    const zaOn = new Uint8Array(Q);
    const zaSlots = new Float64Array(Q);
    const zaStart = [];
    const zaReg = [];
    for (let q = 0; q < Q; q++) {
      const p = q % P;
      const refl = q >= P;
      const tab = this.tabs[p];
      vals.push(tab.values);
      comb[q] = tab.comb;
      zaOn[q] = tab.za ? 1 : 0;
      zaSlots[q] = tab.za ? tab.za.slots : 0;
      zaStart.push(tab.za ? tab.za.slotStart : null);
      zaReg.push(tab.za ? tab.za.regionOf : null);
      kk[q] = tab.k;
      const st = refl ? x.stR : x.st;
      maskLo[q] = st.lo[p];
      maskHi[q] = st.hi[p];
      mm[q] = st.m[p];
      ord[q] = st.ord[p];
      hv[q] = refl ? x.hR[p] : x.h[p];
      const cs = refl ? x.cellsR[p] : x.cells[p];
      for (let j = 0; j < tab.k; j++) cells[q * S + j] = cs[j];
      const pc = refl ? this.partCellR[p] : this.partCell[p];
      for (let c = 0; c < n; c++) cmap[q * S + c] = pc[c];
    }
    // binom[c*S + j] = C(c, j) for c <= N and j <= the largest k of the
    // tables (below 2^31 then: C(c, j) <= C(N, k) < 2^31 for any table of
    // at most 2^36 entries); the entries never read are left 0
    let kMax = 0;
    for (let q = 0; q < Q; q++) kMax = Math.max(kMax, kk[q]);
    const binom = new Int32Array((n + 1) * S);
    for (let c = 0; c <= n; c++) {
      for (let j = 0; j <= kMax; j++) {
        if (BINOM[c][j] > 0x7fffffff) throw new Error(`solver: C(${c}, ${j}) does not fit in 31 bits`);
        binom[c * S + j] = BINOM[c][j];
      }
    }
    // neighbours of each cell, flattened: nbrDir/nbrTo[nbrStart[c]..nbrStart[c+1])
    const nbrStart = new Int32Array(n + 1);
    const nd = [];
    const nt = [];
    for (let c = 0; c < n; c++) {
      nbrStart[c] = nd.length;
      nd.push(...this.nbrDir[c]);
      nt.push(...this.nbrTo[c]);
    }
    nbrStart[n] = nd.length;
    const nbrDir = Uint8Array.from(nd);
    const nbrTo = Uint8Array.from(nt);
    const undo = Uint8Array.from(UNDO);

    const tmp = new Int32Array(8 * this.partitions.length);
    // value of lookup q at order o and cell set m, the blank on (mapped) cell bc
    const valueAt = (q, o, m, bc) => (zaOn[q] === 0 ? vals[q][o * comb[q] + m] : vals[q][o * zaSlots[q] + zaStart[q][m] + zaReg[q][m * n + bc]]);
    // evalMove: lookup q after one of its tiles moved from cell a to cell c
    // (cells[] already updated): the new cell set (lo, hi words), m, ord
    // into tmp[t..t+3]; returns the value (the blank is on cell a now).
    // evalMove32: the same on boards of at most 32 cells (one word; the hi
    // words stay 0), as fast as before boards grew past 5x5
    const evalMove32 = (q, a, c, t) => {
      const msk = maskLo[q];
      const nm = (msk & ~(1 << a)) | (1 << c);
      const lo = a < c ? a : c;
      const hi = a < c ? c : a;
      let m;
      let o;
      if ((msk & ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)) !== 0) {
        m = 0;
        let j = 1;
        for (let r = nm; r !== 0; r &= r - 1) m += binom[(31 - Math.clz32(r & -r)) * S + j++];
        const k = kk[q];
        const base = q * S;
        let used = 0;
        o = 0;
        for (let i = 0; i < k; i++) {
          const oo = popcount32(nm & ((1 << cells[base + i]) - 1));
          const d = oo - popcount32(used & ((1 << oo) - 1));
          used |= 1 << oo;
          o = o * (k - i) + d;
        }
      } else {
        const j = popcount32(msk & ((1 << a) - 1)) + 1;
        m = mm[q] - binom[a * S + j] + binom[c * S + j];
        o = ord[q];
      }
      tmp[t] = nm;
      tmp[t + 1] = 0;
      tmp[t + 2] = m;
      tmp[t + 3] = o;
      return valueAt(q, o, m, a);
    };
    const evalMove64 = (q, a, c, t) => {
      const oLo = maskLo[q];
      const oHi = maskHi[q];
      let nLo = oLo;
      let nHi = oHi;
      if (a < 32) nLo &= ~(1 << a);
      else nHi &= ~(1 << (a - 32));
      if (c < 32) nLo |= 1 << c;
      else nHi |= 1 << (c - 32);
      const lo = a < c ? a : c;
      const hi = a < c ? c : a;
      let m;
      let o;
      if (bitsBelow(oLo, oHi, hi) !== bitsBelow(oLo, oHi, lo + 1)) {
        // the tile jumped over another of this lookup's tiles
        m = 0;
        let j = 1;
        for (let r = nLo; r !== 0; r &= r - 1) m += binom[(31 - Math.clz32(r & -r)) * S + j++];
        for (let r = nHi; r !== 0; r &= r - 1) m += binom[(63 - Math.clz32(r & -r)) * S + j++];
        const k = kk[q];
        const base = q * S;
        let used = 0; // slots 0..k-1 (k < 32)
        o = 0;
        for (let i = 0; i < k; i++) {
          const oo = bitsBelow(nLo, nHi, cells[base + i]);
          const d = oo - popcount32(used & ((1 << oo) - 1));
          used |= 1 << oo;
          o = o * (k - i) + d;
        }
      } else {
        const j = bitsBelow(oLo, oHi, a) + 1;
        m = mm[q] - binom[a * S + j] + binom[c * S + j];
        o = ord[q];
      }
      tmp[t] = nLo;
      tmp[t + 1] = nHi;
      tmp[t + 2] = m;
      tmp[t + 3] = o;
      return valueAt(q, o, m, a);
    };
    const evalMove = n <= 32 ? evalMove32 : evalMove64;
    return { P, reflect, Q, S, maskLo, maskHi, mm, ord, hv, cells, cmap, nbrStart, nbrDir, nbrTo, undo, tmp, evalMove };
  }

  // IDA* over the parts (and, with reflection, the parts looked up for
  // the reflected state): lookup q < P is part q on the board, q >= P part
  // q - P on the reflected board. Each lookup keeps the cells of its
  // table's tiles, the cell set (two words, maskLo and maskHi), its
  // colexicographic rank m and the order rank ord, updated when one of its
  // tiles moves: a move that does not jump over another of its tiles keeps
  // ord and changes m by two binomials; otherwise m and ord are recomputed.
  // All state sits in typed arrays and integers (V8 keeps the search in
  // optimised code).
  //
  // One loop serves an additive set and a catalogue (SPEC.md section 12).
  // h is the maximum over the groups of the sums of their lookups, a group
  // being a partition on the board or (with reflection) on the reflected
  // board: group gi < K is partition gi, gi >= K partition gi - K
  // reflected; an additive set is a catalogue of one partition (K = 1). A
  // move changes at most one lookup per group (the one holding the moved
  // tile), updated incrementally. The groups are evaluated in order and a
  // child is cut as soon as one group's sum exceeds the bound. Of a
  // catalogue, the other groups are then evaluated while the child's f so
  // far is below the next bound, so that the next bound is exact (the
  // search is the same as with every group evaluated). Of an additive set,
  // a child cut by the direct sum is not looked up reflected: both sums
  // have the parity of the Manhattan distance, so the next bound is the
  // same (as in Korf's program).
  _ida(b, opts) {
    const x = this._start(b);
    const n = this.n;
    const goal = this.goal;
    const board = x.board;
    let blank = x.blank;
    let isGoalNow = true;
    for (let c = 0; c < n; c++) if (board[c] !== goal[c]) isGoalNow = false;
    if (isGoalNow) return { path: [], nodes: 0 };
    const { P, reflect, S, maskLo, maskHi, mm, ord, hv, cells, cmap, nbrStart, nbrDir, nbrTo, undo, tmp, evalMove } = this._lookups(x);
    const K = this.partitions.length;
    const G = reflect ? 2 * K : K;
    const catalogue = K > 1;
    // per tile t and group gi: the lookup holding t, gq[t*G + gi] (-1: none), and its index there, gj
    const gq = new Int32Array(n * G).fill(-1);
    const gj = new Int32Array(n * G);
    for (let t = 1; t < n; t++) {
      for (let k = 0; k < K; k++) {
        const ti = this.tileTabs[k][t];
        if (ti >= 0) {
          gq[t * G + k] = ti;
          gj[t * G + k] = this.tileIdxs[k][t];
        }
        if (reflect) {
          const rt = this.reflTile[t];
          const tj = this.tileTabs[k][rt];
          if (tj >= 0) {
            gq[t * G + K + k] = P + tj;
            gj[t * G + K + k] = this.tileIdxs[k][rt];
          }
        }
      }
    }
    const gsum = new Int32Array(G);
    for (let k = 0; k < K; k++) {
      gsum[k] = x.sums[k];
      if (reflect) gsum[K + k] = x.sumsR[k];
    }
    // per group gi: the child being tried, its new lookup value (nH[gi];
    // the lookup's new state is in tmp[4*gi..4*gi+3]), used at once when the
    // move is made; per depth d and group gi, at old[5*(d*G + gi)...]: the
    // lookup state the move replaced (value, cell set words, m and ord;
    // the group's sum is restored from the values)
    const nH = new Int32Array(G);
    let cap = 0;
    let old = new Int32Array(0);
    const grow = (depth) => {
      if (depth < cap) return;
      cap = Math.max(2 * cap, depth + 64);
      old = new Int32Array(5 * cap * G);
    };

    const NONE = 1 << 30;
    const shouldStop = opts.shouldStop;
    let nodes = 0;
    let bound = 0;
    for (let gi = 0; gi < G; gi++) if (gsum[gi] > bound) bound = gsum[gi];
    let next = NONE;
    let poll = 1 << 16;
    const path = [];

    const dfs = (g, hist) => {
      const bl = blank;
      const skip = undo[hist & 7];
      const end = nbrStart[bl + 1];
      const base = g * G;
      for (let i = nbrStart[bl]; i < end; i++) {
        const dir = nbrDir[i];
        if (dir === skip) continue;
        const h6 = ((hist << HIST_BITS) | dir) & HIST_MASK;
        if (h6 === DUP_RDLURD || h6 === DUP_LDRULD || h6 === DUP_LURDLU || h6 === DUP_RULDRU) continue;
        const to = nbrTo[i];
        const tile = board[to];
        nodes++;
        // evaluate the groups in order; ev: how many were evaluated
        let h = 0;
        let ev = 0;
        let cut = false;
        const tg = tile * G;
        while (ev < G) {
          const q = gq[tg + ev];
          let sum = gsum[ev];
          if (q >= 0) {
            const qs = q * S;
            cells[qs + gj[tg + ev]] = cmap[qs + bl];
            const v = evalMove(q, cmap[qs + to], cmap[qs + bl], 4 * ev);
            nH[ev] = v;
            sum += v - hv[q];
          }
          ev++;
          if (sum > h) h = sum;
          if (g + 1 + h > bound) {
            cut = true;
            if (!catalogue || g + 1 + h >= next) break;
          }
        }
        if (cut) {
          if (g + 1 + h < next) next = g + 1 + h;
          for (let gi = 0; gi < ev; gi++) {
            const q = gq[tg + gi];
            if (q >= 0) cells[q * S + gj[tg + gi]] = cmap[q * S + to];
          }
          continue;
        }
        // make the move
        for (let gi = 0; gi < G; gi++) {
          const q = gq[tg + gi];
          if (q < 0) continue;
          const o = 5 * (base + gi);
          const t = 4 * gi;
          gsum[gi] += nH[gi] - hv[q];
          old[o] = hv[q]; old[o + 1] = maskLo[q]; old[o + 2] = maskHi[q]; old[o + 3] = mm[q]; old[o + 4] = ord[q];
          hv[q] = nH[gi]; maskLo[q] = tmp[t]; maskHi[q] = tmp[t + 1]; mm[q] = tmp[t + 2]; ord[q] = tmp[t + 3];
        }
        board[bl] = tile;
        board[to] = 0;
        blank = to;
        path.push(dir);
        if (h === 0) {
          let done = true;
          for (let c = 0; c < n; c++) if (board[c] !== goal[c]) done = false;
          if (done) return true;
        }
        if (--poll <= 0) {
          poll = 1 << 16;
          if (shouldStop && shouldStop()) throw new Stopped('stopped');
        }
        if (dfs(g + 1, h6)) return true;
        // undo it
        path.pop();
        blank = bl;
        board[bl] = 0;
        board[to] = tile;
        for (let gi = 0; gi < G; gi++) {
          const q = gq[tg + gi];
          if (q < 0) continue;
          const o = 5 * (base + gi);
          gsum[gi] += old[o] - hv[q];
          hv[q] = old[o]; maskLo[q] = old[o + 1]; maskHi[q] = old[o + 2]; mm[q] = old[o + 3]; ord[q] = old[o + 4];
          cells[q * S + gj[tg + gi]] = cmap[q * S + to];
        }
      }
      return false;
    };

    for (;;) {
      next = NONE;
      path.length = 0;
      grow(bound + 1);
      if (dfs(0, HIST_START)) return { path: path.slice(), nodes };
      if (opts.onIteration) opts.onIteration(bound, nodes);
      if (next === NONE) throw new Error('solver: search space exhausted without reaching the goal');
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
