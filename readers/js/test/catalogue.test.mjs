// Catalogues (SPEC.md section 12, set file version 2): the maximum over
// partitions of additive sums. Built here from the parts of the set kit's
// good files (readers/testdata/sets), so that each partition is also a
// version-1 set file whose value the catalogue must take the maximum of.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { openSet, openSetBytes, readFile, SetFileError, TableSet } from '../tilepdb.mjs';
import { parseSetFile, mapPattern } from '../setfile.mjs';
import { Solver, applyMoves } from '../solver.mjs';
import { positions, Pattern } from '../rank.mjs';
import { root, here, tsv, specBlock as specBlockOf } from './helpers.mjs';

const setsDir = path.join(root, 'readers', 'testdata', 'sets');
const kitSet = (name) => JSON.parse(fs.readFileSync(path.join(setsDir, name), 'utf8'));
const goodA = kitSet('good-a.set.json'); // 2,3,4 and 5,9,13 through the table of 2,3,4
const goodB = kitSet('good-b.set.json'); // three corners through the table of 1,2,5
// a third partition through the table of 2,3,4 again (rot180 and flip-lr use of it are refused by
// its goal cells, so: the identity part alone)
const catalogue = (partitions) => ({ tilepdb_set: 2, width: 4, height: 4, goal: goodA.goal, partitions });
const parts3 = [goodA.parts[0]];
// good-a's partition with tiles 10,11,15 through their own table: 9 tiles, as good-b's
const own = async (name, tiles) => ({ tiles, table: name, table_tiles: tiles, symmetry: 'identity', tile_map: tiles, table_raw_sha256: (await readFile(path.join(setsDir, name))).header.raw_sha256 });
const partsA = [...goodA.parts, await own('4x4_10-11-15.pdb', [10, 11, 15])];

// withDir runs fn(dir) in a temporary folder holding the kit's 4x4 tables.
async function withDir(fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-'));
  try {
    for (const f of fs.readdirSync(setsDir)) if (f.startsWith('4x4_')) fs.copyFileSync(path.join(setsDir, f), path.join(dir, f));
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const write = (dir, name, obj) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof obj === 'string' ? obj : JSON.stringify(obj, null, 1));
  return file;
};

// Random solvable and unsolvable boards of the 4x4 board (a fixed seed).
function randomBoards(count, seed = 7) {
  let s = seed;
  const rnd = (n) => (s = (s * 1103515245 + 12345) % 2147483648) % n;
  const out = [];
  for (let i = 0; i < count; i++) {
    const b = Array.from({ length: 16 }, (_, c) => c);
    for (let c = 15; c > 0; c--) {
      const j = rnd(c + 1);
      [b[c], b[j]] = [b[j], b[c]];
    }
    out.push(b);
  }
  return out;
}

test('catalogue: the value is the maximum over its partitions of their sums, each partition read as a version-1 set file', async () => {
  await withDir(async (dir) => {
    const cat = await openSet([write(dir, 'cat.set.json', catalogue([partsA, goodB.parts, parts3]))]);
    assert.ok(cat.catalogue());
    assert.deepEqual(cat.partitions, [[0, 1, 2], [3, 4, 5], [6]]);
    assert.equal(cat.tables.length, 3, 'three distinct tables behind seven parts');
    const singles = [];
    for (const [i, ps] of [partsA, goodB.parts, parts3].entries()) {
      singles.push(await openSet([write(dir, `p${i}.set.json`, { ...catalogue(undefined), tilepdb_set: 1, partitions: undefined, parts: ps })]));
    }
    let a = 0;
    let b = 0;
    for (const board of randomBoards(3000)) {
      const pos = positions(board);
      const want = Math.max(...singles.map((s) => s.heuristic(pos)));
      assert.equal(cat.heuristic(pos), want, board.join(' '));
      const solvable = cat.parts[0].pattern.solvablePositions(pos);
      if (solvable) assert.equal(cat.lookup(board), want);
      if (singles[0].heuristic(pos) > singles[1].heuristic(pos)) a++;
      if (singles[1].heuristic(pos) > singles[0].heuristic(pos)) b++;
    }
    assert.ok(a > 100 && b > 100, `each of the first two partitions wins on some boards (${a}, ${b})`);
    // a catalogue of one partition is the set of that partition
    const one = await openSet([write(dir, 'one.set.json', catalogue([goodB.parts]))]);
    assert.ok(one.catalogue());
    for (const board of randomBoards(200, 3)) assert.equal(one.heuristic(positions(board)), singles[1].heuristic(positions(board)));
  });
});

