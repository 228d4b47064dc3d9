// Manhattan distance of every rank of a table, in rank order (SPEC.md
// section 8, "Computing m(r) fast"), for decoding format 2 codes:
// value(r) = m(r) + 2*code(r). No dependencies.

import { BINOM } from './rank.mjs';

// dist[t*n + c] = taxicab distance from cell c to the goal cell of tile t (0 for the blank).
function distances(p) {
  const { n, w } = p;
  const d = new Uint8Array(n * n);
  for (let t = 1; t < n; t++) {
    const g = p.goalPos[t];
    for (let c = 0; c < n; c++) d[t * n + c] = Math.abs(Math.floor(c / w) - Math.floor(g / w)) + Math.abs((c % w) - (g % w));
  }
  return d;
}

/**
 * Calls visit(rank, m) for every rank of pattern p in increasing order,
 * with m the Manhattan distance of the table's tiles in the state of that
 * rank. visit returns false to stop.
 */
export function forEachManhattan(p, visit) {
  const n = p.n;
  const dist = distances(p);
  if (p.exact) {
    // (N-2)-permutations pos[0..N-3] in lexicographic order; the last two
    // tiles take the free cells a < b as (a, b) when that state is solvable.
    // An exact table has N!/2 <= 2^36 entries, so N <= 14: one 32-bit mask
    // holds the used cells.
    const depthMax = n - 2;
    let goalParity = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (p.goalPos[j] < p.goalPos[i]) goalParity ^= 1;
    const gb = p.goalPos[0];
    let rank = 0;
    let stop = false;
    const rec = (d, used, partial, parity, blank) => {
      if (d === depthMax) {
        const free = ~used & ((1 << n) - 1);
        const a = 31 - Math.clz32(free & -free);
        const b = 31 - Math.clz32(free & (free - 1));
        const bd = Math.abs(Math.floor(blank / p.w) - Math.floor(gb / p.w)) + Math.abs((blank % p.w) - (gb % p.w));
        const [x, y] = (parity ^ goalParity) === bd % 2 ? [a, b] : [b, a];
        if (visit(rank++, partial + dist[(n - 2) * n + x] + dist[(n - 1) * n + y]) === false) stop = true;
        return;
      }
      let digit = 0;
      for (let c = 0; c < n && !stop; c++) {
        if (used & (1 << c)) continue;
        rec(d + 1, used | (1 << c), partial + dist[d * n + c], parity ^ (digit & 1), d === 0 ? c : blank);
        digit++;
      }
    };
    rec(0, 0, 0, 0, 0);
    return;
  }
  let rank = 0;
  additiveRows(p, dist, (r0, count, partial, rowBase) => {
    for (let s = 0; s < count; s++) {
      if (visit(rank++, partial + dist[rowBase + s]) === false) return false;
    }
    return true;
  });
}

// additiveRows walks the ranks of an additive pattern p (cellset-order:
// rank = P*C(N,k) + M; per tile order P, the cell sets in colexicographic
// order, largest cell outermost) one row at a time: row(r0, count,
// partial, rowBase) stands for the ranks r0..r0+count-1, where the
// smallest occupied cell s = 0..count-1 holds the tile of row rowBase/N
// and m(r0+s) = partial + dist[rowBase + s]. row returns false to stop.
// The inner loop lives in row, without a call per rank.
function additiveRows(p, dist, row) {
  const n = p.n;
  const k = p.tiles.length;
  const tiles = p.tiles;
  const orders = Math.round(p.size / BINOM[n][k]);
  const slotTile = new Uint8Array(k); // tile in the j-th smallest occupied cell
  const digits = new Uint8Array(k);
  let rank = 0;
  let stop = false;
  const rec = (j, hi, partial) => {
    const rowBase = slotTile[j] * n;
    if (j === 0) {
      if (row(rank, hi, partial, rowBase) === false) stop = true;
      rank += hi;
      return;
    }
    for (let s = j; s < hi && !stop; s++) rec(j - 1, s, partial + dist[rowBase + s]);
  };
  for (let P = 0; P < orders && !stop; P++) {
    // Lehmer unrank of P as a permutation o of 0..k-1; o_i = slot of tile i
    let r = P;
    for (let i = k - 1; i >= 0; i--) {
      digits[i] = r % (k - i);
      r = Math.floor(r / (k - i));
    }
    let usedSlots = 0;
    for (let i = 0; i < k; i++) {
      let free = ~usedSlots;
      for (let d = digits[i]; d > 0; d--) free &= free - 1;
      const o = 31 - Math.clz32(free & -free);
      usedSlots |= 1 << o;
      slotTile[o] = tiles[i];
    }
    rec(k - 1, n, 0);
  }
}

/**
 * Decodes format 2 codes in place: values[r] = m(r) + 2*codes[r]. Returns
 * null, or { rank, value } of the first decoded value above 254 (invalid).
 */
export function decodeCodes(values, p) {
  let bad = null;
  if (p.exact) {
    forEachManhattan(p, (r, m) => {
      const v = m + 2 * values[r];
      if (v > 254) {
        bad = { rank: r, value: v };
        return false;
      }
      values[r] = v;
      return true;
    });
    return bad;
  }
  const dist = distances(p);
  additiveRows(p, dist, (r0, count, partial, rowBase) => {
    for (let s = 0; s < count; s++) {
      const v = partial + dist[rowBase + s] + 2 * values[r0 + s];
      if (v > 254) {
        bad = { rank: r0 + s, value: v };
        return false;
      }
      values[r0 + s] = v;
    }
    return true;
  });
  return bad;
}

/**
 * decodeCodes for a zero-aware table (SPEC.md 11.2, format 2): the
 * Manhattan distance of index P·S + slot is that of its placement, rank
 * P·C(N,k) + M with M the cell set of the slot. Works one tile order at a
 * time, with the Manhattan row of its C(N,k) placements.
 */
export function decodeZeroAwareCodes(values, regions) {
  const p = regions.pattern;
  const comb = regions.comb;
  const S = regions.slots;
  const slotStart = regions.slotStart;
  const dist = distances(p);
  const row = new Uint8Array(comb);
  let bad = null;
  additiveRows(p, dist, (r0, count, partial, rowBase) => {
    const m0 = r0 % comb;
    for (let s = 0; s < count; s++) row[m0 + s] = partial + dist[rowBase + s];
    if (m0 + count < comb) return true;
    const base = ((r0 - m0) / comb) * S; // the order's block of S entries
    for (let m = 0; m < comb; m++) {
      const mv = row[m];
      for (let i = base + slotStart[m], end = base + slotStart[m + 1]; i < end; i++) {
        const v = mv + 2 * values[i];
        if (v > 254) {
          bad = { rank: i, value: v };
          return false;
        }
        values[i] = v;
      }
    }
    return true;
  });
  return bad;
}
