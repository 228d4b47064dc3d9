// Zero-aware tables (SPEC.md section 11): the zero-aware conformance kit
// (format/testdata/conformance-zero-aware), the vectors of 11.4, lookups
// through sets and set-file symmetries, and malformed zero-aware headers
// (one error of a class, never a crash or a giant allocation).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { readBytes, readFile, TableSet, openSetBytes, Pattern, Regions, LimitError, FormatError, UnsupportedError } from '../tilepdb.mjs';
import { mapPattern } from '../setfile.mjs';
import { positions } from '../rank.mjs';
import { root, tsv, specBlock } from './helpers.mjs';
import { runConformance } from './conformance.mjs';

const zaDir = process.env.TILEPDB_CONFORMANCE_ZA_DIR || path.join(root, 'format', 'testdata', 'conformance-zero-aware');
const vectorsFile = path.join(root, 'format', 'testdata', 'zero_aware_vectors.txt');
const kit3x3 = path.join(zaDir, 'v1-zero-aware-3x3.pdb');

test('zero-aware conformance kit (format/testdata/conformance-zero-aware)', async () => {
  const n = await runConformance(zaDir, 8);
  assert.ok(n >= 8);
});

test('format/testdata/zero_aware_vectors.txt is the block of SPEC.md section 11.4', () => {
  assert.equal(specBlock('zero-aware-vectors'), fs.readFileSync(vectorsFile, 'utf8'));
});

test('SPEC.md 11.4 vectors: regions of every cell set, slotStart, S, index and values of the boards', async () => {
  const goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
  const r = new Regions(new Pattern(3, 3, goal, [1, 2, 3]));
  assert.equal(r.comb, 84);
  assert.equal(r.slots, 124);
  assert.equal(r.size, 744);
  const rows = tsv(vectorsFile);
  const multi = new Map();
  let boards = 0;
  const t = await readFile(kit3x3);
  for (const row of rows) {
    if (row[0].startsWith('M=')) {
      const m = Number(row[0].slice(2));
      const cells = row[1].replace('cells ', '').split(',').map(Number);
      const regions = row[2].replace('regions ', '').split(' ');
      multi.set(m, true);
      // the cell set of rank M is the one listed
      const occupied = regions.flatMap((x, c) => (x === 'x' ? [c] : []));
      assert.deepEqual(occupied, cells, `M=${m}`);
      assert.equal(r.slotStart[m], Number(row[3].replace('slotStart ', '')), `slotStart[${m}]`);
      regions.forEach((x, c) => assert.equal(r.regionOf[m * 9 + c], x === 'x' ? 0xff : Number(x), `M=${m} cell ${c}`));
      assert.equal(r.count(m), Math.max(...regions.filter((x) => x !== 'x').map(Number)) + 1);
      continue;
    }
    const [board, , M, P, blank, region, slotStart, index, value, plain] = row.map((x) => x);
    const b = board.split(' ').map(Number);
    const pos = positions(b);
    assert.equal(pos[0], Number(blank));
    assert.equal(t.pattern.rank(pos), Number(P) * 84 + Number(M), `rank of ${board}`);
    assert.equal(r.regionOf[Number(M) * 9 + pos[0]], Number(region), `region of ${board}`);
    assert.equal(r.slotStart[Number(M)], Number(slotStart));
    assert.equal(r.index(pos), Number(index), `index of ${board}`);
    assert.equal(t.values[Number(index)], Number(value), `value of ${board}`);
    assert.equal(t.value(pos), Number(value), `value of ${board}`);
    // the additive value is the minimum over the placement's regions
    const base = Number(P) * 124 + Number(slotStart);
    let min = 255;
    for (let i = 0; i < r.count(Number(M)); i++) min = Math.min(min, t.values[base + i]);
    assert.equal(min, Number(plain), `plain value of ${board}`);
    boards++;
  }
  assert.ok(boards >= 8, `${boards} boards`);
  for (let m = 0; m < 84; m++) if (!multi.has(m)) assert.equal(r.count(m), 1, `M=${m} has one region`);
});

test('cellSetOfSlot inverts slotStart', () => {
  const r = new Regions(new Pattern(4, 3, Array.from({ length: 12 }, (_, i) => i), [1, 2, 3, 4]));
  for (let m = 0; m < r.comb; m++) {
    for (let s = r.slotStart[m]; s < r.slotStart[m + 1]; s++) assert.equal(r.cellSetOfSlot(s), m);
  }
});

// transposeBoard: the board b transposed, its tiles renamed to the goal's
// tiles at the transposed goal cells (the same puzzle seen in the mirror).
function transposeBoard(b, w, goal) {
  const tc = (c) => (c % w) * w + Math.floor(c / w);
  const goalPos = positions(goal);
  const out = new Array(b.length);
  for (let c = 0; c < b.length; c++) out[tc(c)] = goal[tc(goalPos[b[c]])];
  return out;
}

