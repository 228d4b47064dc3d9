#!/usr/bin/env node
// Command-line entry point of the JavaScript reader, with the contract of
// `pdbgen lookup` (cmd/pdbgen):
//
//   node readers/js/cli.mjs lookup FILE... < boards
//
// reads boards from stdin, one per line (blank lines and lines starting with
// '#' are skipped), and prints "<board>\t<value>" for each, the value being
// the sum over the tables (or the exact distance). A bad line prints
// "line N: <error>" to stderr and is skipped. Exit status: 0 all good; 1 bad
// data (a bad line, a corrupt table); 2 usage or I/O trouble.
//
//   node readers/js/cli.mjs verify FILE...   reads and verifies each table (exit 0, 1 bad data, 2 trouble)

import { openSet, TilepdbError, SetError, LimitError, readFile } from './tilepdb.mjs';
import { trimSpace, parseBoardBytes, MAX_LINE_LEN, MAX_SCAN_LEN } from './board.mjs';
import { positions } from './rank.mjs';

const PROG = 'tilepdb-js';

class ExitError extends Error {
  constructor(code, msg) {
    super(msg);
    this.code = code;
  }
}

function usage() {
  return `usage: node cli.mjs lookup FILE... < boards
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

// fileErr maps a reading error to an exit status: 1 for bad data, 2 otherwise.
function fileErr(e) {
  if (e instanceof TilepdbError) return new ExitError(1, e.message);
  return new ExitError(2, e.message);
}

async function* stdinLines() {
  // Lines as Go's bufio.Scanner with ScanLines yields them: split on '\n',
  // one trailing '\r' dropped, a last line without newline included; a line
  // of MAX_SCAN_LEN bytes or more ends the input with an error.
  let pending = new Uint8Array(0);
  for await (const chunk of process.stdin) {
    let buf = pending.length ? concat(pending, chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(0x0a, start);
      if (nl < 0) break;
      if (nl - start >= MAX_SCAN_LEN) throw new ExitError(2, 'reading boards: bufio.Scanner: token too long');
      yield dropCR(buf.subarray(start, nl));
      start = nl + 1;
    }
    pending = buf.slice(start);
    if (pending.length >= MAX_SCAN_LEN) throw new ExitError(2, 'reading boards: bufio.Scanner: token too long');
  }
  if (pending.length > 0) yield dropCR(pending);
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function dropCR(b) {
  return b.length > 0 && b[b.length - 1] === 0x0d ? b.subarray(0, b.length - 1) : b;
}

async function lookup(args) {
  const files = parseArgs('lookup', args);
  let set;
  try {
    set = await openSet(files);
  } catch (e) {
    if (e instanceof SetError || e instanceof LimitError) throw new ExitError(2, e.message);
    throw fileErr(e);
  }
  const n = set.n;
  const pos = new Uint8Array(n);
  const pattern0 = set.tables[0].pattern;
  let out = [];
  let outLen = 0;
  const flush = () => {
    if (out.length) {
      process.stdout.write(out.join(''));
      out = [];
      outLen = 0;
    }
  };
  let bad = 0;
  let lineNo = 0;
  try {
    for await (const raw of stdinLines()) {
      lineNo++;
      const s = trimSpace(raw);
      if (s.length === 0 || s[0] === 0x23) continue;
      if (s.length > MAX_LINE_LEN) {
        flush();
        process.stderr.write(`line ${lineNo}: line longer than ${MAX_LINE_LEN} bytes\n`);
        bad++;
        continue;
      }
      const r = parseBoardBytes(s, n);
      let err = r.error;
      let h = 0;
      if (!err) {
        positions(r.board, pos);
        if (pattern0.solvablePositions(pos) || !set.exact) h = set.heuristic(pos);
        else err = `board is not solvable for goal ${pattern0.goalName}; the exact table has no entry for it`;
      }
      if (err) {
        flush();
        process.stderr.write(`line ${lineNo}: ${err}\n`);
        bad++;
        continue;
      }
      const text = `${r.board.join(' ')}\t${h}\n`;
      out.push(text);
      outLen += text.length;
      if (outLen > 1 << 16) flush();
    }
  } finally {
    flush();
  }
  if (bad > 0) throw new ExitError(1, `${bad} bad line(s)`);
}

async function verify(args) {
  const files = parseArgs('verify', args);
  let bad = 0;
  let trouble = 0;
  for (const f of files) {
    try {
      const t = await readFile(f);
      process.stdout.write(`${f}: ok (${t.pattern}, ${t.header.entries} entries, max ${t.header.max_value})\n`);
    } catch (e) {
      process.stderr.write(`${e.message}\n`);
      if (e instanceof TilepdbError) bad++;
      else trouble++;
    }
  }
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

const code = await main(process.argv.slice(2));
// Let stdout drain before exiting.
process.exitCode = code;
