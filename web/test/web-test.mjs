// Browser test of the web page (make web-test): serves the repository on
// 127.0.0.1, drives the system Chromium headless through puppeteer-core
// (pinned in web/package-lock.json; it downloads no browser) and checks that
// the 6-6-3 tables load and verify, that Korf's instance 1 and four more of
// his instances (solver/testdata/korf100.tsv) solve with their published
// optimal lengths and the moves reach the goal, and that nothing is logged
// as a console error. Saves a screenshot of the solved board.
//   CHROMIUM=/usr/bin/chromium SCREENSHOT=web/screenshot.png node web/test/web-test.mjs
// TILEPDB_DATA=DIR serves the tables from DIR instead of data/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { serve } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const shot = process.env.SCREENSHOT || path.join(root, 'web', 'screenshot-test.png');
const INSTANCES = [1, 9, 12, 13, 16]; // Korf's numbering

const dataDir = process.env.TILEPDB_DATA || path.join(root, 'data');
for (const f of ['15-663_1-5-6-9-10-13', '15-663_7-8-11-12-14-15', '15-663_2-3-4']) {
  if (!fs.existsSync(path.join(dataDir, `${f}.pdb`))) {
    console.error(`web-test: ${dataDir}/${f}.pdb missing: run make data first`);
    process.exit(2);
  }
}
if (!fs.existsSync(path.join(root, 'readers', 'js', 'node_modules', 'fzstd'))) {
  console.error('web-test: readers/js/node_modules missing: run npm ci in readers/js');
  process.exit(2);
}
const korf = new Map(fs.readFileSync(path.join(root, 'solver', 'testdata', 'korf100.tsv'), 'utf8').split('\n')
  .filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')).map(([id, len, board]) => [Number(id), { len: Number(len), board }]));

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};

const server = await serve(0, dataDir);
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tilepdb-chromium-'));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  userDataDir,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', `--user-data-dir=${userDataDir}`],
});
const errors = [];
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 760 });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('request', (r) => process.env.DEBUG && console.log('request', r.url(), r.resourceType()));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });

  await page.goto(`${server.url}/web/?speed=15`, { waitUntil: 'load' });
  const summary = await page.evaluate(() => window.tilepdb.ready);
  check(summary.tables.length === 3 && summary.tables.every((t) => t.verified), `tables load and verify: ${summary.tables.map((t) => `${t.name} (format ${t.format}, ${t.entries} entries, max ${t.max})`).join(', ')} in ${(summary.loadMs / 1000).toFixed(2)} s`);

  // Korf #1 through the page's controls, timed from navigation start.
  await page.click('#korf1');
  await page.click('#solve');
  await page.waitForFunction(() => window.tilepdb.state.solution && !document.querySelector('#solve').disabled, { timeout: 120000 });
  const first = await page.evaluate(() => ({ text: document.querySelector('#result').textContent, sinceNav: performance.now() }));
  const m = /Optimal: (\d+) moves/.exec(first.text);
  check(m && Number(m[1]) === korf.get(1).len, `Korf #1 through the UI: ${m ? m[1] : first.text} moves (published ${korf.get(1).len}); page load to first solution ${(first.sinceNav / 1000).toFixed(2)} s`);

  for (const id of INSTANCES) {
    const { len, board } = korf.get(id);
    const r = await page.evaluate((b) => window.tilepdb.solve(b, 'blank-first').then((x) => ({ length: x.length, moves: x.moves, ms: x.ms })), board);
    const end = await page.evaluate((b, mv) => import('../readers/js/solver.mjs').then((s) => Array.from(s.applyMoves(b.split(' ').map(Number), 4, mv)).join(' ')), board, r.moves);
    check(r.length === len && end === [...Array(16).keys()].join(' '), `Korf #${id}: ${r.length} moves (published ${len}), moves reach the goal, ${(r.ms / 1000).toFixed(2)} s in the worker`);
  }

  // A bad board gets pdbgen's message; then Korf #1 again for the screenshot.
  await page.$eval('#boardInput', (el) => (el.value = '1 2 3'));
  await page.click('#solve');
  await page.waitForFunction(() => /cells, want 16/.test(document.querySelector('#result').textContent));
  check(true, 'a bad board shows "bad board: 3 cells, want 16"');

  await page.click('#korf1');
  await page.click('#solve');
  await page.waitForFunction(() => /Optimal: 57 moves/.test(document.querySelector('#result').textContent), { timeout: 120000 });
  await page.waitForFunction(() => !window.tilepdb.state.animating, { timeout: 60000 });
  const final = await page.evaluate(() => Array.from(document.querySelectorAll('#board .tile')).map((d) => d.textContent || '0').join(' '));
  check(final === [...Array(16).keys()].join(' '), `animation ends on the goal: ${final}`);
  await page.screenshot({ path: shot });
  console.log(`screenshot: ${path.relative(root, shot)}`);
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
check(errors.length === 0, `no console errors${errors.length ? ': ' + errors.join('; ') : ''}`);
console.log(`web-test: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
