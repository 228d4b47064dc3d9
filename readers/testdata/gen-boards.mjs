// Prints COUNT board lines for a board of N cells (deterministic for a
// SEED): random permutations (solvable or not) in the syntaxes pdbgen
// accepts, random walks from the goal, and about one line in twenty that
// is bad in some way (count, range, duplicates, foreign symbols, long
// lines, comments and blank lines that must be skipped). Used by
// scripts/check-readers.sh to compare the readers' lookup with pdbgen's.
//   node readers/testdata/gen-boards.mjs N COUNT SEED [unsolvable|valid]
// With "unsolvable", every line is a board of the other parity class for
// the blank-last goal: a random walk from it with two tiles swapped; with
// "valid", every line is a random permutation (either class), no bad line.
const [n, count, seed] = process.argv.slice(2, 5).map(Number);
const mode = process.argv[5] ?? '';
if (!['', 'unsolvable', 'valid'].includes(mode)) throw new Error(`unknown mode ${mode}`);
let s = seed >>> 0;
const rnd = () => {
  // mulberry32
  s = (s + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (a) => a[Math.floor(rnd() * a.length)];
const perm = () => {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
const w = Math.round(Math.sqrt(n)) ** 2 === n ? Math.round(Math.sqrt(n)) : 3;
const walk = () => {
  const a = Array.from({ length: n }, (_, i) => (i + 1) % n);
  let b = n - 1;
  for (let k = Math.floor(rnd() * 60); k > 0; k--) {
    const m = pick([-w, w, -1, 1]);
    const t = b + m;
    if (t < 0 || t >= n || ((m === 1 || m === -1) && Math.floor(t / w) !== Math.floor(b / w))) continue;
    [a[b], a[t]] = [a[t], a[b]];
    b = t;
  }
  return a;
};
const fmt = (a) => {
  const sep = pick([' ', ' ', ' ', ',', '\t', ', ', '  ']);
  return a.map((t) => (t === 0 ? pick(['0', '0', 'x', 'X', '_']) : rnd() < 0.02 ? pick(['+', '0']) + t : String(t))).join(sep);
};
const bad = () => {
  const a = perm();
  switch (Math.floor(rnd() * 14)) {
    case 0: return a.slice(1).join(' ');
    case 1: return [...a, 0].join(' ');
    case 2: a[Math.floor(rnd() * n)] = n + Math.floor(rnd() * 5); return a.join(' ');
    case 3: a[Math.floor(rnd() * n)] = a[Math.floor(rnd() * n)]; return a.join(' ');
    case 4: a[Math.floor(rnd() * n)] = pick(['o', 'y', '1.5', '0x1', '--1', '-', '+', '\u00e9', '\u00a0', '\ufeff3', '99999999999999999999', '-3']); return a.join(' ');
    case 5: return '# ' + a.join(' ');
    case 6: return pick(['', '   ', '\t', ',,,', ' , ']);
    case 7: return a.join(' ') + ' ' + '9'.repeat(4100);
    case 8: return '   ' + a.join(' ') + '   \r';
    case 9: return a.join(' ').replace(' ', '\u00a0');
    case 10: return a.join(' ') + ' #';
    case 11: return pick([' '.repeat(4097), '#' + 'x'.repeat(4096), '\u000b' + a.join(' '), a.join(' ') + '\f', '\ufeff' + a.join(' '), a.join(' ') + ' \r\r']);
    case 12: return pick([a.join(',').replace(',', ',,'), ',' + a.join(','), a.join(',') + ',', a.join(', ') + ' ,\t', a.join(' ').replace(' ', ' , , ')]); // a cell left empty
    default: return a.map(String).join('');
  }
};
const swapTwo = (a) => {
  const tiles = a.map((t, i) => i).filter((i) => a[i] !== 0);
  const i = pick(tiles);
  let j = pick(tiles);
  while (j === i) j = pick(tiles);
  [a[i], a[j]] = [a[j], a[i]];
  return a;
};
const out = [];
for (let i = 0; i < count; i++) {
  const r = rnd();
  if (mode === 'unsolvable') out.push(fmt(swapTwo(walk())));
  else if (mode === 'valid') out.push(fmt(perm()));
  else out.push(r < 0.05 ? bad() : r < 0.35 ? fmt(walk()) : fmt(perm()));
}
process.stdout.write(out.join('\n') + '\n');
