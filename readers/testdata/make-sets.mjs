// Regenerates readers/testdata/sets/: small set files (format/SPEC.md
// section 10) and catalogues (set file version 2, section 12), good ones
// and ones that break one MUST of section 10 or 12 each,
// with the tables they name (built by pdbgen), and index.tsv giving what a
// reader must do with each. Shared by the JavaScript and Java readers'
// tests and compared with pdbgen by scripts/check-readers.sh.
//
//   make build && node readers/testdata/make-sets.mjs [bin/pdbgen]
//
// The good set files are accepted by pdbgen (checked here); their tile_map
// lists come from a direct transcription of the formula of section 10,
// π(t) = goal[σ(goal cell of t)]. For each file, index.tsv records
// (tab-separated):
//   file      the set file
//   expect    ok, or error
//   exit      the exit status of `lookup FILE < /dev/null`: 0 ok, 1 bad data
//             (a bad set file or table), 2 trouble (a missing table file)
//   check     go: the readers print pdbgen's final error line exactly (JSON
//             syntax and key errors included: the three parsers share their
//             words and byte offsets, SPEC.md section 10.3);
//             status: only the exit status is compared (a file that is read
//             as a table, whose errors each reader words its own way);
//             spec: pdbgen does not follow SPEC.md here (it accepts the file),
//             the readers must refuse it with the message given
//   message   the final error line of `lookup` without "<prog> lookup: ",
//             with the set files' folder written {dir}; "-" for ok
//   about     what the file is
// Tables (pdbgen's file names, format 2): the parts' own tables
// (4x4_3-4-8.pdb ...) are there to check symmetric lookups against tables
// built for the part's own tiles.

import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';

const pdbgen = path.resolve(process.argv[2] ?? 'bin/pdbgen');
const out = path.join(path.dirname(new URL(import.meta.url).pathname), 'sets');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'make-sets-'));

// Tables: [board, tiles, goal, zero-aware].
const tables = [
  ['4x4', '2,3,4', 'blank-last', true],
  ['4x4', '1', 'blank-last'],
  ['4x4', '2,3,4', 'blank-last'],
  ['4x4', '1,2,5', 'blank-last'],
  ['4x4', '3,4,8', 'blank-last'],
  ['4x4', '9,13,14', 'blank-last'],
  ['4x4', '5,9,13', 'blank-last'],
  ['4x4', '4,8,12', 'blank-last'],
  ['4x4', '10,11,15', 'blank-last'],
  ['4x4', '1,2,3', 'blank-first'],
  ['4x4', '4,8,12', 'blank-first'],
  ['3x2', '1', 'blank-last'],
  ['3x2', '3', 'blank-last'],
  ['3x2', '1-5', 'blank-last'],
  ['3x3', '1,2,3', 'blank-last'],
  ['3x3', '2,4', 'blank-last'],
  ['3x3', '6,8', 'blank-last'],
];
for (const [board, tiles, goal, zeroAware] of tables) {
  const za = zeroAware ? ['--zero-aware'] : [];
  const printed = execFileSync(pdbgen, ['build', '--quiet', '--board', board, '--tiles', tiles, '--goal', goal, ...za, '-o', tmp], { encoding: 'utf8' });
  for (const f of printed.trim().split('\n')) fs.copyFileSync(f, path.join(out, path.basename(f)));
}
const info = (f) => JSON.parse(execFileSync(pdbgen, ['info', '--json', path.join(out, f)], { encoding: 'utf8' }));
const rawSHA = (f) => info(f).raw_sha256;
// A corrupt copy of 4x4_2-3-4.pdb: one payload byte changed (payload_sha256 no longer matches).
const good234 = fs.readFileSync(path.join(out, '4x4_2-3-4.pdb'));
const corrupt = Buffer.from(good234);
corrupt[corrupt.length - 20] ^= 0xff;
fs.writeFileSync(path.join(out, 'corrupt_2-3-4.pdb'), corrupt);