test('catalogue: openSetBytes fetches each table once, however many partitions use it', async () => {
  const fetched = [];
  const table = async (name) => {
    fetched.push(name);
    return new Uint8Array(fs.readFileSync(path.join(setsDir, name)));
  };
  const set = await openSetBytes(JSON.stringify(catalogue([goodA.parts, goodB.parts, parts3, goodA.parts])), { name: 'c.set.json', table });
  assert.deepEqual(fetched.sort(), ['4x4_1-2-5.pdb', '4x4_2-3-4.pdb']);
  assert.equal(set.parts.length, 8);
  assert.equal(set.tables.length, 2);
});

test('catalogue: errors name the partition and the part (SPEC.md section 12 reading order)', async () => {
  const bad = (mutate) => {
    const c = structuredClone(catalogue([goodA.parts, goodB.parts]));
    mutate(c);
    return c;
  };
  const table = async (name) => new Uint8Array(fs.readFileSync(path.join(setsDir, name)));
  const cases = [
    [bad((c) => (c.tilepdb_set = 3)), 'set file version 3 is not supported (this reader supports 1 and 2)', undefined, undefined],
    [bad((c) => delete c.partitions), 'required key "partitions" is missing', undefined, undefined],
    [bad((c) => (c.partitions = {})), 'key "partitions": want an array of arrays, found object', undefined, undefined],
    [bad((c) => (c.partitions[1] = {})), 'partition 2: want an array, found object', undefined, 2],
    [bad((c) => (c.partitions[0][1] = [])), 'partition 1 part 2: want an object, found array', 2, 1],
    [bad((c) => delete c.partitions[1][2].tile_map), 'partition 2 part 3: required key "tile_map" is missing', 3, 2],
    [bad((c) => (c.partitions = [])), '0 partitions, want 1 to 64', undefined, undefined],
    [bad((c) => (c.partitions = Array(65).fill(goodA.parts))), '65 partitions, want 1 to 64', undefined, undefined],
    [bad((c) => (c.partitions[1] = [])), 'partition 2: 0 parts, want 1 to 15', undefined, 2],
    [bad((c) => (c.partitions[1] = Array(16).fill(goodA.parts[0]))), 'partition 2: 16 parts, want 1 to 15', undefined, 2],
    [bad((c) => (c.partitions[1][0].symmetry = 'rot45')), 'partition 2 part 1: bad symmetry: "rot45" is not one of identity, rot90, rot180, rot270, flip-lr, flip-tb, transpose, anti-transpose', 1, 2],
    [bad((c) => (c.partitions[1][2].tile_map = [1, 2, 5])), 'partition 2 part 3: tile_map [1 2 5], but flip-tb maps tiles [9 13 14] to [5 1 2]', 3, 2],
    [bad((c) => (c.partitions[1][1].table_tiles = [1, 2, 6])), 'partition 2 part 2: table "4x4_1-2-5.pdb" holds tiles [1 2 5], the set file says [1 2 6]', 2, 2],
    // within a partition the parts are disjoint; across partitions they may share tiles
    [bad((c) => c.partitions[1].push(goodA.parts[0])), 'c.set.json partition 2 part 4 (4x4 blank-last tiles 2,3,4) and c.set.json partition 2 part 1 (4x4 blank-last tiles 1,2,5) are not disjoint: both hold tile(s) 2', undefined, undefined],
  ];
  for (const [obj, msg, part, partition] of cases) {
    const err = await openSetBytes(JSON.stringify(obj), { name: 'c.set.json', table }).then(
      () => assert.fail(`accepted: ${msg}`),
      (e) => e,
    );
    assert.ok(err instanceof SetFileError, err.stack);
    const want = msg.includes('not disjoint') ? `tilepdb: invalid set: ${msg}` : `c.set.json: tilepdb: invalid set: ${msg}`;
    assert.equal(err.message, want);
    assert.equal(err.part, part, `${msg}: part`);
    assert.equal(err.partition, partition, `${msg}: partition`);
  }
  const sym = await openSetBytes(JSON.stringify(bad((c) => (c.partitions[1][1].symmetry = 'rot90'))), { name: 'c.set.json', table }).catch((e) => e);
  assert.equal(sym.message, 'c.set.json: partition 2 part 2 (tiles [3 4 8]) through table "4x4_1-2-5.pdb": tilepdb: invalid set: bad symmetry: rot90 maps the goal cell 2 of tile 3 of 4x4 blank-last tiles 3,4,8 to cell 11, which is not a goal cell of 4x4 blank-last tiles 1,2,5');
  const missing = await openSetBytes(JSON.stringify(bad((c) => (c.partitions[1][1].table = 'none.pdb'))), { name: 'c.set.json', table }).catch((e) => e);
  assert.match(missing.message, /^c\.set\.json: partition 2 part 2: none\.pdb: .*no such file/);
  // version 1 keeps "parts": a "partitions" key there is an unknown key, ignored
  assert.ok(parseSetFile(JSON.stringify({ ...goodA, partitions: 7 })).set);
  assert.equal(parseSetFile(JSON.stringify({ ...catalogue([goodA.parts]), parts: 7 })).set.partitions.length, 1);
});

