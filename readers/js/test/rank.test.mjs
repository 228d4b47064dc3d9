import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Pattern, positions, lehmerRank, cellSetRank, orderRank, solvableFrom, BINOM, MAX_SIDE, MAX_ENTRIES } from '../rank.mjs';
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

// direct is a transcription of SPEC.md section 4, independent of rank.mjs,
// in BigInt arithmetic (exact on any board up to 8x8: 64! has 90 digits).
function direct(p, pos) {
  const fact = (m) => (m <= 1 ? 1n : BigInt(m) * fact(m - 1));
  const lehmer = (a) => a.reduce((L, x, i) => L + BigInt(a.slice(i + 1).filter((y) => y < x).length) * fact(a.length - 1 - i), 0n);
  if (p.exact) return Number(lehmer(Array.from(pos)) / 2n);
  const c = Array.from(p.tiles, (t) => pos[t]);
  const s = c.slice().sort((x, y) => x - y);
  const C = (a, b) => (a < b ? 0n : fact(a) / (fact(b) * fact(a - b)));
  const M = s.reduce((m, sj, j) => m + C(sj, j + 1), 0n);
  const o = c.map((ci) => s.indexOf(ci));
  return Number(lehmer(o) * C(p.n, c.length) + M);
}

// A deterministic pseudo-random generator (LCG), so that failures repeat.
function rng(seed) {
  let x = seed >>> 0;
  return (m) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return Math.floor((x / 2 ** 32) * m);
  };
}