// SPEC.md section 10: σ on (r, c) of a W x H board, and π(t) = goal[σ(g_t)].
function sigma(sym, w, h, cell) {
  const r = Math.floor(cell / w);
  const c = cell % w;
  const rc = {
    identity: [r, c],
    rot180: [h - 1 - r, w - 1 - c],
    'flip-lr': [r, w - 1 - c],
    'flip-tb': [h - 1 - r, c],
    rot90: [c, h - 1 - r],
    rot270: [w - 1 - c, r],
    transpose: [c, r],
    'anti-transpose': [w - 1 - c, h - 1 - r],
  }[sym];
  return rc[0] * w + rc[1];
}
const goalOf = (name, n) => Array.from({ length: n }, (_, i) => (name === 'blank-first' ? i : (i + 1) % n));
function part(w, h, goal, tiles, sym, table, tableTiles) {
  const gpos = [];
  goal.forEach((t, c) => (gpos[t] = c));
  const tileMap = tiles.map((t) => goal[sigma(sym, w, h, gpos[t])]);
  return { tiles, table, table_tiles: tableTiles, symmetry: sym, tile_map: tileMap, table_raw_sha256: rawSHA(table) };
}
function set(w, h, goalName, parts) {
  const goal = goalOf(goalName, w * h);
  return { tilepdb_set: 1, width: w, height: h, goal, parts: parts.map((p) => part(w, h, goal, ...p)) };
}
// A catalogue (SPEC.md section 12): partitions, each a list of parts as
// for set().
function catalogue(w, h, goalName, partitions) {
  const goal = goalOf(goalName, w * h);
  return { tilepdb_set: 2, width: w, height: h, goal, partitions: partitions.map((ps) => ps.map((p) => part(w, h, goal, ...p))) };
}
// The layout pdbgen writes: one key per line, one line per part (for a
// catalogue, each partition between lines "[" and "]").
function marshal(s) {
  const head = Object.entries(s)
    .filter(([k]) => k !== 'parts' && k !== 'partitions')
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  if ('partitions' in s) {
    const ps = s.partitions.map((ps) => `    [\n${ps.map((p) => `      ${JSON.stringify(p)}`).join(',\n')}\n    ]`);
    return `{\n${head.join(',\n')},\n  "partitions": [\n${ps.join(',\n')}\n  ]\n}\n`;
  }
  const parts = (s.parts ?? []).map((p) => `    ${JSON.stringify(p)}`);
  return `{\n${head.join(',\n')},\n  "parts": [\n${parts.join(',\n')}\n  ]\n}\n`;
}

const T234 = '4x4_2-3-4.pdb';
const T125 = '4x4_1-2-5.pdb';
// good-a is the example of SPEC.md section 10.
const goodA = () => set(4, 4, 'blank-last', [
  [[2, 3, 4], 'identity', T234, [2, 3, 4]],
  [[5, 9, 13], 'transpose', T234, [2, 3, 4]],
]);
const goodB = () => set(4, 4, 'blank-last', [
  [[1, 2, 5], 'identity', T125, [1, 2, 5]],
  [[3, 4, 8], 'rot270', T125, [1, 2, 5]],
  [[9, 13, 14], 'flip-tb', T125, [1, 2, 5]],
]);
const good3x2 = () => set(3, 2, 'blank-last', [
  [[1], 'identity', '3x2_1.pdb', [1]],
  [[3], 'flip-lr', '3x2_1.pdb', [1]],
]);
const goodBF = () => set(4, 4, 'blank-first', [
  [[1, 2, 3], 'identity', '4x4-bf_1-2-3.pdb', [1, 2, 3]],
  [[4, 8, 12], 'transpose', '4x4-bf_1-2-3.pdb', [1, 2, 3]],
]);
// Catalogues (SPEC.md section 12). goodCat: three partitions sharing the
// tables of 2,3,4 and 1,2,5 (identity, transpose, rot270, flip-tb), its
// third partition reusing a part of the first and one of the second.
const TZA = '4x4_2-3-4_za.pdb';
const goodCat = () => catalogue(4, 4, 'blank-last', [
  [[[2, 3, 4], 'identity', T234, [2, 3, 4]], [[5, 9, 13], 'transpose', T234, [2, 3, 4]]],
  [[[1, 2, 5], 'identity', T125, [1, 2, 5]], [[3, 4, 8], 'rot270', T125, [1, 2, 5]]],
  [[[2, 3, 4], 'identity', T234, [2, 3, 4]], [[9, 13, 14], 'flip-tb', T125, [1, 2, 5]]],
]);
const goodCatZA = () => catalogue(4, 4, 'blank-last', [
  [[[2, 3, 4], 'identity', TZA, [2, 3, 4]], [[5, 9, 13], 'transpose', TZA, [2, 3, 4]], [[1], 'identity', '4x4_1.pdb', [1]]],
  [[[1, 2, 5], 'identity', T125, [1, 2, 5]], [[3, 4, 8], 'rot270', T125, [1, 2, 5]]],
  [[[2, 3, 4], 'identity', T234, [2, 3, 4]], [[5, 9, 13], 'transpose', TZA, [2, 3, 4]]],
]);
const cat3x2 = () => catalogue(3, 2, 'blank-last', [
  [[[1], 'identity', '3x2_1.pdb', [1]], [[3], 'flip-lr', '3x2_1.pdb', [1]]],
  [[[3], 'identity', '3x2_3.pdb', [3]]],
]);
const edit = (make, f) => () => {
  const s = make();
  f(s);
  return s;
};

