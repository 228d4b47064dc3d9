// Boards past 5x5 (6x6 to 8x8, cells 32..63 included): the solver's
// incremental ranks (two 32-bit words per cell set) against an IDA* that
// recomputes every lookup from scratch, over tables built here by a
// breadth-first search (no table file needed), and the set-file symmetries.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Pattern, positions } from '../rank.mjs';
import { Solver, applyMoves } from '../solver.mjs';
import { mapPattern, symmetryCell, goalBlankRegion, SYMMETRIES, symmetryValidOn } from '../setfile.mjs';
import { goalFor } from './helpers.mjs';

// rng: a deterministic pseudo-random generator (LCG), so that failures repeat.
function rng(seed) {
  let x = seed >>> 0;
  return (m) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return Math.floor((x / 2 ** 32) * m);
  };
}

function neighbours(c, w, n) {
  return [c - w, c + w, c % w > 0 ? c - 1 : -1, c % w < w - 1 ? c + 1 : -1].filter((x) => x >= 0 && x < n);
}

// additiveTable: the additive pattern database of pattern p (1 or 2 tiles)
// by a 0-1 breadth-first search over (blank, tile cells) from the goal:
// moving a pattern tile costs 1, any other tile 0; the value of a placement
// of the tiles is the least distance over the blank's cells. Indexed by p.rank.
function additiveTable(p) {
  const { n, w } = p;
  const k = p.tiles.length;
  assert.ok(k <= 2);
  const size = n ** (k + 1);
  const dist = new Uint8Array(size).fill(255);
  const key = (b, c) => (k === 1 ? b * n + c[0] : (b * n + c[0]) * n + c[1]);
  const start = [p.goalPos[0], Array.from(p.tiles, (t) => p.goalPos[t])];
  dist[key(...start)] = 0;
  let cur = [start];
  for (let d = 0; cur.length > 0; d++) {
    const next = [];
    // close the level under 0-cost moves first
    for (let i = 0; i < cur.length; i++) {
      const [b, c] = cur[i];
      for (const to of neighbours(b, w, n)) {
        const j = c.indexOf(to);
        const nc = c.slice();
        if (j >= 0) nc[j] = b;
        const kk = key(to, nc);
        if (j < 0 && dist[kk] > d) {
          dist[kk] = d;
          cur.push([to, nc]);
        } else if (j >= 0 && dist[kk] > d + 1) {
          dist[kk] = d + 1;
          next.push([to, nc]);
        }
      }
    }
    cur = next.filter(([b, c]) => dist[key(b, c)] === d + 1);
  }
  const values = new Uint8Array(p.size).fill(255);
  const pos = new Uint8Array(n);
  for (let b = 0; b < n; b++) {
    for (let c0 = 0; c0 < n; c0++) {
      for (let c1 = 0; c1 < (k === 2 ? n : 1); c1++) {
        const c = k === 2 ? [c0, c1] : [c0];
        if (c.includes(b) || (k === 2 && c0 === c1)) continue;
        const v = dist[key(b, c)];
        c.forEach((x, i) => (pos[p.tiles[i]] = x));
        const r = p.rank(pos);
        if (v < values[r]) values[r] = v;
      }
    }
  }
  assert.ok(!values.includes(255), `${p}: every placement reached`);
  return values;
}

// parts: 2-tile tables for pairs, and a 1-tile table (its Manhattan
// distance, by the BFS too) for every other tile.
function parts(w, h, goal, pairs) {
  const n = w * h;
  const out = [];
  const inPair = new Set(pairs.flat());
  for (const tiles of [...pairs, ...Array.from({ length: n - 1 }, (_, i) => [i + 1]).filter(([t]) => !inPair.has(t))]) {
    const pattern = new Pattern(w, h, goal, tiles);
    out.push({ pattern, values: additiveTable(pattern) });
  }
  return out;
}

// reference: plain IDA* that looks every table up afresh at each node
// (Pattern.rank on the full position vector); returns the optimal length.
function referenceLength(tables, board, w) {
  const n = board.length;
  const goalKey = Array.from(tables[0].pattern.goal).join(',');
  const b = Array.from(board);
  const pos = positions(b);
  const h = () => tables.reduce((s, t) => s + t.values[t.pattern.rank(pos)], 0);
  let bound = h();
  for (;;) {
    let next = Infinity;
    const dfs = (g, prev) => {
      const f = g + h();
      if (f > bound) {
        next = Math.min(next, f);
        return false;
      }
      if (b.join(',') === goalKey) return true;
      const z = pos[0];
      for (const to of neighbours(z, w, n)) {
        if (to === prev) continue;
        const t = b[to];
        b[z] = t;
        b[to] = 0;
        pos[t] = z;
        pos[0] = to;
        const found = dfs(g + 1, z);
        b[to] = t;
        b[z] = 0;
        pos[t] = to;
        pos[0] = z;
        if (found) return true;
      }
      return false;
    };
    if (dfs(0, -1)) return bound;
    bound = next;
  }
}

