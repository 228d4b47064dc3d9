// The page: loads and verifies the tables (readers/js), draws their
// histograms, and hands the values to the solver worker.
//
// Query parameters (optional): tables=URL,URL,... (default: the 15-663 set in
// ../data/), speed=MS per animated move (default 250).
// For tests, window.tilepdb exposes: ready (a Promise of the load summary),
// solve(text, convention) (a Promise of the solution) and state.
import { readBytes } from '../readers/js/tilepdb.mjs';
import { parseBoard } from '../readers/js/board.mjs';
import { applyMoves } from '../readers/js/solver.mjs';

const params = new URLSearchParams(location.search);
const DEFAULT_TABLES = ['15-663_1-5-6-9-10-13', '15-663_7-8-11-12-14-15', '15-663_2-3-4'].map((n) => `../data/${n}.pdb`);
const tableUrls = params.get('tables') ? params.get('tables').split(',') : DEFAULT_TABLES;
const speed = Number(params.get('speed') || 250);
const W = 4;
const N = 16;

const $ = (id) => document.getElementById(id);
const state = { loaded: false, board: null, solution: null, animating: false };

// ---- board drawing -------------------------------------------------------

function goalFor(conv) {
  return conv === 'blank-first' ? [...Array(N).keys()] : [...Array(N).keys()].map((i) => (i + 1) % N);
}

function convention() {
  return document.querySelector('input[name=conv]:checked').value;
}

function drawBoard(b) {
  const el = $('board');
  el.replaceChildren();
  const goal = goalFor(convention());
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
    xhr.onload = () => (xhr.status === 200 ? resolve(new Uint8Array(xhr.response)) : reject(new Error(`${url}: HTTP ${xhr.status}`)));
    xhr.onerror = () => reject(new Error(`${url}: network error`));
    xhr.send();
  });
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
  for (let v = 0; v < hist.length; v += 5) ctx.fillText(String(v), left + (v + 0.5) * bw, Hc - 10);
  ctx.strokeStyle = '#999';
  ctx.beginPath();
  ctx.moveTo(left, top);
  ctx.lineTo(left, Hc - bottom);
  ctx.lineTo(Wc - 4, Hc - bottom);
  ctx.stroke();
}

const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
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

async function load() {
  const t0 = performance.now();
  const cards = tableUrls.map(card);
  const tables = await Promise.all(tableUrls.map(async (url, i) => {
    const c = cards[i];
    c.state.textContent = 'downloading';
    const bytes = await fetchWithProgress(url, (f) => (c.progress.value = f * 0.5));
    c.state.textContent = 'verifying';
    const t = await readBytes(bytes, { onProgress: ({ done, total }) => (c.progress.value = 0.5 + (0.5 * done) / total) });
    c.progress.value = 1;
    const h = t.header;
    c.state.innerHTML = `<span class="ok">verified</span> · format ${t.version.join('.')} · tiles ${h.tiles.join(',')} · ${h.entries.toLocaleString('en-US')} entries · max ${h.max_value} · ${(bytes.length / 1024).toFixed(0)} KiB`;
    drawHistogram(c.canvas, h.histogram);
    return t;
  })).catch((e) => {
    $('loadstate').innerHTML = '';
    const s = document.createElement('span');
    s.className = 'bad';
    s.textContent = `Loading failed: ${e.message}`;
    $('loadstate').append(s);
    throw e;
  });
  const ready = new Promise((resolve, reject) => pending.set('ready', { resolve, reject }));
  worker.postMessage({
    type: 'tables',
    tables: tables.map((t) => ({ w: t.pattern.w, h: t.pattern.h, goal: Array.from(t.pattern.goal), tiles: Array.from(t.pattern.tiles), values: t.values.buffer })),
  }, tables.map((t) => t.values.buffer));
  await ready;
  const ms = performance.now() - t0;
  $('loadstate').textContent = `${tables.length} tables loaded and verified in ${(ms / 1000).toFixed(2)} s.`;
  state.loaded = true;
  $('solve').disabled = false;
  $('result').textContent = 'Ready. Type or scramble a board and press Solve.';
  return { tables: tables.map((t, i) => ({ name: cards[i].name, format: t.version.join('.'), encoding: t.encoding, entries: t.header.entries, max: t.header.max_value, verified: true })), loadMs: ms };
}

// ---- solving and animation ----------------------------------------------

function solveInWorker(board, fromBlankFirst) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ type: 'solve', id, board, fromBlankFirst });
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
    const res = await solveInWorker(board, conv === 'blank-first');
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

function scramble() {
  const b = goalFor(convention());
  let blank = b.indexOf(0);
  let prev = -1;
  for (let k = 0; k < 80; k++) {
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
$('korf1').onclick = () => {
  $('boardInput').value = '14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3';
  document.querySelector('input[name=conv][value=blank-first]').checked = true;
  drawBoard([14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]);
};
$('animate').onclick = animate;
for (const r of document.querySelectorAll('input[name=conv]')) r.onchange = () => state.board && drawBoard(state.board);
$('boardInput').onchange = () => {
  const r = parseBoard($('boardInput').value, N);
  if (!r.error) drawBoard(Array.from(r.board));
};

drawBoard([14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]);
const ready = load();
ready.catch(() => {});
window.tilepdb = { ready, solve: solveText, state };
