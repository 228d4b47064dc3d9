// The page: loads and verifies the tables or the set file (the tilepdb
// package, imported by name through the import map of index.html), draws
// their histograms and the board at its size, and hands the values to the
// solver worker.
//
// Query parameters (optional): tables=URL,URL,... (table files: one exact
// table, or disjoint additive ones) or set=URL (a set file; its tables are
// fetched from its directory); default: the 15-663 tables in ../data/.
// speed=MS per animated move (default 250).
// For tests, window.tilepdb exposes: ready (a Promise of the load summary),
// solve(text, convention) (a Promise of the solution), applyMoves(board,
// moves) (the board after the blank's moves) and state.
import { readBytes, openSetBytes, TableSet } from 'tilepdb';
import { parseBoard } from 'tilepdb/board';
import { applyMoves } from 'tilepdb/solver';

const params = new URLSearchParams(location.search);
const DEFAULT_TABLES = ['15-663_1-5-6-9-10-13', '15-663_7-8-11-12-14-15', '15-663_2-3-4'].map((n) => `../data/${n}.pdb`);
// The presets of the menu (pdbgen build --preset NAME -o data).
const PRESETS = {
  '15-663': { tables: DEFAULT_TABLES },
  '15-555': { tables: ['15-555_1-2-3-4-7', '15-555_5-6-9-10-13', '15-555_8-11-12-14-15'].map((n) => `../data/${n}.pdb`) },
  '8puzzle': { tables: ['../data/8puzzle.pdb'] },
  '24-6666': { set: '../data/24-6666.set.json' },
  // boards past 5x5: big downloads, and tables of 1.4 GB each (35-puzzle) that a browser may refuse
  '35-puzzle': { set: '../data/35-puzzle.set.json' },
  // 7x7: the 5-tile preset (the 6-tile tables of 48-puzzle are 10^10 entries each)
  '48-5tile': {
    tables: ['1-2-3-8-9', '4-5-10-11-12', '6-7-13-14', '15-16-17-22-23', '18-19-24-25-26', '20-21-27-28', '29-30-31-36-37', '32-33-38-39-40', '34-35-41-42', '43-44-45', '46-47-48']
      .map((t) => `../data/48-5tile_${t}.pdb`),
  },
};
// A hard example per board: Korf's 15-puzzle #1 and 24-puzzle #40 (blank-first), the
// hardest 8-puzzle board (31 moves, blank-last).
const EXAMPLES = {
  '3x3': { name: 'Hardest 8-puzzle', board: '8 6 7 2 5 4 3 0 1', conv: 'blank-last' },
  '4x4': { name: 'Korf #1', board: '14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3', conv: 'blank-first' },
  '5x5': { name: 'Korf #40', board: '2 17 4 13 7 12 10 3 0 16 21 24 8 5 18 20 15 19 14 9 22 11 6 1 23', conv: 'blank-first' },
};
const setUrl = params.get('set');
const tableUrls = setUrl ? null : params.get('tables') ? params.get('tables').split(',') : DEFAULT_TABLES;
const speed = Number(params.get('speed') || 250);
// The board's geometry and the tables' goal, known once the tables are read.
let W = 4;
let N = 16;
let tablesGoal = 'blank-last';
let goalCells = null;

const $ = (id) => document.getElementById(id);
const state = { loaded: false, board: null, solution: null, animating: false };

// ---- board drawing -------------------------------------------------------

function goalFor(conv) {
  if (conv === 'other') return goalCells;
  return conv === 'blank-first' ? [...Array(N).keys()] : [...Array(N).keys()].map((i) => (i + 1) % N);
}

function example() {
  return EXAMPLES[`${W}x${N / W}`] ?? { name: 'Goal', board: goalFor(tablesGoal).join(' '), conv: tablesGoal };
}

function convention() {
  return document.querySelector('input[name=conv]:checked').value;
}

// Tile size in CSS pixels by board width: a 4x4 board is 64 px a tile, an
// 8x8 one 38 px, so that boards of 2x2 to 8x8 stay within about 340 px.
const TILE_PX = [64, 64, 64, 64, 64, 54, 48, 42, 38];

function drawBoard(b) {
  const el = $('board');
  const tile = TILE_PX[Math.min(W, TILE_PX.length - 1)];
  el.style.gridTemplateColumns = `repeat(${W}, var(--tile))`;
  el.style.setProperty('--tile', `${tile}px`);
  el.style.setProperty('--tile-font', `${Math.round(tile * 0.4)}px`);
  el.replaceChildren();
  const goal = goalFor(tablesGoal === 'other' ? 'other' : convention());
  b.forEach((t, c) => {
    const d = document.createElement('div');
    d.className = 'tile' + (t === 0 ? ' blank' : goal[c] === t ? ' home' : '');
    d.textContent = t === 0 ? '' : String(t);
    el.append(d);
  });
}