// [file, check, about, content (object, or a string written as is)]
const cases = [
  ['good-a.set.json', 'go', 'SPEC.md example: tiles 2,3,4 and, by transpose, 5,9,13 through one table', goodA],
  ['good-b.set.json', 'go', 'three corner patterns through the table of tiles 1,2,5 (identity, rot270, flip-tb)', goodB],
  ['good-3x2.set.json', 'go', '3x2 board (not square): tile 3 through the table of tile 1 by flip-lr', good3x2],
  ['good-blank-first.set.json', 'go', 'blank-first goal: tiles 4,8,12 through the table of 1,2,3 by transpose', goodBF],
  ['good-layout.set.json', 'go', 'good-a in another JSON layout, keys reordered, with an unknown key', () => {
    const s = goodA();
    return JSON.stringify({ comment: 'unknown keys are ignored', parts: s.parts.map((p) => Object.fromEntries(Object.entries(p).reverse())), goal: s.goal, height: 4, width: 4, tilepdb_set: 1 });
  }],
  ['bad-version.set.json', 'go', 'tilepdb_set 3', edit(goodA, (s) => (s.tilepdb_set = 3))],
  ['bad-version-missing.set.json', 'go', 'no tilepdb_set key', edit(goodA, (s) => delete s.tilepdb_set)],
  ['bad-board.set.json', 'go', 'width 9', edit(goodA, (s) => (s.width = 9))],
  ['bad-goal-length.set.json', 'go', 'goal of 15 cells on 4x4', edit(goodA, (s) => s.goal.pop())],
  ['bad-goal-range.set.json', 'go', 'goal cell holding 16', edit(goodA, (s) => (s.goal[15] = 16))],
  ['bad-goal-duplicate.set.json', 'go', 'goal with tile 1 twice, no blank', edit(goodA, (s) => (s.goal[15] = 1))],
  ['bad-goal-other.set.json', 'go', 'set goal blank-first, tables blank-last', edit(goodA, (s) => (s.goal = goalOf('blank-first', 16)))],
  ['bad-board-other.set.json', 'go', 'set on 4x4, table on 3x3', edit(goodA, (s) => {
    s.parts[0].table = '3x3_1-2-3.pdb';
    s.parts[0].table_raw_sha256 = rawSHA('3x3_1-2-3.pdb');
  })],
  ['bad-no-parts.set.json', 'go', 'empty parts', edit(goodA, (s) => (s.parts = []))],
  ['bad-too-many-parts.set.json', 'go', '6 parts on a 3x2 board (at most 5)', edit(good3x2, (s) => {
    s.parts = [s.parts[0], s.parts[1], s.parts[1], s.parts[1], s.parts[1], s.parts[1]];
  })],
  ['bad-tiles-order.set.json', 'go', 'part tiles not ascending', edit(goodA, (s) => (s.parts[1].tiles = [9, 5, 13]))],
  ['bad-tiles-range.set.json', 'go', 'part tile 0 (the blank)', edit(goodA, (s) => (s.parts[1].tiles = [0, 5, 9]))],
  ['bad-tiles-empty.set.json', 'go', 'part with no tiles', edit(goodA, (s) => (s.parts[1].tiles = []))],
  ['bad-tiles-n-2.set.json', 'go', '4 of 5 tiles on 3x2 (one non-pattern tile)', edit(good3x2, (s) => (s.parts[1].tiles = [2, 3, 4, 5]))],
  ['bad-table-slash.set.json', 'go', 'table name with /', edit(goodA, (s) => (s.parts[1].table = `../sets/${T234}`))],
  ['bad-table-backslash.set.json', 'go', 'table name with \\', edit(goodA, (s) => (s.parts[1].table = `sets\\${T234}`))],
  ['bad-table-colon.set.json', 'go', 'table name with :', edit(goodA, (s) => (s.parts[1].table = `c:${T234}`))],
  ['bad-table-dotdot.set.json', 'go', 'table name ..', edit(goodA, (s) => (s.parts[1].table = '..'))],
  ['bad-table-empty.set.json', 'go', 'table name empty', edit(goodA, (s) => (s.parts[1].table = ''))],
  ['bad-table-missing.set.json', 'go', 'table file that does not exist (trouble, exit 2)', edit(goodA, (s) => (s.parts[1].table = 'nonexistent.pdb'))],
  ['bad-table-corrupt.set.json', 'go', 'table file with a corrupt payload (the table error, exit 1)', edit(goodA, (s) => (s.parts[1].table = 'corrupt_2-3-4.pdb'))],
  ['bad-table-tiles.set.json', 'go', 'table_tiles differ from the table header', edit(goodA, (s) => (s.parts[1].table_tiles = [2, 3, 5]))],
  ['bad-table-sha.set.json', 'go', 'table_raw_sha256 differs from the table header', edit(goodA, (s) => (s.parts[1].table_raw_sha256 = '0'.repeat(64)))],
  ['bad-symmetry-name.set.json', 'go', 'symmetry rot45', edit(goodA, (s) => (s.parts[1].symmetry = 'rot45'))],
  ['bad-symmetry-square-only.set.json', 'go', 'transpose on a 3x2 board', edit(good3x2, (s) => (s.parts[1].symmetry = 'transpose'))],
  ['bad-symmetry-cells.set.json', 'go', 'rot90 does not map the goal cells of 5,9,13 onto those of 2,3,4', edit(goodA, (s) => (s.parts[1].symmetry = 'rot90'))],
  ['bad-symmetry-identity.set.json', 'go', 'identity with other tiles than the table', edit(goodA, (s) => (s.parts[1].symmetry = 'identity'))],
  ['bad-tile-count.set.json', 'go', 'part of 2 tiles through a table of 3', edit(goodA, (s) => {
    s.parts[1].tiles = [5, 9];
    s.parts[1].tile_map = [2, 3];
  })],
  ['bad-tile-map.set.json', 'go', 'tile_map other than π', edit(goodA, (s) => (s.parts[1].tile_map = [2, 4, 3]))],
  ['bad-tile-map-missing.set.json', 'go', 'no tile_map', edit(goodA, (s) => delete s.parts[1].tile_map)],
  ['bad-overlap.set.json', 'go', 'parts 2,3,4 and 4,8,12 (anti-transpose, valid alone) share tile 4', edit(goodA, (s) => {
    s.parts[1] = part(4, 4, s.goal, [4, 8, 12], 'anti-transpose', T234, [2, 3, 4]);
  })],
  ['bad-blank-region.set.json', 'go', '3x3: tiles 6,8 by rot180 onto 2,4: goal cells match, the blank\'s goal regions do not', () => set(3, 3, 'blank-last', [[[6, 8], 'rot180', '3x3_2-4.pdb', [2, 4]]])],
  ['bad-exact.set.json', 'go', 'an exact table (3x2, all tiles) as a part', () => set(3, 2, 'blank-last', [[[1, 2, 3, 4, 5], 'identity', '3x2.pdb', [1, 2, 3, 4, 5]]])],
  ['bad-json-syntax.set.json', 'go', 'truncated JSON', () => marshal(goodA()).slice(0, 60)],
  ['bad-json-type.set.json', 'go', 'width is a string', () => marshal(goodA()).replace('"width": 4', '"width": "4"')],
  ['bad-json-fraction.set.json', 'go', 'width 4.0 (not an integer)', () => marshal(goodA()).replace('"width": 4', '"width": 4.0')],
  ['bad-json-array.set.json', 'status', 'a JSON array: not a set file (first byte not {), so read as a table file (bad magic)', () => `[${marshal(goodA())}]`],
  ['bad-json-trailing.set.json', 'go', 'data after the JSON object', () => `${marshal(goodA())}{}\n`],
  // SPEC.md section 10.1 (JSON rules), 10.2 (required keys, limits), 10.3 (telling a set file from a table)
  ['good-space.set.json', 'go', 'white space before the JSON object: still a set file', () => `\n \t\r\n${marshal(goodA())}`],
  ['good-unknown-case.set.json', 'go', 'an unknown key "WIDTH": 5 next to "width": 4 is ignored (keys are case-sensitive)', () => marshal(goodA()).replace('"width": 4', '"WIDTH": 5,\n  "width": 4')],
  ['good-minus-zero.set.json', 'go', 'an unknown key holding -0, an integer', () => marshal(goodA()).replace('"width": 4', '"zero": -0,\n  "width": 4')],
  ['bad-json-case.set.json', 'go', 'key "Width" for "width" (keys are case-sensitive: width is missing)', () => marshal(goodA()).replace('"width"', '"Width"')],
  ['bad-json-duplicate.set.json', 'go', 'key "width" twice, same value', () => marshal(goodA()).replace('"width": 4', '"width": 4,\n  "width": 4')],
  ['bad-json-duplicate-part.set.json', 'go', 'key "table" twice in part 2', () => marshal(goodA()).replace(/("symmetry":"transpose")/, '"table":"4x4_2-3-4.pdb",$1')],
  ['bad-json-duplicate-unknown.set.json', 'go', 'a duplicate key inside the value of an unknown key', () => marshal(goodA()).replace('"width": 4', '"x": {"a": 1, "a": 1},\n  "width": 4')],
  ['bad-json-bom.set.json', 'go', 'a UTF-8 byte-order mark before the JSON object (a set file, refused)', () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(marshal(goodA()))])],
  ['bad-json-utf8.set.json', 'go', 'a byte that is not UTF-8 (0xff) in the value of an unknown key', () => Buffer.from(marshal(goodA()).replace('"width": 4', '"x": "?",\n  "width": 4').replace('"?"', '"\xff"'), 'latin1')],
  ['bad-json-surrogate.set.json', 'go', 'a \\u escape of a lone surrogate (\\ud800) in an unknown key', () => marshal(goodA()).replace('"width": 4', '"x": "\\ud800",\n  "width": 4')],
  ['bad-json-null.set.json', 'go', 'width null', () => marshal(goodA()).replace('"width": 4', '"width": null')],
  ['bad-json-missing.set.json', 'go', 'no goal key', edit(goodA, (s) => delete s.goal)],
  ['bad-json-element.set.json', 'go', 'goal cell 3 is a string', () => marshal(goodA()).replace('"goal": [1,2,3,4,', '"goal": [1,2,3,"4",')],
  ['bad-json-part-type.set.json', 'go', 'part 2 is an array, not an object', () => marshal(goodA()).replace(/\{"tiles":\[5,9,13\][^\n]*\}/, '[5,9,13]')],
  ['bad-json-deep.set.json', 'go', 'an unknown key nested 100,000 arrays deep (at most 64 levels)', () => marshal(goodA()).replace('"width": 4', `"x": ${'['.repeat(100000)}${']'.repeat(100000)},\n  "width": 4`)],
  ['bad-table-control.set.json', 'go', 'table name with a NUL character (printed escaped)', edit(goodA, (s) => (s.parts[1].table = 'a\u0000b.pdb'))],
  ['bad-table-long.set.json', 'go', 'table name of 256 bytes (at most 255)', edit(goodA, (s) => (s.parts[1].table = `${'a'.repeat(252)}.pdb`))],
  // Catalogues: set file version 2 (SPEC.md section 12)
  ['good-catalogue.set.json', 'go', 'catalogue of three partitions through the tables of 2,3,4 and 1,2,5 (identity, transpose, rot270, flip-tb); partition 3 reuses parts of 1 and 2', goodCat],
  ['good-catalogue-one.set.json', 'go', 'catalogue of one partition (good-a\'s parts): still a catalogue', () => catalogue(4, 4, 'blank-last', [goodA().parts.map((p) => [p.tiles, p.symmetry, p.table, p.table_tiles])])],
  ['good-catalogue-zero-aware.set.json', 'go', 'catalogue mixing the zero-aware table of 2,3,4 (identity, transpose) with plain tables, the plain and zero-aware tables of 2,3,4 in one partition', goodCatZA],
  ['good-catalogue-3x2.set.json', 'go', 'catalogue on a 3x2 board: tile 3 by flip-lr through the table of 1, then through its own table', cat3x2],
  ['good-catalogue-parts-key.set.json', 'go', 'catalogue with a top-level "parts" key: an unknown key in version 2, ignored', () => marshal(goodCat()).replace('"width": 4', '"parts": [],\n  "width": 4')],
  ['bad-catalogue-version-1.set.json', 'go', 'partitions in a set file of version 1 (which needs parts)', edit(goodCat, (s) => (s.tilepdb_set = 1))],
  ['bad-catalogue-partitions-missing.set.json', 'go', 'version 2 with parts instead of partitions', edit(goodA, (s) => (s.tilepdb_set = 2))],
  ['bad-catalogue-partitions-null.set.json', 'go', 'partitions null', () => marshal(goodCat()).replace(/"partitions": \[[^]*\n {2}\]/, '"partitions": null')],
  ['bad-catalogue-partitions-type.set.json', 'go', 'partitions an object', () => marshal(goodCat()).replace(/"partitions": \[[^]*\n {2}\]/, '"partitions": {}')],
  ['bad-catalogue-partitions-empty.set.json', 'go', 'no partitions', edit(goodCat, (s) => (s.partitions = []))],
  ['bad-catalogue-partitions-too-many.set.json', 'go', '65 partitions (at most 64)', edit(goodCat, (s) => (s.partitions = Array.from({ length: 65 }, (_, i) => s.partitions[i % 3])))],
  ['bad-catalogue-partition-type.set.json', 'go', 'partition 2 is an object, not an array', () => marshal(goodCat()).replace(/\n {4}\[\n {6}\{"tiles":\[1,2,5\][^]*?\n {4}\]/, '\n    {"tiles":[1,2,5]}')],
  ['bad-catalogue-partition-empty.set.json', 'go', 'partition 2 has no parts', edit(goodCat, (s) => (s.partitions[1] = []))],
  ['bad-catalogue-partition-too-many-parts.set.json', 'go', 'partition 2 of 6 parts on a 3x2 board (at most 5)', edit(cat3x2, (s) => {
    s.partitions[1] = [s.partitions[0][0], ...Array(5).fill(s.partitions[1][0])];
  })],
  ['bad-catalogue-part-type.set.json', 'go', 'partition 2 part 1 is an array, not an object', () => marshal(goodCat()).replace(/\{"tiles":\[1,2,5\][^\n]*\}/, '[1,2,5]')],
  ['bad-catalogue-part-key.set.json', 'go', 'partition 2 part 2 has no tile_map', edit(goodCat, (s) => delete s.partitions[1][1].tile_map)],
  ['bad-catalogue-symmetry.set.json', 'go', 'partition 2 part 2: symmetry rot45 (partition 1 is good)', edit(goodCat, (s) => (s.partitions[1][1].symmetry = 'rot45'))],
  ['bad-catalogue-symmetry-cells.set.json', 'go', 'partition 3 part 2: transpose does not map the goal cells of 9,13,14 onto those of 1,2,5', edit(goodCat, (s) => (s.partitions[2][1].symmetry = 'transpose'))],
  ['bad-catalogue-table-sha.set.json', 'go', 'partition 3 part 1: table_raw_sha256 differs from the table partition 1 read with the right one', edit(goodCat, (s) => (s.partitions[2][0].table_raw_sha256 = '0'.repeat(64)))],
  ['bad-catalogue-table-tiles.set.json', 'go', 'partition 3 part 1: table_tiles differ from the table header', edit(goodCat, (s) => (s.partitions[2][0].table_tiles = [2, 3, 5]))],
  ['bad-catalogue-table-missing.set.json', 'go', 'partition 2 part 1: a table file that does not exist (trouble, exit 2)', edit(goodCat, (s) => (s.partitions[1][0].table = 'nonexistent.pdb'))],
  ['bad-catalogue-exact.set.json', 'go', 'partition 2 part 1: an exact table (3x2, all tiles)', edit(cat3x2, (s) => (s.partitions[1] = [part(3, 2, s.goal, [1, 2, 3, 4, 5], 'identity', '3x2.pdb', [1, 2, 3, 4, 5])]))],
  ['bad-catalogue-goal-other.set.json', 'go', 'catalogue goal blank-first, tables blank-last', edit(goodCat, (s) => (s.goal = goalOf('blank-first', 16)))],
  ['bad-catalogue-overlap.set.json', 'go', 'partition 2: 4,8,12 (anti-transpose of 2,3,4, valid alone) added to 1,2,5 and 3,4,8 shares 4,8 with part 2', edit(goodCat, (s) => {
    s.partitions[1].push(part(4, 4, s.goal, [4, 8, 12], 'anti-transpose', T234, [2, 3, 4]));
  })],
  ['bad-catalogue-overlap-3.set.json', 'go', 'partitions 1 and 2 good, partition 3 repeats its part 1', edit(goodCat, (s) => (s.partitions[2][1] = s.partitions[2][0]))],
];