test('catalogue: given with its own tables it is the same; with another table or set file it is refused, as pdbgen does', async () => {
  await withDir(async (dir) => {
    const file = write(dir, 'cat.set.json', catalogue([goodA.parts, goodB.parts]));
    const alone = await openSet([file]);
    const withTables = await openSet([path.join(dir, '4x4_2-3-4.pdb'), file, path.join(dir, '4x4_1-2-5.pdb')]);
    assert.deepEqual(withTables.partitions, alone.partitions);
    const pos = positions([12, 1, 3, 4, 2, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 5]);
    assert.equal(withTables.heuristic(pos), alone.heuristic(pos));
    const extra = path.join(dir, '4x4_10-11-15.pdb');
    await assert.rejects(openSet([file, extra]), {
      name: 'SetFileError',
      message: `${file}: tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with ${extra}`,
    });
    // an extra path is refused before it is read as a table
    const junk = write(dir, 'junk.pdb', 'not a table');
    await assert.rejects(openSet([junk, file]), { message: `${file}: tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with ${junk}` });
    const other = write(dir, 'other.set.json', catalogue([goodB.parts]));
    await assert.rejects(openSet([file, other]), { message: `${file}: tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with ${other}` });
    const additiveSet = write(dir, 'a.set.json', { tilepdb_set: 1, width: 4, height: 4, goal: goodA.goal, parts: goodA.parts });
    await assert.rejects(openSet([additiveSet, file]), { message: `${file}: tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with ${additiveSet}` });
    // the same catalogue twice, as pdbgen refuses it (the readers accepted it)
    await assert.rejects(openSet([file, file]), { name: 'SetFileError', message: `${file}: tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with ${file}` });
  });
});