// ---- loading -------------------------------------------------------------

// fetchWithProgress downloads url as bytes, reporting the fraction received.
// XMLHttpRequest rather than a fetch body stream: its load event comes after
// the request has completed, and it reports progress from Content-Length.
function fetchWithProgress(url, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    xhr.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => (xhr.status === 200 ? resolve(new Uint8Array(xhr.response)) : reject(httpError(url, xhr.status)));
    xhr.onerror = () => reject(new Error(`${url}: network error`));
    xhr.send();
  });
}

// httpError is the error of a download answered with HTTP status: a
// missing file says so (not the parse error its error page would give).
function httpError(url, status) {
  return new Error(status === 404 ? `${url}: no such file on the server (HTTP 404)` : `${url}: HTTP ${status}`);
}

// fetchText downloads url as text; a status other than 200 is an error
// naming the file as name (default url).
async function fetchText(url, name = url) {
  let res;
  try {
    res = await fetch(url);
  } catch {
    throw new Error(`${name}: network error`);
  }
  if (res.status !== 200) throw httpError(name, res.status);
  return res.text();
}

function card(url) {
  const div = document.createElement('div');
  div.className = 'table';
  const name = url.split('/').pop();
  div.innerHTML = `<h3></h3><progress max="1" value="0"></progress><div class="state">waiting</div><canvas class="hist" width="600" height="220"></canvas>`;
  div.querySelector('h3').textContent = name;
  $('tables').append(div);
  return {
    name,
    progress: div.querySelector('progress'),
    state: div.querySelector('.state'),
    canvas: div.querySelector('canvas'),
  };
}

const compact = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : x >= 1e4 ? `${(x / 1e3).toFixed(0)}k` : String(x));

// drawHistogram: one bar per value 0..max_value, height = number of entries.
function drawHistogram(canvas, hist) {
  const ctx = canvas.getContext('2d');
  const Wc = canvas.width;
  const Hc = canvas.height;
  const left = 70;
  const bottom = 34;
  const top = 12;
  ctx.clearRect(0, 0, Wc, Hc);
  const max = Math.max(...hist);
  const bw = (Wc - left - 8) / hist.length;
  ctx.fillStyle = '#2563eb';
  hist.forEach((c, v) => {
    const h = ((Hc - bottom - top) * c) / max;
    ctx.fillRect(left + v * bw + 1, Hc - bottom - h, Math.max(1, bw - 2), h);
  });
  ctx.fillStyle = '#333';
  ctx.font = '20px system-ui, sans-serif';
  ctx.textAlign = 'right';
  ctx.fillText(compact(max), left - 6, top + 14);
  ctx.fillText('0', left - 6, Hc - bottom);
  ctx.textAlign = 'center';
  const step = hist.length > 60 ? 10 : 5; // value labels (tables of big boards reach past 100)
  for (let v = 0; v < hist.length; v += step) ctx.fillText(String(v), left + (v + 0.5) * bw, Hc - 10);
  ctx.strokeStyle = '#999';
  ctx.beginPath();
  ctx.moveTo(left, top);
  ctx.lineTo(left, Hc - bottom);
  ctx.lineTo(Wc - 4, Hc - bottom);
  ctx.stroke();
}

// The worker imports the package's modules by the URLs the import map gives them.
const workerUrl = new URL('./worker.mjs', import.meta.url);
workerUrl.searchParams.set('solver', import.meta.resolve('tilepdb/solver'));
workerUrl.searchParams.set('rank', import.meta.resolve('tilepdb/rank'));
const worker = new Worker(workerUrl, { type: 'module' });
let nextId = 1;
const pending = new Map();
worker.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === 'ready') {
    pending.get('ready')?.resolve();
    return;
  }
  const p = pending.get(m.id);
  if (!p) return;
  if (m.type === 'iteration') {
    $('result').textContent = `searching… bound ${m.bound} done, ${m.nodes.toLocaleString('en-US')} nodes`;
  } else if (m.type === 'solved') {
    pending.delete(m.id);
    p.resolve({ ...m.result, ms: m.ms });
  } else if (m.type === 'error') {
    pending.delete(m.id);
    p.reject(new Error(m.message));
  }
};
worker.onerror = (e) => console.error('worker:', e.message);

