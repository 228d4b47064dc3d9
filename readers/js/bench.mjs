// Timing of the JavaScript reader (numbers for the README and reports):
//   node readers/js/bench.mjs FILE...      open+verify time of each file (best of 3),
//                                          then lookups/s over the set of all the files
//                                          when they form one (checked and fast path).
import { readFile, TableSet } from './tilepdb.mjs';
import { positions } from './rank.mjs';

const files = process.argv.slice(2);
const tables = [];
for (const f of files) {
  let best = Infinity;
  let t;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    t = await readFile(f);
    best = Math.min(best, performance.now() - t0);
  }
  tables.push(t);
  console.log(`open+verify\t${f}\t${t.header.entries}\t${best.toFixed(1)} ms`);
}
let set;
try {
  set = new TableSet(tables);
} catch {
  process.exit(0);
}
const n = set.n;
let seed = 1;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const boards = [];
while (boards.length < 100000) {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  if (set.exact && !set.tables[0].pattern.solvablePositions(positions(a))) continue;
  boards.push(a);
}
const poss = boards.map((b) => positions(b));
let sink = 0;
for (const [name, fn] of [['checked heuristicBoard(board)', (i) => set.heuristicBoard(boards[i])], ['fast heuristic(pos)', (i) => set.heuristic(poss[i])]]) {
  for (let i = 0; i < boards.length; i++) sink += fn(i); // warm up
  const reps = 10;
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) for (let i = 0; i < boards.length; i++) sink += fn(i);
  const s = (performance.now() - t0) / 1000;
  console.log(`lookups/s\t${name}\t${tables.length} tables\t${Math.round((reps * boards.length) / s)}`);
}
if (sink < 0) console.log(sink);