// The message the readers give where pdbgen does not follow SPEC.md.
const specMessages = {
  'bad-exact.set.json': '{dir}/bad-exact.set.json: tilepdb: invalid set: part 1: table 3x2.pdb is an exact table (3x2 blank-last exact (all tiles)); a set file lists additive tables only',
};

const rows = ['# file\texpect\texit\tcheck\tmessage\tabout'];
for (const [file, check, about, make] of cases) {
  const content = make();
  fs.writeFileSync(path.join(out, file), typeof content === 'string' || Buffer.isBuffer(content) ? content : marshal(content));
  const rel = path.join(out, file);
  const r = spawnSync(pdbgen, ['lookup', rel], { input: '', encoding: 'utf8' });
  const final = r.stderr.split('\n').filter((l) => l.startsWith('pdbgen lookup: ')).pop();
  const msg = final ? final.slice('pdbgen lookup: '.length).split(out).join('{dir}') : '-';
  const good = file.startsWith('good-');
  if (good !== (r.status === 0) && check !== 'spec') throw new Error(`${file}: pdbgen exit ${r.status}: ${r.stderr}`);
  if (check === 'spec') {
    if (r.status === 0) console.error(`note: pdbgen accepts ${file} (${about}); SPEC.md section 10 refuses it`);
    rows.push([file, 'error', 1, check, specMessages[file], about].join('\t'));
  } else {
    rows.push([file, good ? 'ok' : 'error', r.status, check, msg, about].join('\t'));
  }
}
fs.writeFileSync(path.join(out, 'index.tsv'), rows.join('\n') + '\n');
fs.rmSync(tmp, { recursive: true, force: true });
const sum = createHash('sha256').update(fs.readFileSync(path.join(out, 'index.tsv'))).digest('hex').slice(0, 12);
console.log(`wrote ${cases.length} set files and ${fs.readdirSync(out).filter((f) => f.endsWith('.pdb')).length} tables to ${out} (index.tsv ${sum})`);
