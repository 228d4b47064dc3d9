// The lookup command line (cli.mjs) against the contract of pdbgen lookup;
// scripts/check-readers.sh compares it with pdbgen itself.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { here, kitDir } from './helpers.mjs';

const cli = path.join(here, '..', 'cli.mjs');
const exact = path.join(kitDir, 'good-exact.pdb'); // 3x2, blank-last, exact
const additive = path.join(kitDir, 'good-additive.pdb'); // 3x3, blank-last

const run = (files, input) => {
  const r = spawnSync(process.execPath, [cli, 'lookup', ...files], { input, maxBuffer: 1 << 26 });
  return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
};

test('lookup: unsolvable boards are answered, exit 0, for exact and additive tables', () => {
  assert.deepEqual(run([exact], '2 1 3 4 5 0\n1 2 3 4 5 0\n'), { code: 0, out: '2 1 3 4 5 0\tunsolvable\n1 2 3 4 5 0\t0\n', err: '' });
  assert.deepEqual(run([additive], '1 4 0 3 2 5 6 7 8\n'), { code: 0, out: '1 4 0 3 2 5 6 7 8\tunsolvable\n', err: '' });
});

test('lookup: BOM skipped, long lines of any length reported and skipped, later lines answered', () => {
  const input = Buffer.concat([
    Buffer.from('\ufeff1 2 3 4 5 0\r\n'),
    Buffer.alloc((2 << 20) + 5, '7'),
    Buffer.from('\n1 2\n\u00a01 2 3 4 5 0\n1 2 3 4 0 5'),
  ]);
  assert.deepEqual(run([exact], input), {
    code: 1,
    out: '1 2 3 4 5 0\t0\n1 2 3 4 0 5\t1\n',
    err: 'line 2: line longer than 4096 bytes\nline 3: bad board: 2 cells, want 6\nline 4: bad board: cell 0: "\\u00a01" is not a tile number or blank (0, x, _)\ntilepdb-js lookup: 3 bad line(s)\n',
  });
});

test('lookup: each answer is written before the next line arrives', async () => {
  const child = spawn(process.execPath, [cli, 'lookup', exact]);
  let out = '';
  let waiting = null;
  child.stdout.on('data', (d) => {
    out += d;
    if (waiting && out === waiting.want) waiting.resolve();
  });
  const got = (want) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no answer while the input is open; stdout so far ${JSON.stringify(out)}`)), 20000);
      waiting = { want, resolve: () => { clearTimeout(t); resolve(); } };
      if (out === want) waiting.resolve();
    });
  try {
    child.stdin.write('1 2 3 4 5 0\n');
    await got('1 2 3 4 5 0\t0\n');
    child.stdin.write('2 1 3 4 5 0\n');
    await got('1 2 3 4 5 0\t0\n2 1 3 4 5 0\tunsolvable\n');
  } finally {
    child.stdin.end();
  }
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0);
});

test('lookup: usage and file errors exit 2, a corrupt table 1', () => {
  assert.equal(run([], '').code, 2);
  const missing = run([path.join(kitDir, 'nonexistent.pdb')], '');
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^tilepdb-js lookup: open .*nonexistent\.pdb: no such file or directory\n$/);
  assert.equal(run([path.join(kitDir, 'bad-magic.pdb')], '').code, 1);
});

test('lookup: tables that do not combine are bad data (exit 1), in pdbgen\'s words', () => {
  const sets = path.join(here, '..', '..', 'testdata', 'sets');
  const t = (name) => path.join(sets, name);
  for (const [files, msg] of [
    [[t('4x4_2-3-4.pdb'), t('4x4_3-4-8.pdb')], `${t('4x4_3-4-8.pdb')} (4x4 blank-last tiles 3,4,8) and ${t('4x4_2-3-4.pdb')} (4x4 blank-last tiles 2,3,4) are not disjoint: both hold tile(s) 3,4`],
    [[t('3x2.pdb'), t('3x2_1.pdb')], `${t('3x2.pdb')} (3x2 blank-last exact (all tiles)) is an exact table and must be used alone, not in a set of 2`],
    [[t('3x3_1-2-3.pdb'), t('4x4_5-9-13.pdb')], `${t('4x4_5-9-13.pdb')} (4x4 blank-last tiles 5,9,13) is for a 4x4 board, ${t('3x3_1-2-3.pdb')} (3x3 blank-last tiles 1,2,3) for 3x3`],
    [[t('4x4_5-9-13.pdb'), t('4x4-bf_1-2-3.pdb')], `${t('4x4-bf_1-2-3.pdb')} (4x4 blank-first tiles 1,2,3) has goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", ${t('4x4_5-9-13.pdb')} has goal "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"`],
  ]) {
    assert.deepEqual(run(files, ''), { code: 1, out: '', err: `tilepdb-js lookup: tilepdb: ${msg}\n` });
  }
});

test('lookup: set files (SPEC.md section 10) as pdbgen takes them; a bad set file is bad data (exit 1)', () => {
  const sets = path.join(here, '..', '..', 'testdata', 'sets');
  const good = path.join(sets, 'good-3x2.set.json'); // tile 1, and tile 3 by flip-lr through the table of tile 1
  const r = run([good], '1 2 3 4 5 0\n1 2 0 4 5 3\n2 1 3 4 5 0\n');
  assert.equal(r.code, 0, r.err);
  // 1 2 0 4 5 3: one move of tile 3 from the goal (its part counts it: 1); 2 1 3 4 5 0: the other parity class
  assert.equal(r.out, '1 2 3 4 5 0\t0\n1 2 0 4 5 3\t1\n2 1 3 4 5 0\tunsolvable\n');
  const bad = path.join(sets, 'bad-blank-region.set.json');
  const b = run([bad], '');
  assert.equal(b.code, 1);
  assert.match(b.err, /^tilepdb-js lookup: .*bad-blank-region\.set\.json: part 1 \(tiles \[6 8\]\) through table "3x3_2-4\.pdb": tilepdb: invalid set: bad symmetry: rot180 maps the blank's goal region/);
  const missing = run([path.join(sets, 'bad-table-missing.set.json')], '');
  assert.equal(missing.code, 2);
  assert.match(missing.err, /part 2: open .*nonexistent\.pdb: no such file or directory\n$/);
});
