#!/usr/bin/env node
// Command-line entry point of the JavaScript reader, with the contract of
// `pdbgen lookup` (cmd/pdbgen/lookup.go, boards.go):
//
//   node readers/js/cli.mjs lookup FILE... < boards
//
// FILE: table files and set files (`<name>.set.json`, SPEC.md section 10:
// one table serving several patterns through a board symmetry), as pdbgen
// takes them (tilepdb.mjs openSet). It reads boards from stdin, one per
// line, and prints "<board>\t<value>" for each as soon as it is known, the
// value being the sum over the parts (or the exact distance; for a
// catalogue, SPEC.md section 12, the maximum over its partitions of their sums), or "<board>\tunsolvable" for a board that cannot
// reach the goal (exact and additive tables alike; not an error). Blank
// lines, lines whose first non-space character is '#' and a UTF-8
// byte-order mark at the start are skipped. A bad line, one longer than
// 4096 bytes included (of any length), prints "line N: <problem>" to
// stderr and is skipped; the others are answered. Exit status: 0 every line
// answered; 1 bad data (some bad lines, a corrupt table, tables that do
// not combine: overlapping tiles, an exact table in a set, different boards
// or goals); 2 usage or I/O
// trouble (a missing file, a write error on stdout); 130/143 interrupted by
// SIGINT/SIGTERM. A malformed set file, or one that does not hold together
// with its tables, is bad data (1).
//
//   node readers/js/cli.mjs verify FILE...   reads and verifies each table or
//   set file (with its tables) (exit 0, 1 bad data, 2 trouble)

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openSet, TilepdbError, SetError, LimitError, readFile, isSetFile, ioMessage, Table, TableSet, Regions, KIND_ZERO_AWARE } from './tilepdb.mjs';
import { LineSplitter, boardOfLine } from './board.mjs';
import { Pattern, positions } from './rank.mjs';

const PROG = 'tilepdb-js';

class ExitError extends Error {
  constructor(code, msg) {
    super(msg);
    this.code = code;
  }
}

function usage() {
  return `usage: node cli.mjs lookup FILE... < boards   (FILE: tables and set files)
       node cli.mjs verify FILE...`;
}

// parseArgs: flags are only -h/--help; "--" ends them; any other "-x" is a usage error.
function parseArgs(cmd, args) {
  const files = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a === '-h' || a === '--help' || a === '-help') {
      process.stdout.write(usage() + '\n');
      throw new ExitError(0, '');
    }
    if (a.startsWith('-') && a !== '-') throw new ExitError(2, `flag provided but not defined: ${a}`);
    files.push(a);
  }
  if (files.length === 0) throw new ExitError(2, `no table files given (usage: node cli.mjs ${cmd} FILE...${cmd === 'lookup' ? ' < boards' : ''})`);
  return files;
}

// systemMessage words a Node system error as Go's *os.PathError does
// ("open PATH: no such file or directory"), so the final error line is
// pdbgen's; other errors keep their message.
const systemMessage = ioMessage;

// The tables are read and verified in a worker thread (inWorker), so that
// the main thread, whose event loop delivers SIGINT and SIGTERM, is never
// busy for long: decoding and checking a large table runs for seconds
// without a break, and a signal would wait until it ends. process.exit on
// the main thread stops the worker.

// inWorker runs task ('open' or 'verify') on files in a worker thread:
// lines it writes arrive as { out } and { err } messages; resolves to the
// final message.
function inWorker(task, files) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { task, files } });
    w.on('message', (m) => {
      if (m.out !== undefined) process.stdout.write(m.out);
      else if (m.err !== undefined) process.stderr.write(m.err);
      else resolve(m);
    });
    w.on('error', reject);
    w.on('exit', (code) => reject(new ExitError(2, `reading the tables: worker thread exited with status ${code}`)));
  });
}

// exitOf: the exit status and message of a reading error: 1 for bad data
// (a corrupt table, tables given together that do not form one heuristic:
// pdbgen's puzzle.ErrNotAdditive), 2 for trouble (a missing or unreadable
// file, a table too large).
function exitOf(e) {
  if (e instanceof LimitError) return { code: 2, message: e.message };
  if (e instanceof SetError || e instanceof TilepdbError) return { code: 1, message: e.message };
  return { code: 2, message: systemMessage(e) };
}

// openSetInWorker: openSet(files) in a worker thread; the set is rebuilt
// here around the tables' values, which are moved, not copied.
async function openSetInWorker(files) {
  const m = await inWorker('open', files);
  if (m.error) throw new ExitError(m.error.code, m.error.message);
  const tables = m.tables.map((t) => {
    const p = new Pattern(t.w, t.h, t.goal, t.tiles);
    // a zero-aware table's region numbering is labelled again here (a flood fill per cell set)
    return new Table(t.header, p, new Uint8Array(t.values), t.version, t.header.kind === KIND_ZERO_AWARE ? new Regions(p) : null);
  });
  const parts = m.parts.map((p) => ({ pattern: new Pattern(p.w, p.h, p.goal, p.tiles), table: tables[p.table], symmetry: p.symmetry, map: p.map }));
  return TableSet.fromParts(parts, undefined, undefined, m.partitions ?? undefined);
}

