// The index of zero-aware tables (format/SPEC.md section 11, ranking
// cellset-order-region): for every cell set of an additive pattern, the
// connected regions of its free cells, numbered in the order of their
// smallest cell, and the first slot of each cell set. No dependencies.

import { BINOM } from './rank.mjs';

export const RANKING_CELLSET_ORDER_REGION = 'cellset-order-region';
export const KIND_ZERO_AWARE = 'zero-aware';
/** Region label of an occupied cell in Regions.regionOf. */
export const OCCUPIED = 0xff;

/** neighbours[c]: the cells orthogonally adjacent to cell c on a w x h board. */
export function neighbours(w, h) {
  const out = [];
  for (let c = 0; c < w * h; c++) {
    const r = Math.floor(c / w);
    const col = c % w;
    const nb = [];
    if (r > 0) nb.push(c - w);
    if (r < h - 1) nb.push(c + w);
    if (col > 0) nb.push(c - 1);
    if (col < w - 1) nb.push(c + 1);
    out.push(Uint8Array.from(nb));
  }
  return out;
}

/**
 * Labels the regions of the free cells (occupied[c] = 1 for a pattern
 * cell) into out (length N): region numbers 0, 1, ... in the order of
 * their smallest cell, OCCUPIED for an occupied cell. stack is scratch
 * space of N bytes. Returns the number of regions.
 */
export function labelRegions(nb, occupied, out, stack) {
  const n = out.length;
  out.fill(OCCUPIED);
  let label = 0;
  for (let c = 0; c < n; c++) {
    if (occupied[c] || out[c] !== OCCUPIED) continue;
    out[c] = label;
    stack[0] = c;
    let top = 1;
    while (top > 0) {
      const x = stack[--top];
      const adj = nb[x];
      for (let i = 0; i < adj.length; i++) {
        const y = adj[i];
        if (!occupied[y] && out[y] === OCCUPIED) {
          out[y] = label;
          stack[top++] = y;
        }
      }
    }
    label++;
  }
  return label;
}

/**
 * The region numbering of an additive pattern (a rank.mjs Pattern, not
 * exact): slotStart (Float64Array of C(N,k)+1 prefix sums of the region
 * counts, cell sets in colexicographic order), regionOf (Uint8Array of
 * C(N,k)·N labels: regionOf[M·N + c]), slots S and size k!·S. Memory:
 * C(N,k)·(N+8) bytes (4.6 MB for 6 tiles of the 24-puzzle); time: one
 * flood fill per cell set.
 */
export class Regions {
  constructor(p) {
    if (p.exact) throw new Error(`regions: ${p} is exact; zero-aware tables are additive`);
    const n = p.n;
    const k = p.tiles.length;
    const comb = BINOM[n][k];
    this.pattern = p;
    this.n = n;
    this.k = k;
    this.comb = comb;
    this.slotStart = new Float64Array(comb + 1);
    this.regionOf = new Uint8Array(comb * n);
    const nb = neighbours(p.w, p.h);
    const occupied = new Uint8Array(n);
    const stack = new Uint8Array(n);
    // cell sets in colexicographic order: c[0] < ... < c[k-1]; the next
    // set increments the lowest cell that can move up and resets the ones below
    const c = Array.from({ length: k }, (_, i) => i);
    let slots = 0;
    for (let m = 0; m < comb; m++) {
      occupied.fill(0);
      for (let i = 0; i < k; i++) occupied[c[i]] = 1;
      slots += labelRegions(nb, occupied, this.regionOf.subarray(m * n, (m + 1) * n), stack);
      this.slotStart[m + 1] = slots;
      let i = 0;
      while (i < k - 1 && c[i] + 1 === c[i + 1]) i++;
      c[i]++;
      for (let j = 0; j < i; j++) c[j] = j;
    }
    /** S: the number of (cell set, region) slots. */
    this.slots = slots;
    let f = 1;
    for (let i = 2; i <= k; i++) f *= i;
    /** k!: the number of tile orders. */
    this.orders = f;
    /** Entries of the zero-aware table: k!·S. */
    this.size = f * slots;
    this._cells = new Uint8Array(k);
  }

  /** Number of regions of cell set m. */
  count(m) {
    return this.slotStart[m + 1] - this.slotStart[m];
  }

  /** Zero-aware index of the state with position vector pos (length N); pos must be a valid state. No allocation. */
  index(pos) {
    const cells = this._cells;
    const tiles = this.pattern.tiles;
    for (let i = 0; i < this.k; i++) cells[i] = pos[tiles[i]];
    return this.indexCells(cells, pos[0]);
  }

  /** index given the cells of the pattern tiles (tiles ascending) and the blank's cell, which must be free. */
  indexCells(cells, blank) {
    const rank = this.pattern.rankCells(cells, this.k);
    const m = rank % this.comb;
    const ord = (rank - m) / this.comb;
    return ord * this.slots + this.slotStart[m] + this.regionOf[m * this.n + blank];
  }

  /** The cell set M whose slots hold slot s (0 <= s < S): the largest M with slotStart[M] <= s. */
  cellSetOfSlot(s) {
    let lo = 0;
    let hi = this.comb;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (this.slotStart[mid] <= s) lo = mid;
      else hi = mid;
    }
    return lo;
  }
}