test('catalogue: the command line answers the maximum and verify names the partitions', async () => {
  await withDir(async (dir) => {
    const file = write(dir, 'cat.set.json', catalogue([goodA.parts, goodB.parts]));
    const boards = randomBoards(50, 11);
    const set = await openSet([file]);
    const input = boards.map((b) => b.join(' ')).join('\n') + '\n';
    const r = spawnSync(process.execPath, [path.join(here, '..', 'cli.mjs'), 'lookup', file], { input, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const want = boards.map((b) => {
      const pos = positions(b);
      return `${b.join(' ')}\t${set.parts[0].pattern.solvablePositions(pos) ? set.heuristic(pos) : 'unsolvable'}\n`;
    });
    assert.equal(r.stdout, want.join(''));
    const v = spawnSync(process.execPath, [path.join(here, '..', 'cli.mjs'), 'verify', file], { encoding: 'utf8' });
    assert.equal(v.status, 0, v.stderr);
    assert.equal(v.stdout, `${file}: ok (catalogue, 4x4 board, 2 partitions of 5 parts through 2 tables)\n`);
  });
});

test('catalogue: TableSet.fromParts builds one from parts and partitions, in any order', async () => {
  await withDir(async (dir) => {
    const set = await openSet([write(dir, 'cat.set.json', catalogue([goodA.parts, goodB.parts]))]);
    const again = TableSet.fromParts(set.parts, undefined, undefined, set.partitions);
    const reordered = TableSet.fromParts([...set.parts].reverse(), undefined, undefined, [[4, 3], [2, 1, 0]]);
    for (const board of randomBoards(300, 5)) {
      const pos = positions(board);
      assert.equal(again.heuristic(pos), set.heuristic(pos));
      assert.equal(reordered.heuristic(pos), set.heuristic(pos));
    }
    assert.throws(() => TableSet.fromParts(set.parts, undefined, undefined, [[0, 1, 2]]), /part 3 .* and part 1 .* are not disjoint/);
  });
});

// walk: board after steps random blank moves (a fixed seed), never undoing the last move.
function walker(seed) {
  let s = seed;
  const rnd = (k) => (s = (s * 1103515245 + 12345) % 2147483648) % k;
  return (board, w, steps) => {
    const b = board.slice();
    const n = b.length;
    let z = b.indexOf(0);
    let last = -1;
    for (let i = 0; i < steps; i++) {
      const opts = [z - w, z + w, z % w ? z - 1 : -1, z % w !== w - 1 ? z + 1 : -1].filter((t) => t >= 0 && t < n && t !== last);
      const t = opts[rnd(opts.length)];
      [b[z], b[t]] = [b[t], b[z]];
      last = z;
      z = t;
    }
    return b;
  };
}

test('catalogue: IDA* with h = the maximum over the partitions is optimal, and its heuristic is the set\'s', async () => {
  await withDir(async (dir) => {
    const set = await openSet([write(dir, 'cat.set.json', catalogue([partsA, goodB.parts, parts3]))]);
    const a = await openSet([write(dir, 'a.set.json', { tilepdb_set: 1, width: 4, height: 4, goal: goodA.goal, parts: partsA })]);
    const solver = new Solver(set);
    const refl = new Solver(set, { reflect: true });
    const one = new Solver(a, { reflect: true });
    const walk = walker(17);
    let nodesCat = 0;
    let nodesOne = 0;
    for (let i = 0; i < 12; i++) {
      const board = walk(goodA.goal, 4, 30);
      assert.equal(solver.heuristic(board), set.lookup(board), board.join(' '));
      assert.ok(refl.heuristic(board) >= set.lookup(board));
      const r = solver.solve(board);
      const rr = refl.solve(board);
      const ro = one.solve(board);
      assert.equal(r.length, ro.length, board.join(' '));
      assert.equal(rr.length, ro.length, board.join(' '));
      assert.deepEqual(Array.from(applyMoves(board, 4, r.moves)), goodA.goal);
      assert.deepEqual(Array.from(applyMoves(board, 4, rr.moves)), goodA.goal);
      nodesCat += rr.nodes;
      nodesOne += ro.nodes;
    }
    assert.ok(nodesCat < nodesOne, `the catalogue searches fewer nodes than one of its partitions (${nodesCat}, ${nodesOne})`);
  });
});

test('catalogue: IDA* on a 3x3 board is optimal (breadth-first distances)', async () => {
  const sha = async (f) => (await readFile(path.join(setsDir, f))).header.raw_sha256;
  const part = async (f, tiles) => ({ tiles, table: f, table_tiles: tiles, symmetry: 'identity', tile_map: tiles, table_raw_sha256: await sha(f) });
  const goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
  const cat = { tilepdb_set: 2, width: 3, height: 3, goal, partitions: [[await part('3x3_1-2-3.pdb', [1, 2, 3])], [await part('3x3_2-4.pdb', [2, 4]), await part('3x3_6-8.pdb', [6, 8])]] };
  const set = await openSetBytes(JSON.stringify(cat), { table: (f) => new Uint8Array(fs.readFileSync(path.join(setsDir, f))) });
  const solver = new Solver(set, { reflect: true });
  // breadth-first distances from the goal
  const dist = new Map([[goal.join(','), 0]]);
  let frontier = [goal];
  for (let d = 1; frontier.length; d++) {
    const nextFrontier = [];
    for (const b of frontier) {
      const z = b.indexOf(0);
      for (const t of [z - 3, z + 3, z % 3 ? z - 1 : -1, z % 3 !== 2 ? z + 1 : -1]) {
        if (t < 0 || t > 8) continue;
        const c = b.slice();
        [c[z], c[t]] = [c[t], c[z]];
        const k = c.join(',');
        if (!dist.has(k)) {
          dist.set(k, d);
          nextFrontier.push(c);
        }
      }
    }
    frontier = nextFrontier;
  }
  let checked = 0;
  for (const [key, d] of dist) {
    if (checked++ % 1213) continue;
    const b = key.split(',').map(Number);
    const r = solver.solve(b);
    assert.equal(r.length, d, key);
    assert.deepEqual(Array.from(applyMoves(b, 3, r.moves)), goal);
    assert.ok(solver.heuristic(b) <= d);
  }
});

const korfSkip = fs.existsSync(path.join(root, 'data', '15-663_2-3-4.pdb')) ? false : 'run make data';
test("catalogue of the 6-6-3 tables as they are and transposed: the same search as the 6-6-3 set with the reflected lookup (Korf's 1, 2, 4)", { skip: korfSkip }, async () => {
  const names = ['15-663_1-5-6-9-10-13.pdb', '15-663_7-8-11-12-14-15.pdb', '15-663_2-3-4.pdb'];
  const tables = {};
  for (const f of names) tables[f] = await readFile(path.join(root, 'data', f));
  const p = (tiles, f, tableTiles, symmetry, tileMap) => ({ tiles, table: f, table_tiles: tableTiles, symmetry, tile_map: tileMap, table_raw_sha256: tables[f].header.raw_sha256 });
  const identity = [p([1, 5, 6, 9, 10, 13], names[0], [1, 5, 6, 9, 10, 13], 'identity', [1, 5, 6, 9, 10, 13]), p([7, 8, 11, 12, 14, 15], names[1], [7, 8, 11, 12, 14, 15], 'identity', [7, 8, 11, 12, 14, 15]), p([2, 3, 4], names[2], [2, 3, 4], 'identity', [2, 3, 4])];
  const transposed = [p([1, 2, 3, 4, 6, 7], names[0], [1, 5, 6, 9, 10, 13], 'transpose', [1, 5, 9, 13, 6, 10]), p([8, 10, 11, 12, 14, 15], names[1], [7, 8, 11, 12, 14, 15], 'transpose', [14, 7, 11, 15, 8, 12]), p([5, 9, 13], names[2], [2, 3, 4], 'transpose', [2, 3, 4])];
  const open = (partitions) => openSetBytes(JSON.stringify(catalogue(partitions)), { table: (f) => tables[f] });
  const plain = await openSet(names.map((f) => path.join(root, 'data', f)));
  // h = max(identity sum, transposed sum) is the 6-6-3 heuristic with the reflected lookup: the same nodes, one by one
  const cat = new Solver(await open([identity, transposed]));
  const reflected = new Solver(plain, { reflect: true });
  // two equal partitions: the 6-6-3 heuristic alone
  const twice = new Solver(await open([identity, identity]));
  const alone = new Solver(plain);
  const rows = tsv(path.join(root, 'solver', 'testdata', 'korf100.tsv'));
  for (const id of [1, 2, 4]) {
    const [, len, board] = rows[id - 1];
    const b = board.split(' ').map(Number);
    const r = cat.solve(b, { fromBlankFirst: true });
    assert.equal(r.length, Number(len), `instance ${id}`);
    assert.deepEqual(Array.from(applyMoves(b, 4, r.moves)), [...Array(16).keys()]);
    const want = reflected.solve(b, { fromBlankFirst: true });
    assert.equal(r.nodes, want.nodes, `instance ${id}: nodes`);
    assert.equal(r.moves, want.moves, `instance ${id}: moves`);
    assert.equal(twice.solve(b, { fromBlankFirst: true }).nodes, alone.solve(b, { fromBlankFirst: true }).nodes, `instance ${id}: nodes with two equal partitions`);
  }
});

// The catalogue vectors of SPEC.md 12.2 (format/testdata/catalogue_vectors.tsv):
// the catalogue its comment lines describe ("# partition I: TILES by SYM of
// TABLE; ..."), built from the set kit's tables, gives each part's value,
// each partition's sum and h on every board; read as a set file of version
// 2 it gives the same h.
test('SPEC.md 12.2 catalogue vectors: part values, partition sums and h', async () => {
  const file = path.join(root, 'format', 'testdata', 'catalogue_vectors.tsv');
  assert.equal(specBlockOf('catalogue-vectors'), fs.readFileSync(file, 'utf8'));
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const goal = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0];
  const tables = new Map();
  const table = async (name) => {
    if (!tables.has(name)) tables.set(name, await readFile(path.join(setsDir, name)));
    return tables.get(name);
  };
  const parts = [];
  const partitions = [];
  const specParts = [];
  for (const l of lines) {
    const m = /^# partition (\d+): (.*)$/.exec(l);
    if (!m) continue;
    assert.equal(Number(m[1]), partitions.length + 1);
    const idx = [];
    const sps = [];
    for (const d of m[2].split('; ')) {
      const [, tiles, sym, tname] = /^([\d,]+) by ([a-z0-9-]+) of (\S+)$/.exec(d);
      const t = await table(`${tname}.pdb`);
      const from = new Pattern(4, 4, goal, tiles.split(',').map(Number));
      const own = sym === 'identity' && from.tiles.join(',') === t.pattern.tiles.join(',');
      const mp = own ? null : mapPattern(from, t.pattern, sym);
      assert.ok(own || mp.map, d);
      idx.push(parts.length);
      parts.push({ pattern: from, table: t, symmetry: sym, map: own ? null : mp.map });
      sps.push({ tiles: Array.from(from.tiles), table: `${tname}.pdb`, table_tiles: Array.from(t.pattern.tiles), symmetry: sym, tile_map: Array.from(from.tiles, (x) => (own ? x : mp.map.tile[x])), table_raw_sha256: t.header.raw_sha256 });
    }
    partitions.push(idx);
    specParts.push(sps);
  }
  assert.equal(partitions.length, 3);
  const set = TableSet.fromParts(parts, undefined, undefined, partitions);
  const viaFile = await openSetBytes(JSON.stringify(catalogue(specParts)), { table: (n) => table(n) });
  const rows = tsv(file);
  assert.ok(rows.length >= 10, `${rows.length} vectors`);
  for (const [board, ...cols] of rows) {
    const b = board.split(' ').map(Number);
    const pos = positions(b);
    const h = Number(cols.pop());
    cols.forEach((col, k) => {
      const [values, sum] = col.split(' = ');
      assert.deepEqual(partitions[k].map((i) => TableSet.fromParts([parts[i]]).heuristic(pos)), values.split('+').map(Number), `${board}: partition ${k + 1}`);
      assert.equal(partitions[k].reduce((a, i) => a + TableSet.fromParts([parts[i]]).heuristic(pos), 0), Number(sum));
    });
    assert.equal(set.heuristic(pos), h, board);
    assert.equal(set.lookup(b), h, board);
    assert.equal(viaFile.heuristic(pos), h, board);
  }
});
