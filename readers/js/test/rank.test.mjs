import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Pattern, positions, lehmerRank, BINOM } from '../rank.mjs';
import { root, tsv, specBlock, goalFor } from './helpers.mjs';

const rankTsv = path.join(root, 'format', 'testdata', 'rank_vectors.tsv');

test('format/testdata/rank_vectors.tsv is the block of SPEC.md section 6', () => {
  assert.equal(specBlock('rank-vectors'), fs.readFileSync(rankTsv, 'utf8'));
});

test('SPEC.md ranking vectors', () => {
  const rows = tsv(rankTsv);
  assert.ok(rows.length >= 30);
  for (const [size, goal, tiles, ranking, board, rank] of rows) {
    const [w, h] = size.split('x').map(Number);
    const p = new Pattern(w, h, goalFor(goal, w * h), tiles.split(',').map(Number));
    assert.equal(p.ranking, ranking);
    const b = board.split(' ').map(Number);
    const pos = positions(b);
    assert.equal(p.rank(pos), Number(rank), `${size} ${goal} ${tiles} ${board}`);
    assert.equal(direct(p, pos), Number(rank), 'direct transcription');
  }
});

// direct is a transcription of SPEC.md section 4, independent of rank.mjs.
function direct(p, pos) {
  const fact = (m) => (m <= 1 ? 1 : m * fact(m - 1));
  const lehmer = (a) => a.reduce((L, x, i) => L + a.slice(i + 1).filter((y) => y < x).length * fact(a.length - 1 - i), 0);
  if (p.exact) return Math.floor(lehmer(Array.from(pos)) / 2);
  const c = Array.from(p.tiles, (t) => pos[t]);
  const s = c.slice().sort((x, y) => x - y);
  const C = (a, b) => (a < b ? 0 : fact(a) / (fact(b) * fact(a - b)));
  const M = s.reduce((m, sj, j) => m + C(sj, j + 1), 0);
  const o = c.map((ci) => s.indexOf(ci));
  return lehmer(o) * Math.round(C(p.n, c.length)) + M;
}

function* kperms(n, k, prefix = [], used = 0) {
  if (prefix.length === k) {
    yield prefix;
    return;
  }
  for (let c = 0; c < n; c++) if (!(used & (1 << c))) yield* kperms(n, k, [...prefix, c], used | (1 << c));
}

test('cellset-order is a bijection onto [0, N!/(N-k)!) (exhaustive, 3x3 k=1..4, 2x3 k=3)', () => {
  for (const [w, h, k] of [[3, 3, 1], [3, 3, 2], [3, 3, 3], [3, 3, 4], [3, 2, 3]]) {
    const p = new Pattern(w, h, goalFor('blank-last', w * h), Array.from({ length: k }, (_, i) => i + 1));
    const seen = new Uint8Array(p.size);
    const pos = new Uint8Array(w * h);
    for (const cells of kperms(w * h, k)) {
      cells.forEach((c, i) => (pos[p.tiles[i]] = c));
      const r = p.rank(pos);
      assert.ok(r >= 0 && r < p.size && !seen[r], `${w}x${h} k=${k} ${cells}`);
      seen[r] = 1;
      if (k <= 3) assert.equal(r, direct(p, pos));
    }
    assert.equal(seen.reduce((a, b) => a + b, 0), p.size);
  }
});

test('lehmer-half maps the solvable states of 3x2 and 2x2 onto [0, N!/2) once each', () => {
  for (const [w, h] of [[3, 2], [2, 2], [2, 3]]) {
    for (const goal of ['blank-last', 'blank-first']) {
      const n = w * h;
      const p = new Pattern(w, h, goalFor(goal, n), Array.from({ length: n - 1 }, (_, i) => i + 1));
      const seen = new Uint8Array(p.size);
      let solvable = 0;
      for (const pos of kperms(n, n)) {
        const u8 = Uint8Array.from(pos);
        if (!p.solvablePositions(u8)) continue;
        solvable++;
        const r = p.rank(u8);
        assert.ok(!seen[r]);
        seen[r] = 1;
        assert.equal(r, direct(p, u8));
      }
      assert.equal(solvable, p.size);
    }
  }
});

test('lehmerRank of the identity and the reversal', () => {
  assert.equal(lehmerRank([0, 1, 2, 3], 4), 0);
  assert.equal(lehmerRank([3, 2, 1, 0], 4), 23);
  assert.equal(BINOM[25][12], 5200300);
});

test('Pattern rejects what puzzle.NewPattern rejects', () => {
  const bl = goalFor('blank-last', 9);
  assert.throws(() => new Pattern(6, 3, goalFor('blank-last', 18), [1]), /each side/);
  assert.throws(() => new Pattern(3, 3, bl, []), /no tiles/);
  assert.throws(() => new Pattern(3, 3, bl, [1, 1]), /twice/);
  assert.throws(() => new Pattern(3, 3, bl, [9]), /does not exist/);
  assert.throws(() => new Pattern(3, 3, bl, [1, 2, 3, 4, 5, 6, 7]), /non-pattern tile/);
  assert.throws(() => new Pattern(3, 3, [1, 1, 2, 3, 4, 5, 6, 7, 8], [1]), /goal/);
  assert.throws(() => new Pattern(4, 4, goalFor('blank-last', 16), Array.from({ length: 15 }, (_, i) => i + 1)), /2\^36/);
});