test('a set part through transpose reads the zero-aware table at the transposed cells and blank', async () => {
  const t = await readFile(kit3x3);
  const goal = Array.from(t.pattern.goal);
  const part = new Pattern(3, 3, goal, [1, 4, 7]);
  const m = mapPattern(part, t.pattern, 'transpose');
  assert.ok(m.map, m.error);
  const set = TableSet.fromParts([{ pattern: part, table: t, symmetry: 'transpose', map: m.map }]);
  const own = new TableSet([t]);
  let differ = 0;
  let seed = 7;
  for (let i = 0; i < 3000; i++) {
    const b = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    for (let j = 8; j > 0; j--) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const k = seed % (j + 1);
      [b[j], b[k]] = [b[k], b[j]];
    }
    const want = t.value(positions(transposeBoard(b, 3, goal)));
    assert.equal(set.heuristic(positions(b)), want, `board ${b}`);
    if (own.heuristic(positions(b)) !== want) differ++;
  }
  assert.ok(differ > 100, 'the transposed part looks up other entries than the identity');
});

test('a set file naming a zero-aware table (openSetBytes): its part is looked up in the zero-aware table', async () => {
  const t = await readFile(kit3x3);
  const goal = Array.from(t.pattern.goal);
  const good = JSON.stringify({
    tilepdb_set: 1,
    width: 3,
    height: 3,
    goal,
    parts: [{ tiles: [1, 4, 7], table: 'za.pdb', table_tiles: [1, 2, 3], symmetry: 'transpose', tile_map: [1, 2, 3], table_raw_sha256: t.header.raw_sha256 }],
  });
  const set = await openSetBytes(good, { name: 'za.set.json', table: () => new Uint8Array(fs.readFileSync(kit3x3)) });
  const b = [4, 1, 0, 3, 2, 5, 6, 7, 8];
  assert.equal(set.lookup(b), t.value(positions(transposeBoard(b, 3, goal))));
});

// Header surgery on the 3x3 zero-aware kit file (format 1: no payload
// checksum): replace parts of the JSON, re-sign, read.
const sha = (b) => createHash('sha256').update(b).digest();
function withHeader(file, edit) {
  const b = Buffer.from(fs.readFileSync(file));
  const n = b.readUInt32LE(12);
  const js = Buffer.from(edit(b.subarray(16, 16 + n).toString('utf8')));
  const pre = Buffer.from(b.subarray(0, 16));
  pre.writeUInt32LE(js.length, 12);
  const signed = Buffer.concat([pre, js]);
  return new Uint8Array(Buffer.concat([signed, sha(signed), b.subarray(48 + n)]));
}

const bigHeader = (w, k, entries) => (js) =>
  js
    .replace(/"width":\d+/, `"width":${w}`)
    .replace(/"height":\d+/, `"height":${w}`)
    .replace(/"goal":\[[^\]]*\]/, `"goal":[${Array.from({ length: w * w }, (_, i) => (i + 1) % (w * w))}]`)
    .replace(/"tiles":\[[^\]]*\]/, `"tiles":[${Array.from({ length: k }, (_, i) => i + 1)}]`)
    .replace(/"entries":\d+/, `"entries":${entries}`);

test('malformed zero-aware headers: one error of a class each, quickly', async () => {
  const cases = [
    ['entries of the additive table', (js) => js.replace('"entries":744', '"entries":504'), FormatError, /entries 504, but the zero-aware table of pattern 3x3 blank-last tiles 1,2,3 has 744/],
    ['entries one more', (js) => js.replace('"entries":744', '"entries":745'), FormatError, /has 744/],
    ['entries 2^64', (js) => js.replace('"entries":744', '"entries":18446744073709551615'), FormatError, /entries/],
    ['entries negative', (js) => js.replace('"entries":744', '"entries":-744'), FormatError, /entries/],
    ['additive ranking', (js) => js.replace('"cellset-order-region"', '"cellset-order"'), FormatError, /ranking "cellset-order", want "cellset-order-region"/],
    ['unknown ranking', (js) => js.replace('"cellset-order-region"', '"cellset-order-regions"'), FormatError, /ranking/],
    ['kind of another case', (js) => js.replace('"zero-aware"', '"Zero-Aware"'), UnsupportedError, /kind "Zero-Aware"/],
    ['future kind', (js) => js.replace('"zero-aware"', '"zero-aware-2"'), UnsupportedError, /kind "zero-aware-2"/],
    ['kind as a number', (js) => js.replace('"zero-aware"', '3'), FormatError, /kind/],
    ['kind zero-aware, all tiles (exact)', (js) => js.replace(/"tiles":\[[^\]]*\]/, '"tiles":[1,2,3,4,5,6,7,8]'), FormatError, /kind "zero-aware", but 8 of 8 tiles make an "exact" table/],
    ['kind zero-aware, 7 of 8 tiles', (js) => js.replace(/"tiles":\[[^\]]*\]/, '"tiles":[1,2,3,4,5,6,7]'), FormatError, /tiles/],
    ['ranking_version 0', (js) => js.replace('"ranking_version":1', '"ranking_version":0'), UnsupportedError, /ranking_version 0/],
    // 8x8, 6 tiles: 5.5e10 placements; refused before any region is labelled
    ['8x8 6 tiles', bigHeader(8, 6, 2 ** 36), LimitError, /at least 53981544960 entries/],
    // 7x7, 4 tiles: labelled (C(49,4) = 211,876 cell sets), then the entries disagree
    ['7x7 4 tiles, entries wrong', bigHeader(7, 4, 1000), FormatError, /entries 1000, but the zero-aware table of pattern 7x7 blank-last tiles 1,2,3,4 has \d+/],
  ];
  for (const [name, edit, cls, msg] of cases) {
    const t0 = Date.now();
    await assert.rejects(readBytes(withHeader(kit3x3, edit)), (e) => e instanceof cls && msg.test(e.message), `${name}`);
    assert.ok(Date.now() - t0 < 20000, `${name}: ${Date.now() - t0} ms`);
  }
});

