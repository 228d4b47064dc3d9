// The JavaScript IDA* against an independent breadth-first search (3x3) and
// Korf's published optimal lengths (15-puzzle, with the default tables).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readFile, openSet } from '../tilepdb.mjs';
import { Solver, applyMoves, blankFirstToLast } from '../solver.mjs';
import { root, kitDir, dataDir, tsv } from './helpers.mjs';

// bfsDistances: exact distance of every 3x3 state to the blank-last goal, keyed by the board string.
function bfsDistances() {
  const goal = '1,2,3,4,5,6,7,8,0';
  const dist = new Map([[goal, 0]]);
  let frontier = [goal];
  for (let d = 1; frontier.length; d++) {
    const next = [];
    for (const s of frontier) {
      const b = s.split(',').map(Number);
      const z = b.indexOf(0);
      for (const t of [z - 3, z + 3, z % 3 ? z - 1 : -1, z % 3 !== 2 ? z + 1 : -1]) {
        if (t < 0 || t > 8) continue;
        const c = b.slice();
        [c[z], c[t]] = [c[t], c[z]];
        const k = c.join(',');
        if (!dist.has(k)) {
          dist.set(k, d);
          next.push(k);
        }
      }
    }
    frontier = next;
  }
  return dist;
}

test('IDA* over an additive table finds BFS-optimal solutions (3x3, 300 random solvable boards)', async () => {
  const dist = bfsDistances();
  assert.equal(dist.size, 181440);
  const t = await readFile(path.join(kitDir, 'good-additive.pdb'));
  const solver = new Solver([t], { reflect: true });
  const states = [...dist.keys()];
  let seed = 7;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  let checked = 0;
  for (let i = 0; i < 300; i++) {
    const key = states[Math.floor(rnd() * states.length)];
    if (dist.get(key) > 22) continue; // keep the weak single-table search quick
    const b = key.split(',').map(Number);
    const r = solver.solve(b);
    assert.equal(r.length, dist.get(key), key);
    assert.deepEqual(Array.from(applyMoves(b, 3, r.moves)), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
    checked++;
  }
  assert.ok(checked > 100);
  assert.equal(solver.solve([2, 1, 3, 4, 5, 6, 7, 8, 0]).solvable, false);
});

test('exact-table walk-down is optimal (8puzzle, 200 boards)', { skip: fs.existsSync(path.join(dataDir, '8puzzle.pdb')) ? false : 'run make data' }, async () => {
  const dist = bfsDistances();
  const t = await readFile(path.join(dataDir, '8puzzle.pdb'));
  const solver = new Solver([t]);
  let i = 0;
  for (const [key, d] of dist) {
    if (i++ % 907) continue;
    const b = key.split(',').map(Number);
    const r = solver.solve(b);
    assert.equal(r.length, d);
    assert.deepEqual(Array.from(applyMoves(b, 3, r.moves)), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  }
});

const korfSkip = fs.existsSync(path.join(dataDir, '15-663_2-3-4.pdb')) ? false : 'run make data';
test("Korf's instances 1, 9, 12, 13, 16 with 6-6-3 and reflection: published lengths", { skip: korfSkip }, async () => {
  const set = await openSet(['15-663_1-5-6-9-10-13', '15-663_7-8-11-12-14-15', '15-663_2-3-4'].map((n) => path.join(dataDir, `${n}.pdb`)));
  const solver = new Solver(set.tables, { reflect: true });
  const plain = new Solver(set.tables, { reflect: false });
  const rows = tsv(path.join(root, 'solver', 'testdata', 'korf100.tsv'));
  for (const id of [1, 9, 12, 13, 16]) {
    const [, len, board] = rows[id - 1];
    const b = board.split(' ').map(Number);
    const r = solver.solve(b, { fromBlankFirst: true });
    assert.equal(r.length, Number(len), `instance ${id}`);
    assert.deepEqual(Array.from(applyMoves(b, 4, r.moves)), [...Array(16).keys()], `instance ${id} reaches the blank-first goal`);
    assert.ok(solver.heuristic(blankFirstToLast(b)) >= plain.heuristic(blankFirstToLast(b)));
    assert.ok(solver.heuristic(blankFirstToLast(b)) <= r.length);
  }
});

test('set files: parts looked up through a symmetry give the lookup of TableSet, and IDA* over two different sets agrees on optimal lengths', async () => {
  const setsDir = path.join(root, 'readers', 'testdata', 'sets');
  const a = await openSet([path.join(setsDir, 'good-a.set.json')]); // 2 parts, one through transpose
  const b = await openSet([path.join(setsDir, 'good-b.set.json')]); // 3 parts, through rot270 and flip-tb
  const goal = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0];
  let seed = 11;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const walk = (board, steps) => {
    const w = board.slice();
    let z = w.indexOf(0);
    for (let i = 0; i < steps; i++) {
      const opts = [z - 4, z + 4, z % 4 ? z - 1 : -1, z % 4 !== 3 ? z + 1 : -1].filter((t) => t >= 0 && t < 16);
      const t = opts[Math.floor(rnd() * opts.length)];
      [w[z], w[t]] = [w[t], w[z]];
      z = t;
    }
    return w;
  };
  for (const set of [a, b]) {
    const plain = new Solver(set);
    const refl = new Solver(set, { reflect: true });
    let board = goal;
    for (let i = 0; i < 2000; i++) {
      board = walk(board, 1);
      assert.equal(plain.heuristic(board), set.lookup(board), board.join(' '));
      assert.ok(refl.heuristic(board) >= set.lookup(board));
    }
  }
  const sa = new Solver(a, { reflect: true });
  const sb = new Solver(b, { reflect: true });
  for (let i = 0; i < 15; i++) {
    const board = walk(goal, 16);
    const ra = sa.solve(board);
    const rb = sb.solve(board);
    assert.equal(ra.length, rb.length, board.join(' '));
    assert.ok(ra.length <= 16);
    assert.deepEqual(Array.from(applyMoves(board, 4, ra.moves)), goal);
    assert.deepEqual(Array.from(applyMoves(board, 4, rb.moves)), goal);
  }
});
