// Format 2 (SPEC.md section 8): the Manhattan walk against a direct
// computation from every state, and the SPEC.md section 9 vectors.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Pattern } from '../rank.mjs';
import { forEachManhattan } from '../manhattan.mjs';
import { readBytes } from '../tilepdb.mjs';
import { root, goalFor } from './helpers.mjs';

function* perms(n, k, prefix = [], used = 0) {
  if (prefix.length === k) {
    yield prefix;
    return;
  }
  for (let c = 0; c < n; c++) if (!(used & (1 << c))) yield* perms(n, k, [...prefix, c], used | (1 << c));
}

// manhattanOf: the definition, from a state's cells.
function manhattanOf(p, tiles, cells) {
  let m = 0;
  tiles.forEach((t, i) => {
    const c = cells[i];
    const g = p.goalPos[t];
    m += Math.abs(Math.floor(c / p.w) - Math.floor(g / p.w)) + Math.abs((c % p.w) - (g % p.w));
  });
  return m;
}

test('Manhattan walk = the definition at every rank (exhaustive: additive 3x3 k=1..4, 4x3 k=3; exact 2x2, 3x2, 2x3; several goals)', () => {
  const cases = [
    [3, 3, 'blank-last', [1]], [3, 3, 'blank-last', [1, 2]], [3, 3, 'blank-first', [2, 5, 7]], [3, 3, 'blank-last', [1, 2, 3, 4]],
    [4, 3, 'blank-first', [1, 2, 3]], [2, 2, '1 3 2 0', [1, 2, 3]], [3, 2, 'blank-last', [1, 2, 3, 4, 5]],
    [2, 3, 'blank-first', [1, 2, 3, 4, 5]], [3, 2, '5 4 3 2 1 0', [1, 2, 3, 4, 5]],
  ];
  for (const [w, h, goal, tiles] of cases) {
    const p = new Pattern(w, h, goalFor(goal, w * h), tiles);
    const walk = new Int16Array(p.size).fill(-1);
    let count = 0;
    forEachManhattan(p, (r, m) => {
      assert.equal(r, count++, 'ranks in order');
      walk[r] = m;
    });
    assert.equal(count, p.size);
    const pos = new Uint8Array(p.n);
    if (p.exact) {
      for (const full of perms(p.n, p.n)) {
        full.forEach((c, t) => (pos[t] = c));
        if (!p.solvablePositions(pos)) continue;
        assert.equal(walk[p.rank(pos)], manhattanOf(p, Array.from({ length: p.n - 1 }, (_, i) => i + 1), full.slice(1)), `${w}x${h} ${goal} ${full}`);
      }
    } else {
      for (const cells of perms(p.n, p.tiles.length)) {
        cells.forEach((c, i) => (pos[p.tiles[i]] = c));
        assert.equal(walk[p.rank(pos)], manhattanOf(p, Array.from(p.tiles), cells), `${w}x${h} ${goal} ${tiles} ${cells}`);
      }
    }
  }
});

const vectors = path.join(root, 'format', 'testdata', 'format2_vectors.txt');
test('SPEC.md section 9 format 2 vectors', { skip: fs.existsSync(vectors) ? false : 'format/testdata/format2_vectors.txt is not in this tree yet (it lands with format 2)' }, async () => {
  const text = fs.readFileSync(vectors, 'utf8');
  const tables = text.split('\n## table ').slice(1);
  assert.equal(tables.length, 3);
  for (const block of tables) {
    const lines = block.split('\n');
    const m = /^(\S+): (\d)x(\d) (\S+) (?:tiles ([\d,]+)|exact \(all tiles\)), encoding (\S+), entries (\d+), raw_sha256 ([0-9a-f]+)/.exec(lines[0]);
    assert.ok(m, lines[0]);
    const [, name, w, h, goal, tiles, , entries] = m;
    const n = w * h;
    const p = new Pattern(+w, +h, goalFor(goal === 'custom' ? '' : goal, n), tiles ? tiles.split(',').map(Number) : Array.from({ length: n - 1 }, (_, i) => i + 1));
    const rows = lines.filter((l) => /^\d+\t/.test(l)).map((l) => l.split('\t'));
    assert.equal(rows.length, Number(entries), name);
    const walk = [];
    forEachManhattan(p, (r, mm) => (walk[r] = mm));
    for (const [rank, , board, manhattan, value, code] of rows) {
      assert.equal(walk[rank], Number(manhattan), `${name} rank ${rank} manhattan`);
      assert.equal(Number(value), Number(manhattan) + 2 * Number(code));
      const b = board.split(' ').map(Number);
      const pos = new Uint8Array(n);
      b.forEach((t, c) => (pos[t] = c));
      assert.equal(p.rank(pos), Number(rank), `${name} board ${board}`);
    }
    const dumpAt = lines.findIndex((l) => l.startsWith('complete file'));
    if (dumpAt >= 0) {
      const hex = [];
      for (let i = dumpAt + 1; i < lines.length && /^[0-9a-f]{4}: /.test(lines[i]); i++) hex.push(...lines[i].slice(6).trim().split(' '));
      const t = await readBytes(Uint8Array.from(hex, (x) => parseInt(x, 16)));
      assert.deepEqual(Array.from(t.values), rows.map((r) => Number(r[4])), `${name}: decoded file`);
      assert.deepEqual(t.version, [2, 0]);
    }
  }
});