function shuffled(n, rnd) {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rnd(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

// the blank's moves from the goal: a solvable board, by construction
function walk(goal, w, moves, rnd) {
  const b = Array.from(goal);
  const n = b.length;
  let blank = b.indexOf(0);
  for (let i = 0; i < moves; i++) {
    const to = [blank - w, blank + w, blank % w > 0 ? blank - 1 : -1, blank % w < w - 1 ? blank + 1 : -1].filter((c) => c >= 0 && c < n);
    const c = to[rnd(to.length)];
    [b[blank], b[c]] = [b[c], b[blank]];
    blank = c;
  }
  return b;
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

test("BINOM is Pascal's triangle up to 64 cells, exact wherever it is below 2^53", () => {
  assert.equal(BINOM.length, 65);
  let big = [1n];
  for (let n = 1; n <= 64; n++) {
    big = Array.from({ length: n + 1 }, (_, r) => (r === 0 || r === n ? 1n : big[r - 1] + big[r]));
    for (let r = 0; r <= n; r++) {
      if (big[r] <= BigInt(Number.MAX_SAFE_INTEGER)) assert.equal(BINOM[n][r], Number(big[r]), `C(${n},${r})`);
    }
  }
  assert.equal(BINOM[64][6], 74974368);
});

test('lehmerRank past 32 values equals the transcription (n = 33..64)', () => {
  const rnd = rng(7);
  const fact = (m) => (m <= 1 ? 1n : BigInt(m) * fact(m - 1));
  for (let trial = 0; trial < 200; trial++) {
    const n = 33 + rnd(32);
    const k = 1 + rnd(6);
    const seq = shuffled(n, rnd).slice(0, k);
    let want = 0n;
    seq.forEach((x, i) => {
      const d = BigInt(x - seq.slice(0, i).filter((y) => y < x).length);
      want += (d * fact(n - 1 - i)) / fact(n - k);
    });
    assert.equal(lehmerRank(seq, n), Number(want), `n=${n} ${seq}`);
  }
});

test('cellset-order ranks on boards up to 8x8 equal the transcription (random states, every shape, up to 2^36 entries)', () => {
  const rnd = rng(2026);
  let checked = 0;
  for (let w = 2; w <= MAX_SIDE; w++) {
    for (let h = 2; h <= MAX_SIDE; h++) {
      const n = w * h;
      for (const goalName of ['blank-last', 'blank-first']) {
        const goal = goalFor(goalName, n);
        // the largest k whose table stays within 2^36 entries, and not n-2
        let k = 0;
        for (let size = 1; k < n - 3 && size * (n - k) <= MAX_ENTRIES; k++) size *= n - k;
        for (let trial = 0; trial < 20; trial++) {
          const kk = 1 + rnd(k);
          const tiles = shuffled(n - 1, rnd).slice(0, kk).map((t) => t + 1);
          const p = new Pattern(w, h, goal, tiles);
          assert.ok(p.size <= MAX_ENTRIES);
          const pos = positions(shuffled(n, rnd));
          const r = p.rank(pos);
          assert.ok(Number.isSafeInteger(r) && r >= 0 && r < p.size, `${p}: rank ${r} of ${p.size}`);
          assert.equal(r, direct(p, pos), `${p} ${Array.from(pos)}`);
          const cells = Array.from(p.tiles, (t) => pos[t]);
          assert.equal(r, orderRank(cells, kk) * p.comb + cellSetRank(cells, kk));
          checked++;
        }
      }
    }
  }
  assert.equal(checked, 49 * 2 * 20);
});

test('cellset-order is a bijection on 6x6 (k=3), 7x7 (k=3) and 8x8 (k=2), cells past 31 included', () => {
  for (const [w, h, k] of [[6, 6, 3], [7, 7, 3], [8, 8, 2], [8, 2, 4]]) {
    const n = w * h;
    const p = new Pattern(w, h, goalFor('blank-last', n), Array.from({ length: k }, (_, i) => n - 1 - i));
    const seen = new Uint8Array(p.size);
    const pos = new Uint8Array(n);
    let count = 0;
    const rec = (i, used) => {
      if (i === k) {
        const r = p.rank(pos);
        assert.ok(r >= 0 && r < p.size && !seen[r], `${p} ${Array.from(p.tiles, (t) => pos[t])}`);
        seen[r] = 1;
        count++;
        return;
      }
      for (let c = 0; c < n; c++) {
        if (used.has(c)) continue;
        pos[p.tiles[i]] = c;
        used.add(c);
        rec(i + 1, used);
        used.delete(c);
      }
    };
    rec(0, new Set());
    assert.equal(count, p.size);
  }
});

test('solvability on boards up to 8x8: walks from the goal are solvable, one swap of two tiles is not', () => {
  const rnd = rng(99);
  for (const [w, h] of [[6, 6], [7, 7], [8, 8], [8, 3], [2, 8], [5, 7]]) {
    const n = w * h;
    for (const goalName of ['blank-last', 'blank-first']) {
      const goal = goalFor(goalName, n);
      const p = new Pattern(w, h, goal, [1, 2]);
      for (let trial = 0; trial < 30; trial++) {
        const b = walk(goal, w, 1 + rnd(400), rnd);
        assert.ok(p.solvablePositions(positions(b)), `${w}x${h} ${b}`);
        assert.ok(solvableFrom(positions(b), p.goalPos, w, n));
        // swap two tiles (not the blank): the other parity class
        let i = rnd(n);
        let j = rnd(n);
        while (b[i] === 0) i = rnd(n);
        while (b[j] === 0 || j === i) j = rnd(n);
        [b[i], b[j]] = [b[j], b[i]];
        assert.ok(!p.solvablePositions(positions(b)), `${w}x${h} swapped ${b}`);
      }
    }
  }
});

test('Pattern rejects what puzzle.NewPattern rejects', () => {
  const bl = goalFor('blank-last', 9);
  assert.throws(() => new Pattern(9, 3, goalFor('blank-last', 27), [1]), /^BoardError: board 9x3: each side must be between 2 and 8$/);
  assert.throws(() => new Pattern(8, 1, goalFor('blank-last', 8), [1]), /each side must be between 2 and 8/);
  assert.throws(() => new Pattern(8, 8, goalFor('blank-last', 64), [1, 2, 3, 4, 5, 6, 7]), /7 tiles on a 8x8 board need more than 2\^36 entries/);
  assert.equal(new Pattern(8, 8, goalFor('blank-last', 64), [1, 2, 3, 4, 5, 6]).size, 64 * 63 * 62 * 61 * 60 * 59);
  assert.throws(() => new Pattern(3, 3, bl, []), /no tiles/);
  assert.throws(() => new Pattern(3, 3, bl, [1, 1]), /twice/);
  assert.throws(() => new Pattern(3, 3, bl, [9]), /does not exist/);
  assert.throws(() => new Pattern(3, 3, bl, [1, 2, 3, 4, 5, 6, 7]), /non-pattern tile/);
  assert.throws(() => new Pattern(3, 3, [1, 1, 2, 3, 4, 5, 6, 7, 8], [1]), /goal/);
  assert.throws(() => new Pattern(4, 4, goalFor('blank-last', 16), Array.from({ length: 15 }, (_, i) => i + 1)), /2\^36/);
});