// readCard: downloads and verifies one table file, showing it on its card.
async function readCard(url, c) {
  c.state.textContent = 'downloading';
  const bytes = await fetchWithProgress(url, (f) => (c.progress.value = f * 0.5));
  c.state.textContent = 'verifying';
  const t = await readBytes(bytes, { onProgress: ({ done, total }) => (c.progress.value = 0.5 + (0.5 * done) / total) });
  c.progress.value = 1;
  const h = t.header;
  c.state.innerHTML = `<span class="ok">verified</span> · format ${t.version.join('.')} · tiles ${h.tiles.join(',')}${t.zeroAware ? ' · zero-aware' : ''} · ${h.entries.toLocaleString('en-US')} entries · max ${h.max_value} · ${(bytes.length / 1024).toFixed(0)} KiB`;
  drawHistogram(c.canvas, h.histogram);
  c.table = t;
  return t;
}

// openAll: the TableSet of the page's tables (the tables given, or a set
// file and the tables it names), every file verified; and the table cards.
async function openAll() {
  if (!setUrl) {
    const cards = tableUrls.map(card);
    const tables = await Promise.all(tableUrls.map((url, i) => readCard(url, cards[i])));
    return { set: new TableSet(tables, tableUrls), cards };
  }
  const abs = new URL(setUrl, location.href);
  const text = await fetchText(abs.href, setUrl); // a missing set file is named as such, not parsed
  // The table names, for the cards only: openSetBytes checks the set file.
  let names = [];
  try {
    const j = JSON.parse(text);
    names = [...new Set((j.parts ?? j.partitions.flat()).map((p) => p.table))].filter((x) => typeof x === 'string');
  } catch {
    // a malformed set file: openSetBytes says what is wrong
  }
  const cards = new Map(names.map((name) => [name, card(new URL(name, abs).href)]));
  // Every table's download starts at once (one verifies while the next downloads).
  const reads = new Map(names.map((name) => [name, readCard(new URL(name, abs).href, cards.get(name))]));
  for (const r of reads.values()) r.catch(() => {}); // reported through openSetBytes
  const set = await openSetBytes(text, {
    name: setUrl,
    table: (name) => reads.get(name) ?? readCard(new URL(name, abs).href, card(name)),
  });
  return { set, cards: [...cards.values()] };
}

async function load() {
  const t0 = performance.now();
  let set;
  let cards;
  try {
    ({ set, cards } = await openAll());
  } catch (e) {
    $('loadstate').innerHTML = '';
    const s = document.createElement('span');
    s.className = 'bad';
    s.textContent = `Loading failed: ${e.message}`;
    $('loadstate').append(s);
    throw e;
  }
  W = set.w;
  N = set.n;
  goalCells = Array.from(set.goal);
  const goalText = goalCells.join(' ');
  tablesGoal = goalText === goalFor('blank-first').join(' ') ? 'blank-first' : goalText === goalFor('blank-last').join(' ') ? 'blank-last' : 'other';
  // The reflection about the main diagonal needs a square board whose goal has the blank on it.
  const blank = set.goal.indexOf(0);
  const reflect = !set.exact && set.w === set.h && Math.floor(blank / set.w) === blank % set.w;
  const tables = set.tables;
  const ready = new Promise((resolve, reject) => pending.set('ready', { resolve, reject }));
  worker.postMessage(
    {
      type: 'tables',
      id: 'ready',
      reflect,
      // zeroAware: the worker's solver labels the table's regions (SPEC.md section 11)
      tables: tables.map((t) => ({ w: t.pattern.w, h: t.pattern.h, goal: Array.from(t.pattern.goal), tiles: Array.from(t.pattern.tiles), values: t.values.buffer, zeroAware: t.zeroAware })),
      parts: set.parts.map((p) => ({ table: tables.indexOf(p.table), map: p.map && { cell: Array.from(p.map.cell), src: Array.from(p.map.src) } })),
      // a catalogue (SPEC.md section 12): the solver's h is the maximum over the partitions of their sums
      partitions: set.partitions,
    },
    tables.map((t) => t.values.buffer),
  );
  await ready;
  pending.delete('ready');
  const ms = performance.now() - t0;
  const what = setUrl
    ? `${set.catalogue() ? 'Catalogue' : 'Set file'} ${setUrl.split('/').pop()}: ${set.catalogue() ? `${set.partitions.length} partitions of ` : ''}${set.parts.length} parts through ${tables.length} tables`
    : `${tables.length} tables`;
  $('loadstate').textContent = `${what} (${W}x${N / W} board, goal ${tablesGoal}) loaded and verified in ${(ms / 1000).toFixed(2)} s.`;
  $('title').textContent = `${N - 1}-puzzle solver`;
  $('boardLabel').textContent = `Board (${N} numbers in reading order, 0 or _ for the blank):`;
  for (const r of document.querySelectorAll('input[name=conv]')) r.disabled = tablesGoal === 'other';
  showExample();
  state.loaded = true;
  $('solve').disabled = false;
  $('result').textContent = 'Ready. Type or scramble a board and press Solve.';
  return {
    board: { w: W, h: N / W },
    set: setUrl,
    parts: set.parts.map((p) => ({ tiles: Array.from(p.pattern.tiles), symmetry: p.symmetry })),
    partitions: set.partitions,
    tables: cards.map((c) => ({ name: c.name, format: c.table.version.join('.'), encoding: c.table.encoding, kind: c.table.header.kind, entries: c.table.header.entries, max: c.table.header.max_value, verified: true })),
    reflect,
    loadMs: ms,
  };
}

