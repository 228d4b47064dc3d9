// SPEC.md section 7 value vectors, and lookups through the table API.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readFile, TableSet, BoardError } from '../tilepdb.mjs';
import { positions } from '../rank.mjs';
import { root, kitDir, dataDir, tsv, specBlock } from './helpers.mjs';

const vectorsTsv = path.join(root, 'format', 'testdata', 'vectors.tsv');

test('format/testdata/vectors.tsv is the block of SPEC.md section 7', () => {
  assert.equal(specBlock('value-vectors'), fs.readFileSync(vectorsTsv, 'utf8'));
});

// Where each named table is: 15-663_2-3-4 is in the kit (re-framed, same raw
// table); the others are the default tables built by `make data`.
const sources = {
  '15-663_2-3-4': path.join(kitDir, 'good-multiframe.pdb'),
  '8puzzle': path.join(dataDir, '8puzzle.pdb'),
  '15-555_1-2-3-4-7': path.join(dataDir, '15-555_1-2-3-4-7.pdb'),
};

for (const [name, file] of Object.entries(sources)) {
  const skip = fs.existsSync(file) ? false : `${path.relative(root, file)} not built (run make data)`;
  test(`SPEC.md value vectors: ${name}`, { skip }, async () => {
    const t = await readFile(file);
    const comment = fs.readFileSync(vectorsTsv, 'utf8').split('\n').find((l) => l.startsWith(`#   ${name}:`));
    assert.ok(comment.includes(`raw_sha256 ${t.header.raw_sha256}`), 'whole table matches the vectors file');
    assert.ok(comment.includes(`max_value ${t.header.max_value},`));
    const rows = tsv(vectorsTsv).filter((r) => r[0] === name);
    assert.equal(rows.length, 8);
    for (const [, board, rank, value] of rows) {
      const b = board.split(' ').map(Number);
      assert.equal(t.pattern.rank(positions(b)), Number(rank));
      assert.equal(t.lookup(b), Number(value));
      assert.equal(t.value(positions(b)), Number(value));
    }
  });
}

test('checked lookup refuses bad boards; exact tables refuse unsolvable ones', async () => {
  const t = await readFile(path.join(kitDir, 'good-exact.pdb'));
  assert.equal(t.lookup([1, 2, 3, 4, 5, 0]), 0);
  assert.throws(() => t.lookup([1, 2, 3, 4, 0, 5, 6]), BoardError);
  assert.throws(() => t.lookup([1, 1, 3, 4, 5, 0]), /appears twice/);
  assert.throws(() => t.lookup([2, 1, 3, 4, 5, 0]), /not solvable for goal blank-last/);
  const a = await readFile(path.join(kitDir, 'good-additive.pdb'));
  assert.equal(a.lookup([4, 1, 0, 3, 2, 5, 6, 7, 8]), a.values[92]);
});

test('TableSet: sums disjoint tables, refuses overlapping, mixed and exact-with-others', async () => {
  const a = await readFile(path.join(kitDir, 'good-additive.pdb'));
  const e = await readFile(path.join(kitDir, 'good-exact.pdb'));
  const s = new TableSet([a]);
  assert.equal(s.heuristicBoard([4, 1, 0, 3, 2, 5, 6, 7, 8]), a.values[92]);
  assert.throws(() => new TableSet([a, a]), /not disjoint: both hold tile\(s\) 1,2,3/);
  assert.throws(() => new TableSet([a, e]), /board/);
  assert.throws(() => new TableSet([e, e]), /exact table and must be used alone/);
  assert.throws(() => new TableSet([]), /empty set/);
});

test('default 6-6-3 set sums like the Go reader on the goal and Korf #1 (blank-last form)', { skip: fs.existsSync(path.join(dataDir, '15-663_2-3-4.pdb')) ? false : 'run make data' }, async () => {
  const names = ['15-663_1-5-6-9-10-13', '15-663_7-8-11-12-14-15', '15-663_2-3-4'];
  const tables = [];
  for (const n of names) tables.push(await readFile(path.join(dataDir, `${n}.pdb`)));
  const set = new TableSet(tables);
  assert.equal(set.heuristicBoard([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]), 0);
  // every table's values never exceed the exact distance; the sum is admissible for a 1-move state
  assert.equal(set.heuristicBoard([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15]), 1);
});