// scramble: the blank walks from the goal to cell `via` (a row at a time,
// then along it), then takes `moves` random steps (never straight back).
function scramble(goal, w, via, moves, rnd) {
  const b = Array.from(goal);
  const n = b.length;
  let z = b.indexOf(0);
  const step = (to) => {
    [b[z], b[to]] = [b[to], b[z]];
    z = to;
  };
  while (Math.floor(z / w) !== Math.floor(via / w)) step(z + (z < via ? w : -w));
  while (z !== via) step(z + (z < via ? 1 : -1));
  let prev = -1;
  for (let i = 0; i < moves; i++) {
    const opts = neighbours(z, w, n).filter((c) => c !== prev);
    prev = z;
    step(opts[rnd(opts.length)]);
  }
  return b;
}

for (const { w, h, pairs, via } of [
  // pairs whose cells straddle cell 31/32 (the two words of a cell set)
  { w: 6, h: 6, pairs: [[26, 32], [31, 33], [20, 21]], via: 26 },
  { w: 7, h: 7, pairs: [[32, 33], [26, 40], [39, 46]], via: 31 },
  { w: 8, h: 8, pairs: [[32, 33], [25, 40], [31, 39], [41, 49]], via: 27 },
  { w: 8, h: 5, pairs: [[32, 33], [24, 31]], via: 29 },
]) {
  test(`${w}x${h}: IDA* with incremental ranks gives the optimal lengths of a from-scratch IDA* (pairs ${pairs.map((p) => p.join('-')).join(' ')})`, { timeout: 120000 }, () => {
    const n = w * h;
    const goal = goalFor('blank-last', n);
    const tables = parts(w, h, goal, pairs);
    const rnd = rng(w * 100 + h);
    const solvers = [new Solver(tables)];
    if (w === h) solvers.push(new Solver(tables, { reflect: true }));
    for (let i = 0; i < 6; i++) {
      const board = scramble(goal, w, via, 10 + rnd(8), rnd);
      const want = referenceLength(tables, board, w);
      for (const s of solvers) {
        const r = s.solve(board);
        assert.ok(r.solvable);
        assert.equal(r.length, want, `${w}x${h} reflect=${s.reflect} ${board.join(' ')}`);
        assert.deepEqual(Array.from(applyMoves(board, w, r.moves)), goal);
      }
      const swapped = board.slice();
      const [a, c] = [swapped.indexOf(1), swapped.indexOf(2)];
      [swapped[a], swapped[c]] = [swapped[c], swapped[a]];
      assert.equal(solvers[0].solve(swapped).solvable, false);
    }
  });
}

test('symmetries on 6x6, 7x7 and 8x8 are permutations of the cells; 7x5 keeps the four of non-square boards', () => {
  for (const [w, h] of [[6, 6], [7, 7], [8, 8], [7, 5]]) {
    const n = w * h;
    for (const s of SYMMETRIES) {
      if (!symmetryValidOn(s, w, h)) {
        assert.notEqual(w, h);
        continue;
      }
      const img = Array.from({ length: n }, (_, c) => symmetryCell(s, w, h, c));
      assert.deepEqual(img.slice().sort((a, b) => a - b), Array.from({ length: n }, (_, c) => c), `${s} on ${w}x${h}`);
    }
  }
});

test('mapPattern on 8x8: the transposed pattern is served through transpose, blank regions past cell 31 compared', () => {
  const n = 64;
  const goal = goalFor('blank-last', n);
  // tiles at cells 62 and 55 (next to the blank's goal cell 63) and their transposes 55 and 62
  const from = new Pattern(8, 8, goal, [63, 56]);
  const to = new Pattern(8, 8, goal, [56, 63]);
  const m = mapPattern(from, to, 'transpose');
  assert.equal(m.error, undefined);
  // cells 61 and 54 hem in the blank's goal cell 63 with 62 and 55: the region is {63} alone...
  const corner = new Pattern(8, 8, goal, [63, 56, 62]);
  assert.deepEqual(Array.from(goalBlankRegion(corner)).reduce((a, v, c) => (v ? [...a, c] : a), []), [63]);
  // ...and flip-lr maps that corner (tiles at 62, 55, 61) onto the goal cells
  // 57, 48, 58 of tiles 58, 49, 59, but the region {63} onto {56}: refused
  const flipped = new Pattern(8, 8, goal, [58, 49, 59]);
  assert.match(mapPattern(corner, flipped, 'flip-lr').error ?? '', /flip-lr maps the blank's goal region/);
  // one tile far from the blank: every other cell is in the region, and flip-tb maps it onto the other's
  assert.equal(mapPattern(new Pattern(8, 8, goal, [1]), new Pattern(8, 8, goal, [57]), 'flip-tb').error, undefined);
  assert.match(mapPattern(new Pattern(8, 8, goal, [1]), new Pattern(8, 8, goal, [8]), 'flip-tb').error ?? '', /not a goal cell/);
});
