// Timing of the JavaScript IDA* (numbers for reports): Korf's 15-puzzle
// instances 1..COUNT (solver/testdata/korf100.tsv, blank-first) with the
// 6-6-3 tables of data/ and the reflected lookup; prints the nodes (the
// same for any version of the solver that searches the same tree) and the
// time. Run from the repository root after make data:
//   node readers/js/bench-solver.mjs [COUNT] [DIR]   (DIR: another copy of readers/js to compare)
import fs from 'node:fs';
import path from 'node:path';

const count = Number(process.argv[2] || 12);
const dir = path.resolve(process.argv[3] || path.dirname(new URL(import.meta.url).pathname));
const { openSet } = await import(path.join(dir, 'tilepdb.mjs'));
const { Solver } = await import(path.join(dir, 'solver.mjs'));
const set = await openSet(['15-663_1-5-6-9-10-13', '15-663_7-8-11-12-14-15', '15-663_2-3-4'].map((n) => `data/${n}.pdb`));
const solver = new Solver(set, { reflect: true });
const rows = fs.readFileSync('solver/testdata/korf100.tsv', 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
let nodes = 0;
const t0 = performance.now();
for (const [, , board] of rows.slice(0, count)) nodes += solver.solve(board.split(' ').map(Number), { fromBlankFirst: true }).nodes;
const s = (performance.now() - t0) / 1000;
console.log(`${dir}: Korf 1..${count}: ${nodes} nodes in ${s.toFixed(2)} s (${(nodes / s / 1e6).toFixed(2)} M nodes/s)`);
