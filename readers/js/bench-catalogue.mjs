// Timing of the JavaScript IDA* over a catalogue (numbers for reports): the
// 6-6-3 tables of data/ as a catalogue of two partitions, as they are and
// transposed (h = the larger sum), beside the 6-6-3 set with the reflected
// lookup, the same heuristic: the same nodes, so the times compare the
// catalogue search with the additive one. Korf's instances 1..COUNT
// (solver/testdata/korf100.tsv), three rounds, interleaved. Run from the
// repository root after make data:
//   node readers/js/bench-catalogue.mjs [COUNT]
import fs from 'node:fs';
import { openSet, openSetBytes, readFile } from './tilepdb.mjs';
import { Solver } from './solver.mjs';
const names = ['15-663_1-5-6-9-10-13', '15-663_7-8-11-12-14-15', '15-663_2-3-4'].map((n) => n + '.pdb');
const tabs = {};
for (const n of names) tabs[n] = await readFile(`data/${n}`);
const p = (tiles, f, tt, sym, tm) => ({ tiles, table: f, table_tiles: tt, symmetry: sym, tile_map: tm, table_raw_sha256: tabs[f].header.raw_sha256 });
const [t1, t2, t3] = names;
const identity = [p([1, 5, 6, 9, 10, 13], t1, [1, 5, 6, 9, 10, 13], 'identity', [1, 5, 6, 9, 10, 13]), p([7, 8, 11, 12, 14, 15], t2, [7, 8, 11, 12, 14, 15], 'identity', [7, 8, 11, 12, 14, 15]), p([2, 3, 4], t3, [2, 3, 4], 'identity', [2, 3, 4])];
const transposed = [p([1, 2, 3, 4, 6, 7], t1, [1, 5, 6, 9, 10, 13], 'transpose', [1, 5, 9, 13, 6, 10]), p([8, 10, 11, 12, 14, 15], t2, [7, 8, 11, 12, 14, 15], 'transpose', [14, 7, 11, 15, 8, 12]), p([5, 9, 13], t3, [2, 3, 4], 'transpose', [2, 3, 4])];
const goal = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0];
const cat = await openSetBytes(JSON.stringify({ tilepdb_set: 2, width: 4, height: 4, goal, partitions: [identity, transposed] }), { table: (n) => tabs[n] });
const plain = await openSet(names.map((n) => `data/${n}`));
const rows = fs.readFileSync('solver/testdata/korf100.tsv', 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')).slice(0, Number(process.argv[2] || 12));
const solvers = { 'set+reflect': new Solver(plain, { reflect: true }), catalogue: new Solver(cat) };
for (let round = 1; round <= 3; round++) {
  for (const [name, s] of Object.entries(solvers)) {
    let nodes = 0;
    const t0 = performance.now();
    for (const [, , board] of rows) nodes += s.solve(board.split(' ').map(Number), { fromBlankFirst: true }).nodes;
    const sec = (performance.now() - t0) / 1000;
    console.log(`round ${round} ${name}: Korf 1..${rows.length}: ${nodes} nodes in ${sec.toFixed(2)} s (${(nodes / sec / 1e6).toFixed(2)} M nodes/s)`);
  }
}
