// Browser test of the web page (make web-test): serves the repository on
// 127.0.0.1, drives the system Chromium headless through puppeteer-core
// (pinned in web/package-lock.json; it downloads no browser) and checks that
// the 6-6-3 tables load and verify, that Korf's instance 1 and four more of
// his instances (solver/testdata/korf100.tsv) solve with their published
// optimal lengths and the moves reach the goal, and that nothing is logged
// as a console error. Saves a screenshot of the solved board. A set file
// the server lacks is reported as missing, not as malformed JSON.
// Then the 24-puzzle: a fresh page loads the 24-6666 set file (2 tables, 4
// parts) and solves Korf's 24-puzzle instance #40 (82 moves,
// web/test/testdata/korf50-24-40.tsv); the time from the navigation is
// printed beside issue 21's target of 30 s. The test fails only past a
// guard against a hang (300 s; a measurement, not a timed test). Skipped, saying so, when data/24-6666.set.json is
// missing (bin/pdbgen build --preset 24-6666 -o data: about 60 s CPU,
// 0.5 GiB; scripts/ci-readers.sh builds it).
//   CHROMIUM=/usr/bin/chromium SCREENSHOT=web/screenshot.png node web/test/web-test.mjs
// TILEPDB_DATA=DIR serves the tables from DIR instead of data/;
// WEB_TEST_24_LIMIT_S=N makes the guard N s (e.g. 30 to hold the target).
// On Linux the browser's CPU time for the 24-puzzle is printed beside the
// wall time (all its processes: page, worker, GPU, network).
// Then a 7x7 board (48-puzzle): 16 tables of 3 tiles built here with
// PDBGEN (default bin/pdbgen; a few seconds), served from a temporary
// folder: they load and verify, the board is drawn 7x7, and a board 30
// random moves from the goal is solved with the length `pdbgen solve` finds
// on the same tables. Saves a screenshot of it (SCREENSHOT_7X7, default
// web/screenshot-7x7-test.png).
// Then zero-aware tables (SPEC.md section 11): the 6-6-3 tables built
// --zero-aware here (about 10 s) load, verify and solve Korf's 15-puzzle
// instances 9 and 12 with their published lengths, in fewer nodes than
// the plain tables.
// Then a catalogue (SPEC.md section 12, set file version 2) written here:
// the 6-6-3 tables of data/ as they are and transposed, two partitions
// through three tables; it loads and solves Korf's instances 9 and 12 with
// their published lengths, in exactly the nodes of the plain tables with
// the reflected lookup (the transposed partition's sum is the reflected sum).
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { serve } from './server.mjs';
import { checkMissingSet } from './missing-set.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const shot = process.env.SCREENSHOT || path.join(root, 'web', 'screenshot-test.png');
const shot7 = process.env.SCREENSHOT_7X7 || path.join(root, 'web', 'screenshot-7x7-test.png');
const pdbgen = process.env.PDBGEN || path.join(root, 'bin', 'pdbgen');
const INSTANCES = [1, 9, 12, 13, 16]; // Korf's numbering
// issue 21's target: #40 solved within 30 s of page load; the test prints
// the time against it and fails only past the guard.
const TARGET_24_MS = 30000;
const LIMIT_24_MS = 1000 * Number(process.env.WEB_TEST_24_LIMIT_S || 300);