// referenceIDA: IDA* with the set's full lookup at every node (no
// incremental ranks), the solver's move order (u, d, l, r), its undo and
// 2x2 duplicate-path rules and its node count: the incremental solver must
// generate exactly the same nodes.
function referenceIDA(set, board, w) {
  const n = board.length;
  const b = Array.from(board);
  const pos = positions(b);
  const goal = Array.from(set.goal).join(',');
  const dirs = [[-w, 0], [w, 1], [-1, 2], [1, 3]];
  const undo = [1, 0, 3, 2];
  const DUP = new Set(['rdlurd', 'ldruld', 'lurdlu', 'ruldru']);
  let nodes = 0;
  const dfs = (g, bound, last, hist) => {
    let next = Infinity;
    const z = pos[0];
    for (const [d, dir] of dirs) {
      if (dir === undo[last]) continue;
      const to = z + d;
      if (to < 0 || to >= n || ((dir === 2 || dir === 3) && Math.floor(to / w) !== Math.floor(z / w))) continue;
      const h6 = (hist + 'udlr'[dir]).slice(-6);
      if (DUP.has(h6)) continue;
      nodes++;
      const t = b[to];
      b[z] = t; b[to] = 0; pos[t] = z; pos[0] = to;
      const f = g + 1 + set.heuristic(pos);
      let found = false;
      if (f > bound) next = Math.min(next, f);
      else if (b.join(',') === goal) found = true;
      else {
        const r = dfs(g + 1, bound, dir, h6);
        if (r === true) found = true;
        else next = Math.min(next, r);
      }
      b[to] = t; b[z] = 0; pos[t] = to; pos[0] = z;
      if (found) return true;
    }
    return next;
  };
  let bound = set.heuristic(pos);
  if (b.join(',') === goal) return { length: 0, nodes: 0 };
  for (;;) {
    const r = dfs(0, bound, 4, '');
    if (r === true) return { length: bound, nodes };
    bound = r;
  }
}

test('solver over zero-aware tables: the same nodes as a non-incremental IDA*, and BFS-optimal lengths', async () => {
  const { Solver, applyMoves } = await import('../solver.mjs');
  const t = await readFile(kit3x3);
  const goal = Array.from(t.pattern.goal);
  const part = new Pattern(3, 3, goal, [1, 4, 7]);
  const m = mapPattern(part, t.pattern, 'transpose');
  for (const set of [new TableSet([t]), TableSet.fromParts([{ pattern: part, table: t, symmetry: 'transpose', map: m.map }])]) {
    const solver = new Solver(set);
    let seed = 3;
    let solved = 0;
    for (let i = 0; i < 60; i++) {
      let b = goal.slice();
      for (let j = 0; j < 40; j++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        try {
          b = Array.from(applyMoves(b, 3, 'udlr'[(seed >>> 16) % 4]));
        } catch {
          // off the board: another move
        }
      }
      const got = solver.solve(b);
      const want = referenceIDA(set, b, 3);
      assert.equal(got.length, want.length, `length of ${b}`);
      assert.equal(got.nodes, want.nodes, `nodes of ${b}`);
      assert.deepEqual(Array.from(applyMoves(b, 3, got.moves)), goal);
      solved++;
    }
    assert.ok(solved >= 60);
  }
  // a Web Worker's parts: { pattern, values, zeroAware } (the regions labelled by the solver)
  const w = new Solver([{ pattern: t.pattern, values: t.values, zeroAware: true }]);
  const b = [4, 1, 0, 3, 2, 5, 6, 7, 8];
  assert.equal(w.solve(b).nodes, new Solver(new TableSet([t])).solve(b).nodes);
  assert.equal(w.heuristic(b), t.lookup(b));
});