// workerMain: the worker thread's side of inWorker.
async function workerMain({ task, files }) {
  if (task === 'open') {
    let set;
    try {
      set = await openSet(files);
    } catch (e) {
      parentPort.postMessage({ error: exitOf(e) });
      return;
    }
    const tables = set.tables;
    const geometry = (p) => ({ w: p.w, h: p.h, goal: Array.from(p.goal), tiles: Array.from(p.tiles) });
    parentPort.postMessage(
      {
        tables: tables.map((t) => ({ header: t.header, version: t.version, values: t.values, ...geometry(t.pattern) })),
        parts: set.parts.map((p) => ({ table: tables.indexOf(p.table), symmetry: p.symmetry, map: p.map, ...geometry(p.pattern) })),
        partitions: set.partitions,
      },
      tables.map((t) => t.values.buffer),
    );
    return;
  }
  let bad = 0;
  let trouble = 0;
  for (const f of files) {
    try {
      if (await isSetFile(f)) {
        const s = await openSet([f]);
        const what = s.catalogue() ? `catalogue, ${s.w}x${s.h} board, ${s.partitions.length} partitions of ${s.parts.length} parts` : `set file, ${s.w}x${s.h} board, ${s.parts.length} parts`;
        parentPort.postMessage({ out: `${f}: ok (${what} through ${s.tables.length} tables)\n` });
        continue;
      }
      const t = await readFile(f);
      parentPort.postMessage({ out: `${f}: ok (${t.pattern}, ${t.header.entries} entries, max ${t.header.max_value})\n` });
    } catch (e) {
      parentPort.postMessage({ err: `${systemMessage(e)}\n` });
      if (e instanceof TilepdbError) bad++;
      else trouble++;
    }
  }
  parentPort.postMessage({ bad, trouble });
}

// interrupted stops the command on SIGINT/SIGTERM as pdbgen does: what was
// answered is already written (each answer goes out as it is known); exit
// 130 or 143 with "interrupted".
function onSignals(cmd) {
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
    process.on(sig, () => {
      process.stderr.write(`${PROG} ${cmd}: interrupted\n`);
      process.exit(code);
    });
  }
}

// writeOut writes text to stdout; a write error (a full disk, a closed
// pipe) ends the command with exit 2, as pdbgen's "writing output: ...".
let writeFailed = null;
function writeOut(text) {
  if (writeFailed) throw writeFailed;
  process.stdout.write(text);
}
function watchStdout(cmd) {
  process.stdout.on('error', (e) => {
    if (writeFailed) return;
    writeFailed = new ExitError(2, `writing output: ${e.message}`);
    process.stderr.write(`${PROG} ${cmd}: ${writeFailed.message}\n`);
    process.exit(2);
  });
}

async function lookup(args) {
  const files = parseArgs('lookup', args);
  onSignals('lookup');
  watchStdout('lookup');
  const set = await openSetInWorker(files);
  const n = set.n;
  const pos = new Uint8Array(n);
  const parts0 = set.parts[0].pattern;
  // Answers of the lines of one input chunk are written together, before
  // the next chunk is awaited: an answer never waits for more input
  // (pdbgen flushes when no later answer is ready).
  let out = '';
  const flush = () => {
    if (out) {
      writeOut(out);
      out = '';
    }
  };
  let bad = 0;
  const answer = (line) => {
    const r = boardOfLine(line, n);
    if (r === null) return;
    if (r.error) {
      flush();
      process.stderr.write(`line ${line.no}: ${r.error}\n`);
      bad++;
      return;
    }
    positions(r.board, pos);
    // format.Set.Lookup's rule (TableSet.lookup), on the fast path.
    const value = parts0.solvablePositions(pos) ? set.heuristic(pos) : 'unsolvable';
    out += `${r.board.join(' ')}\t${value}\n`;
  };
  const lines = new LineSplitter();
  try {
    for await (const chunk of process.stdin) {
      for (const line of lines.push(chunk)) answer(line);
      flush();
    }
  } catch (e) {
    if (e instanceof ExitError) throw e;
    throw new ExitError(2, `reading boards: ${e.message}`);
  }
  for (const line of lines.end()) answer(line);
  flush();
  if (bad > 0) throw new ExitError(1, `${bad} bad line(s)`);
}

async function verify(args) {
  const files = parseArgs('verify', args);
  onSignals('verify');
  const { bad, trouble } = await inWorker('verify', files);
  if (trouble) throw new ExitError(2, `${trouble} file(s) could not be read`);
  if (bad) throw new ExitError(1, `${bad} bad file(s)`);
}

async function main(argv) {
  const [cmd, ...args] = argv;
  const commands = { lookup, verify };
  if (!cmd || cmd === '-h' || cmd === '--help' || cmd === 'help') {
    process.stderr.write(usage() + '\n');
    return cmd ? 0 : 2;
  }
  if (!commands[cmd]) {
    process.stderr.write(`${PROG}: unknown command "${cmd}"\n${usage()}\n`);
    return 2;
  }
  try {
    await commands[cmd](args);
    return 0;
  } catch (e) {
    if (e instanceof ExitError) {
      if (e.message) process.stderr.write(`${PROG} ${cmd}: ${e.message}\n`);
      return e.code;
    }
    process.stderr.write(`${PROG} ${cmd}: ${e && e.message ? e.message : e}\n`);
    return 2;
  }
}

if (isMainThread) {
  const code = await main(process.argv.slice(2));
  // Let stdout drain before exiting.
  process.exitCode = code;
} else {
  await workerMain(workerData);
}