const dataDir = process.env.TILEPDB_DATA || path.join(root, 'data');
for (const f of ['15-663_1-5-6-9-10-13', '15-663_7-8-11-12-14-15', '15-663_2-3-4']) {
  if (!fs.existsSync(path.join(dataDir, `${f}.pdb`))) {
    console.error(`web-test: ${dataDir}/${f}.pdb missing: run make data first`);
    process.exit(2);
  }
}
// The page imports the tilepdb package from web/node_modules, where npm ci
// in web/ installs a copy of readers/js (web/.npmrc: install-links): it
// must be present and hold the current sources.
const pkgCopy = path.join(root, 'web', 'node_modules', 'tilepdb');
if (!fs.existsSync(path.join(root, 'web', 'node_modules', 'fzstd')) || !fs.existsSync(pkgCopy)) {
  console.error('web-test: web/node_modules missing: run npm ci in web');
  process.exit(2);
}
for (const f of fs.readdirSync(pkgCopy).filter((f) => f.endsWith('.mjs'))) {
  if (!fs.readFileSync(path.join(pkgCopy, f)).equals(fs.readFileSync(path.join(root, 'readers', 'js', f)))) {
    console.error(`web-test: web/node_modules/tilepdb/${f} differs from readers/js/${f}: run npm ci in web to reinstall the package`);
    process.exit(2);
  }
}
const korf = new Map(fs.readFileSync(path.join(root, 'solver', 'testdata', 'korf100.tsv'), 'utf8').split('\n')
  .filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')).map(([id, len, board]) => [Number(id), { len: Number(len), board }]));
const [korf40] = fs.readFileSync(path.join(here, 'testdata', 'korf50-24-40.tsv'), 'utf8').split('\n')
  .filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')).map(([id, len, , board]) => ({ id: Number(id), len: Number(len), board }));
const has24 = fs.existsSync(path.join(dataDir, '24-6666.set.json'));

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

// The 7x7 tables: tiles 1-3, 4-6, ..., 46-48 (blank-last goal).
const bigDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tilepdb-web-7x7-'));
let tables7 = [];
if (fs.existsSync(pdbgen)) {
  for (let t = 1; t < 49; t += 3) {
    const out = execFileSync(pdbgen, ['build', '--quiet', '--board', '7x7', '--tiles', `${t},${t + 1},${t + 2}`, '-o', bigDir], { encoding: 'utf8' });
    tables7.push(...out.trim().split('\n'));
  }
}

// The zero-aware 6-6-3 tables, in the same folder.
let tablesZA = [];
if (fs.existsSync(pdbgen)) {
  const out = execFileSync(pdbgen, ['build', '--quiet', '-j', '2', '--preset', '15-663', '--zero-aware', '-o', bigDir], { encoding: 'utf8' });
  tablesZA = out.trim().split('\n');
}

// The catalogue of the 6-6-3 tables of data/, as they are and transposed, in the same folder.
const catTables = ['15-663_1-5-6-9-10-13.pdb', '15-663_7-8-11-12-14-15.pdb', '15-663_2-3-4.pdb'];
let catalogueFile = null;
if (fs.existsSync(pdbgen) && catTables.every((f) => fs.existsSync(path.join(dataDir, f)))) {
  const sha = {};
  for (const f of catTables) {
    fs.copyFileSync(path.join(dataDir, f), path.join(bigDir, f));
    sha[f] = JSON.parse(execFileSync(pdbgen, ['info', '--json', path.join(bigDir, f)], { encoding: 'utf8' })).raw_sha256;
  }
  const [t1, t2, t3] = catTables;
  const part = (tiles, table, tableTiles, symmetry, tileMap) => ({ tiles, table, table_tiles: tableTiles, symmetry, tile_map: tileMap, table_raw_sha256: sha[table] });
  const cat = {
    tilepdb_set: 2,
    width: 4,
    height: 4,
    goal: [...Array(15).keys()].map((i) => i + 1).concat([0]),
    partitions: [
      [part([1, 5, 6, 9, 10, 13], t1, [1, 5, 6, 9, 10, 13], 'identity', [1, 5, 6, 9, 10, 13]), part([7, 8, 11, 12, 14, 15], t2, [7, 8, 11, 12, 14, 15], 'identity', [7, 8, 11, 12, 14, 15]), part([2, 3, 4], t3, [2, 3, 4], 'identity', [2, 3, 4])],
      [part([1, 2, 3, 4, 6, 7], t1, [1, 5, 6, 9, 10, 13], 'transpose', [1, 5, 9, 13, 6, 10]), part([8, 10, 11, 12, 14, 15], t2, [7, 8, 11, 12, 14, 15], 'transpose', [14, 7, 11, 15, 8, 12]), part([5, 9, 13], t3, [2, 3, 4], 'transpose', [2, 3, 4])],
    ],
  };
  catalogueFile = '15-663-catalogue.set.json';
  fs.writeFileSync(path.join(bigDir, catalogueFile), JSON.stringify(cat));
}

const server = await serve(0, dataDir, { '/big/': bigDir });
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tilepdb-chromium-'));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  userDataDir,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', `--user-data-dir=${userDataDir}`],
});
const errors = [];
// browserCpuSeconds: user + system CPU time of the browser's processes
// (its main process and all descendants); null off Linux.
function browserCpuSeconds() {
  if (!fs.existsSync('/proc/self/stat') || !browser.process()) return null;
  const tick = 100; // USER_HZ on Linux
  const procs = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^[0-9]+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.push({ pid: Number(pid), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / tick }); // ppid, utime, stime
    } catch {
      // the process ended meanwhile
    }
  }
  const mine = new Set([browser.process().pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
    }
  }
  return procs.filter((p) => mine.has(p.pid)).reduce((t, p) => t + p.cpu, 0);
}
// watch: console errors, page errors, failed requests and HTTP errors of a page go to errors.
function watch(page) {
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('request', (r) => process.env.DEBUG && console.log('request', r.url(), r.resourceType()));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
}
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 760 });
  watch(page);

  await page.goto(`${server.url}/web/?speed=15`, { waitUntil: 'load' });
  const summary = await page.evaluate(() => window.tilepdb.ready);
  const plainNodes = new Map();
  check(summary.tables.length === 3 && summary.tables.every((t) => t.verified), `tables load and verify: ${summary.tables.map((t) => `${t.name} (format ${t.format}, ${t.entries} entries, max ${t.max})`).join(', ')} in ${(summary.loadMs / 1000).toFixed(2)} s`);

  // Korf #1 through the page's controls, timed from navigation start.
  await page.click('#example');
  await page.click('#solve');
  await page.waitForFunction(() => window.tilepdb.state.solution && !document.querySelector('#solve').disabled, { timeout: 120000 });
  const first = await page.evaluate(() => ({ text: document.querySelector('#result').textContent, sinceNav: performance.now() }));
  const m = /Optimal: (\d+) moves/.exec(first.text);
  check(m && Number(m[1]) === korf.get(1).len, `Korf #1 through the UI: ${m ? m[1] : first.text} moves (published ${korf.get(1).len}); page load to first solution ${(first.sinceNav / 1000).toFixed(2)} s`);

  for (const id of INSTANCES) {
    const { len, board } = korf.get(id);
    const r = await page.evaluate((b) => window.tilepdb.solve(b, 'blank-first').then((x) => ({ length: x.length, moves: x.moves, nodes: x.nodes, ms: x.ms })), board);
    const end = await page.evaluate((b, mv) => window.tilepdb.applyMoves(b.split(' ').map(Number), mv).join(' '), board, r.moves);
    check(r.length === len && end === [...Array(16).keys()].join(' '), `Korf #${id}: ${r.length} moves (published ${len}), moves reach the goal, ${(r.ms / 1000).toFixed(2)} s in the worker`);
    plainNodes.set(id, r.nodes);
  }

  // A bad board gets pdbgen's message; then Korf #1 again for the screenshot.
  await page.$eval('#boardInput', (el) => (el.value = '1 2 3'));
  await page.click('#solve');
  await page.waitForFunction(() => /cells, want 16/.test(document.querySelector('#result').textContent));
  check(true, 'a bad board shows "bad board: 3 cells, want 16"');

  await page.click('#example');
  await page.click('#solve');
  await page.waitForFunction(() => /Optimal: 57 moves/.test(document.querySelector('#result').textContent), { timeout: 120000 }).catch(async (e) => {
    throw new Error(`${e.message}; the page shows: ${await page.evaluate(() => document.querySelector('#result').textContent)}`);
  });
  await page.waitForFunction(() => !window.tilepdb.state.animating, { timeout: 60000 });
  const final = await page.evaluate(() => Array.from(document.querySelectorAll('#board .tile')).map((d) => d.textContent || '0').join(' '));
  check(final === [...Array(16).keys()].join(' '), `animation ends on the goal: ${final}`);
  await page.screenshot({ path: shot });
  console.log(`screenshot: ${path.relative(root, shot)}`);
  await page.close();

  // A set file the server lacks: the page says it is missing (missing-set.mjs).
  const missing = await checkMissingSet(browser, server.url);
  check(missing.ok, `a missing set file is named as missing: ${missing.text}`);

  // The 24-puzzle, timed from a fresh navigation: download, verify, hand
  // the tables to the worker, solve #40.
  if (!has24) {
    console.log(`skip 24-puzzle: ${dataDir}/24-6666.set.json missing (bin/pdbgen build --preset 24-6666 -o ${path.relative(root, dataDir) || '.'}: about 60 s CPU, 0.5 GiB)`);
  } else {
    const cpu0 = browserCpuSeconds();
    const p24 = await browser.newPage();
    await p24.setViewport({ width: 1000, height: 900 });
    watch(p24);
    await p24.goto(`${server.url}/web/?set=../data/24-6666.set.json&speed=10`, { waitUntil: 'load' });
    const s24 = await p24.evaluate(() => window.tilepdb.ready);
    check(s24.board.w === 5 && s24.parts.length === 4 && s24.tables.length === 2 && s24.tables.every((t) => t.verified) && s24.reflect,
      `24-6666 set file: ${s24.board.w}x${s24.board.h} board, ${s24.parts.length} parts (${s24.parts.map((p) => p.symmetry).join(', ')}) through ${s24.tables.length} tables (${s24.tables.map((t) => t.name).join(', ')}), loaded and verified in ${(s24.loadMs / 1000).toFixed(2)} s`);
    const boardCells = await p24.evaluate(() => document.querySelectorAll('#board .tile').length);
    check(boardCells === 25, `the board is drawn 5x5: ${boardCells} cells`);
    const r = await p24.evaluate(
      (b) => window.tilepdb.solve(b, 'blank-first').then((x) => ({ length: x.length, moves: x.moves, nodes: x.nodes, ms: x.ms, sinceNav: performance.now() })),
      korf40.board,
    );
    const end = await p24.evaluate((b, mv) => window.tilepdb.applyMoves(b.split(' ').map(Number), mv).join(' '), korf40.board, r.moves);
    check(r.length === korf40.len && end === [...Array(25).keys()].join(' '),
      `Korf 24-puzzle #${korf40.id}: ${r.length} moves (published ${korf40.len}), moves reach the goal; ${r.nodes.toLocaleString('en-US')} nodes in ${(r.ms / 1000).toFixed(2)} s in the worker`);
    const cpu = cpu0 === null ? '' : `, browser CPU ${(browserCpuSeconds() - cpu0).toFixed(1)} s`;
    check(r.sinceNav < LIMIT_24_MS, `24-puzzle #${korf40.id}: page load to solution ${(r.sinceNav / 1000).toFixed(2)} s (target ${TARGET_24_MS / 1000} s: ${r.sinceNav < TARGET_24_MS ? 'met' : 'missed'}; guard ${LIMIT_24_MS / 1000} s${cpu}, load average ${os.loadavg()[0].toFixed(1)})`);
    await p24.close();
  }

  // The 48-puzzle: a 7x7 board drawn and solved over 16 small tables.
  if (tables7.length === 0) {
    console.log(`skip 7x7: ${pdbgen} missing (make build)`);
  } else {
    const p7 = await browser.newPage();
    await p7.setViewport({ width: 1000, height: 900 });
    watch(p7);
    const urls = tables7.map((f) => `../big/${path.basename(f)}`).join(',');
    await p7.goto(`${server.url}/web/?tables=${urls}&speed=5`, { waitUntil: 'load' });
    const s7 = await p7.evaluate(() => window.tilepdb.ready);
    check(s7.board.w === 7 && s7.board.h === 7 && s7.tables.length === 16 && s7.tables.every((t) => t.verified) && s7.reflect,
      `7x7: ${s7.tables.length} tables of 3 tiles (${s7.tables[0].entries} entries each) loaded and verified in ${(s7.loadMs / 1000).toFixed(2)} s, reflection on`);
    const drawn = await p7.evaluate(() => ({
      cells: document.querySelectorAll('#board .tile').length,
      cols: getComputedStyle(document.querySelector('#board')).gridTemplateColumns.split(' ').length,
      width: document.querySelector('#board').getBoundingClientRect().width,
      title: document.querySelector('#title').textContent,
    }));
    check(drawn.cells === 49 && drawn.cols === 7 && drawn.width < 400 && drawn.title === '48-puzzle solver',
      `the board is drawn 7x7: ${drawn.cells} cells in ${drawn.cols} columns, ${drawn.width.toFixed(0)} px wide, title "${drawn.title}"`);
    // 30 random blank moves from the goal (never straight back), deterministic
    const b7 = Array.from({ length: 49 }, (_, i) => (i + 1) % 49);
    let z = 48;
    let prev = -1;
    let seed = 7;
    for (let i = 0; i < 30; i++) {
      const opts = [z - 7, z + 7, z % 7 ? z - 1 : -1, z % 7 < 6 ? z + 1 : -1].filter((c) => c >= 0 && c < 49 && c !== prev);
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const c = opts[seed % opts.length];
      [b7[z], b7[c]] = [b7[c], b7[z]];
      prev = z;
      z = c;
    }
    const board7 = b7.join(' ');
    const goSolve = execFileSync(pdbgen, ['solve', ...tables7], { input: `${board7}\n`, encoding: 'utf8' });
    const want = Number(/length (\d+)/.exec(goSolve)?.[1]);
    await p7.$eval('#boardInput', (el, b) => (el.value = b), board7);
    await p7.click('input[name=conv][value=blank-last]');
    await p7.click('#solve');
    await p7.waitForFunction(() => window.tilepdb.state.solution && !document.querySelector('#solve').disabled, { timeout: 120000 });
    const r7 = await p7.evaluate(() => ({ text: document.querySelector('#result').textContent, moves: window.tilepdb.state.solution.moves }));
    const len7 = Number(/Optimal: (\d+) moves/.exec(r7.text)?.[1]);
    const end7 = await p7.evaluate((b, mv) => window.tilepdb.applyMoves(b.split(' ').map(Number), mv).join(' '), board7, r7.moves);
    check(len7 === want && end7 === b7.map((_, i) => (i + 1) % 49).join(' '), `7x7 board of 30 random moves: ${len7} moves (pdbgen solve: ${want}), moves reach the goal; ${r7.text.split('\n')[0]}`);
    await p7.waitForFunction(() => !window.tilepdb.state.animating, { timeout: 60000 });
    await p7.screenshot({ path: shot7 });
    console.log(`screenshot: ${path.relative(root, shot7)}`);
    await p7.close();
  }

  // Zero-aware 6-6-3 tables: loaded, verified, and the same optimal lengths in fewer nodes.
  if (tablesZA.length === 0) {
    console.log(`skip zero-aware: ${pdbgen} missing (make build)`);
  } else {
    const pz = await browser.newPage();
    watch(pz);
    await pz.goto(`${server.url}/web/?tables=${tablesZA.map((f) => `../big/${path.basename(f)}`).join(',')}&speed=15`, { waitUntil: 'load' });
    const sz = await pz.evaluate(() => window.tilepdb.ready);
    check(sz.tables.length === 3 && sz.tables.every((t) => t.verified && t.kind === 'zero-aware') && sz.reflect,
      `zero-aware 6-6-3 tables load and verify: ${sz.tables.map((t) => `${t.name} (${t.entries} entries)`).join(', ')} in ${(sz.loadMs / 1000).toFixed(2)} s`);
    for (const id of [9, 12]) {
      const { len, board } = korf.get(id);
      const r = await pz.evaluate((b) => window.tilepdb.solve(b, 'blank-first').then((x) => ({ length: x.length, moves: x.moves, nodes: x.nodes, ms: x.ms })), board);
      const end = await pz.evaluate((b, mv) => window.tilepdb.applyMoves(b.split(' ').map(Number), mv).join(' '), board, r.moves);
      check(r.length === len && end === [...Array(16).keys()].join(' ') && r.nodes <= plainNodes.get(id),
        `zero-aware, Korf #${id}: ${r.length} moves (published ${len}), moves reach the goal; ${r.nodes} nodes (plain tables: ${plainNodes.get(id)}), ${(r.ms / 1000).toFixed(2)} s in the worker`);
    }
    await pz.close();
  }

  // A catalogue: the maximum over two partitions, in the nodes of the plain tables with reflection.
  if (!catalogueFile) {
    console.log(`skip catalogue: ${pdbgen} or the 15-663 tables of ${dataDir} missing`);
  } else {
    const pc = await browser.newPage();
    watch(pc);
    await pc.goto(`${server.url}/web/?set=../big/${catalogueFile}&speed=15`, { waitUntil: 'load' });
    const sc = await pc.evaluate(() => window.tilepdb.ready);
    check(sc.tables.length === 3 && sc.tables.every((t) => t.verified) && sc.partitions.length === 2 && sc.parts.length === 6,
      `catalogue ${catalogueFile} loads: ${sc.partitions.length} partitions of ${sc.parts.length} parts through ${sc.tables.length} tables, in ${(sc.loadMs / 1000).toFixed(2)} s`);
    for (const id of [9, 12]) {
      const { len, board } = korf.get(id);
      const r = await pc.evaluate((b) => window.tilepdb.solve(b, 'blank-first').then((x) => ({ length: x.length, moves: x.moves, nodes: x.nodes, ms: x.ms })), board);
      const end = await pc.evaluate((b, mv) => window.tilepdb.applyMoves(b.split(' ').map(Number), mv).join(' '), board, r.moves);
      check(r.length === len && end === [...Array(16).keys()].join(' ') && r.nodes === plainNodes.get(id),
        `catalogue, Korf #${id}: ${r.length} moves (published ${len}), moves reach the goal; ${r.nodes} nodes (plain tables with reflection: ${plainNodes.get(id)}), ${(r.ms / 1000).toFixed(2)} s in the worker`);
    }
    await pc.close();
  }
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
  fs.rmSync(bigDir, { recursive: true, force: true });
}
check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join('; ') : ''}`);
console.log(`web-test: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