function showExample() {
  const ex = example();
  $('example').textContent = ex.name;
  $('boardInput').value = ex.board;
  const radio = document.querySelector(`input[name=conv][value=${ex.conv}]`);
  if (radio) radio.checked = true;
  drawBoard(ex.board.split(' ').map(Number));
}

// ---- solving and animation ----------------------------------------------

function solveInWorker(board, convert) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ type: 'solve', id, board, convert });
  });
}

async function solveText(text, conv = convention()) {
  const r = parseBoard(text, N);
  if (r.error) throw new Error(r.error);
  const board = Array.from(r.board);
  state.board = board;
  drawBoard(board);
  $('solve').disabled = true;
  $('result').textContent = 'searching…';
  try {
    const res = await solveInWorker(board, tablesGoal !== 'other' && conv !== tablesGoal);
    if (!res.solvable) {
      $('result').textContent = `Not solvable for the ${conv} goal.`;
      return res;
    }
    state.solution = { board, moves: res.moves, conv };
    $('result').textContent = `Optimal: ${res.length} moves (${res.nodes.toLocaleString('en-US')} nodes, ${(res.ms / 1000).toFixed(2)} s)\n${res.moves}`;
    $('animate').disabled = false;
    animate();
    return res;
  } finally {
    $('solve').disabled = false;
  }
}

let animTimer = null;
function animate() {
  const sol = state.solution;
  if (!sol) return;
  clearInterval(animTimer);
  let b = sol.board.slice();
  let i = 0;
  drawBoard(b);
  $('step').textContent = `move 0 of ${sol.moves.length}`;
  state.animating = true;
  animTimer = setInterval(() => {
    if (i >= sol.moves.length) {
      clearInterval(animTimer);
      state.animating = false;
      $('step').textContent = `solved in ${sol.moves.length} moves`;
      return;
    }
    b = Array.from(applyMoves(b, W, sol.moves[i]));
    i++;
    drawBoard(b);
    $('step').textContent = `move ${i} of ${sol.moves.length}: ${sol.moves.slice(0, i)}`;
  }, speed);
}

// Random blank moves of a scramble: 80 up to 5x5; fewer on bigger boards,
// whose boards take IDA* much longer at the same distance.
const scrambleMoves = () => (N <= 25 ? 80 : 40);

function scramble() {
  const b = goalFor(tablesGoal === 'other' ? 'other' : convention()).slice();
  let blank = b.indexOf(0);
  let prev = -1;
  for (let k = scrambleMoves(); k > 0; k--) {
    const opts = [blank - W, blank + W, blank % W ? blank - 1 : -1, blank % W !== W - 1 ? blank + 1 : -1].filter((t) => t >= 0 && t < N && t !== prev);
    const t = opts[Math.floor(Math.random() * opts.length)];
    [b[blank], b[t]] = [b[t], b[blank]];
    prev = blank;
    blank = t;
  }
  $('boardInput').value = b.join(' ');
  drawBoard(b);
}

$('solve').onclick = () => solveText($('boardInput').value).catch((e) => ($('result').textContent = e.message));
$('scramble').onclick = scramble;
$('example').onclick = showExample;
$('animate').onclick = animate;
for (const r of document.querySelectorAll('input[name=conv]')) r.onchange = () => state.board && drawBoard(state.board);
$('boardInput').onchange = () => {
  const r = parseBoard($('boardInput').value, N);
  if (!r.error) drawBoard(Array.from(r.board));
};

const preset = Object.entries(PRESETS).find(([, p]) => (setUrl ? p.set === setUrl : p.tables && p.tables.join(',') === tableUrls.join(',')));
$('preset').value = preset ? preset[0] : '';
$('preset').onchange = () => {
  const p = PRESETS[$('preset').value];
  if (!p) return;
  const q = new URLSearchParams(location.search);
  q.delete('set');
  q.delete('tables');
  if (p.set) q.set('set', p.set);
  else q.set('tables', p.tables.join(','));
  location.search = q.toString();
};
const ready = load();
ready.catch(() => {});
window.tilepdb = { ready, solve: solveText, applyMoves: (board, moves) => Array.from(applyMoves(board, W, moves)), state };
