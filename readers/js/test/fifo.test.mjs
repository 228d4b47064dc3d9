// Issue 22: the JavaScript reader given a FIFO (or anything but a regular
// file) where it reads a file refuses it at once, with one line naming it
// and exit 2, instead of blocking in open() forever; and Ctrl-C ends the
// command line with "interrupted" (exit 130). POSIX only: mkfifo.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { here, kitDir, root } from './helpers.mjs';
import { readFile, openSet, openSetFile, isSetFile, NotRegularFileError } from '../tilepdb.mjs';

const cli = path.join(here, '..', 'cli.mjs');
const setsDir = path.join(root, 'readers', 'testdata', 'sets');
const noFifo = process.platform === 'win32' || spawnSync('mkfifo', ['--version']).error ? 'mkfifo is not available (POSIX only)' : false;

// run: the command line with a deadline; a reader that blocks is killed and reported.
function run(args, { input = '', deadlineMs = 20000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err });
    });
    child.stdin.end(input);
  });
}

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tilepdb-fifo-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function mkfifo(file) {
  const r = spawnSync('mkfifo', [file]);
  assert.equal(r.status, 0, `mkfifo ${file}: ${r.stderr}`);
}

test('a FIFO given as a table or set file is refused at once: one line naming it, exit 2', { skip: noFifo }, async (t) => {
  const dir = tempDir(t);
  const fifo = path.join(dir, 'f.pdb');
  const fifoSet = path.join(dir, 'f.set.json');
  mkfifo(fifo);
  mkfifo(fifoSet);
  const good = path.join(kitDir, 'good-additive.pdb');
  for (const args of [['lookup', fifo], ['lookup', good, fifo], ['lookup', fifoSet], ['verify', fifo], ['verify', fifoSet]]) {
    const r = await run(args, { input: '1 2 3 4 5 6 7 8 0\n' });
    assert.equal(r.signal, null, `${args.join(' ')}: blocked, killed after the deadline`);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    const named = args[args.length - 1];
    assert.ok(r.err.includes(`${named}: not a regular file (a named pipe)\n`), `${args.join(' ')}: ${r.err}`);
    assert.equal(r.out, '');
  }
  const r = await run(['lookup', fifo]);
  assert.equal(r.err, `tilepdb-js lookup: ${fifo}: not a regular file (a named pipe)\n`);
});

test('a set file naming a FIFO as a table is refused, naming the set file, the part and the FIFO', { skip: noFifo }, async (t) => {
  const dir = tempDir(t);
  const set = path.join(dir, 'good-3x2.set.json');
  fs.copyFileSync(path.join(setsDir, 'good-3x2.set.json'), set);
  mkfifo(path.join(dir, '3x2_1.pdb'));
  const r = await run(['lookup', set], { input: '1 2 3 4 5 0\n' });
  assert.equal(r.signal, null, 'blocked, killed after the deadline');
  assert.equal(r.code, 2, r.err);
  assert.equal(r.err, `tilepdb-js lookup: ${set}: part 1: ${path.join(dir, '3x2_1.pdb')}: not a regular file (a named pipe)\n`);
});

test('the library refuses a FIFO or a directory with NotRegularFileError and does not open it', { skip: noFifo }, async (t) => {
  const dir = tempDir(t);
  const fifo = path.join(dir, 'f.pdb');
  mkfifo(fifo);
  for (const [p, kind] of [[fifo, 'a named pipe'], [dir, 'a directory']]) {
    await assert.rejects(readFile(p), (e) => e instanceof NotRegularFileError && e.message === `${p}: not a regular file (${kind})` && e.what === kind);
    await assert.rejects(openSet([p]), NotRegularFileError);
    await assert.rejects(openSetFile(p), NotRegularFileError);
    assert.equal(await isSetFile(p), false);
  }
});

test('Ctrl-C ends lookup with "interrupted", exit 130, while it waits for boards', { skip: process.platform === 'win32' ? 'no SIGINT on Windows' : false }, async () => {
  const child = spawn(process.execPath, [cli, 'lookup', path.join(kitDir, 'good-additive.pdb')]);
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const answered = new Promise((resolve) => child.stdout.on('data', (d) => (out += d) && resolve()));
  child.stdin.write('1 2 3 4 5 6 7 8 0\n');
  await answered;
  const t0 = performance.now();
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(timer);
  const ms = performance.now() - t0;
  assert.equal(signal, null, 'still running after SIGINT: killed');
  assert.equal(code, 130);
  assert.equal(err, 'tilepdb-js lookup: interrupted\n');
  assert.equal(out, '1 2 3 4 5 6 7 8 0\t0\n');
  console.log(`# exit ${ms.toFixed(0)} ms after SIGINT`);
});

// Ctrl-C while a table is being verified: the tables are read in a worker
// thread, so the main thread handles the signal at once instead of after
// the decoding of the table under way. Calibrated against the time the
// same verify takes uninterrupted on this machine.
const big = path.join(root, 'data', '15-663_7-8-11-12-14-15.pdb');
test('Ctrl-C ends verify with "interrupted", exit 130, while a table is being read', { skip: process.platform === 'win32' ? 'no SIGINT on Windows' : fs.existsSync(big) ? false : 'run make data' }, async () => {
  const small = path.join(kitDir, 'good-additive.pdb');
  const files = [small, big, big, big, big];
  const t0 = performance.now();
  const full = await run(['verify', ...files], { deadlineMs: 120000 });
  const fullMs = performance.now() - t0;
  assert.equal(full.code, 0, full.err);

  const child = spawn(process.execPath, [cli, 'verify', ...files]);
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  let sent = 0;
  child.stdout.on('data', (d) => {
    out += d;
    if (!sent) {
      sent = performance.now(); // the small table is done: the big ones are being read
      child.kill('SIGINT');
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 120000);
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(timer);
  const ms = performance.now() - sent;
  assert.equal(signal, null);
  assert.equal(code, 130, err);
  assert.equal(err, 'tilepdb-js verify: interrupted\n');
  assert.equal(out.split('\n').filter(Boolean).length, 1, out);
  console.log(`# exit ${ms.toFixed(0)} ms after SIGINT; the whole verify takes ${fullMs.toFixed(0)} ms`);
  assert.ok(ms < Math.max(250, fullMs / 4), `exit ${ms.toFixed(0)} ms after SIGINT; the whole verify takes ${fullMs.toFixed(0)} ms`);
});
