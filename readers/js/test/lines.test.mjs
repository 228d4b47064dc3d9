// Board input split into lines as pdbgen lookup reads it (cmd/pdbgen/boards.go
// readBoards): LineSplitter and boardOfLine. scripts/check-readers.sh compares
// the CLIs with pdbgen itself on the same cases.
import test from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, boardOfLine, MAX_LINE_LEN, LINE_TOO_LONG } from '../board.mjs';

const enc = (s) => new TextEncoder().encode(s);
const dec = (b) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

/** Lines of input fed in chunks of the given sizes (cycled), as [no, text or null for too long]. */
function split(input, sizes = [input.length || 1]) {
  const s = new LineSplitter();
  const out = [];
  const add = (l) => out.push([l.no, l.tooLong ? null : dec(l.text)]);
  for (let i = 0, k = 0; i < input.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]);
    for (const l of s.push(input.subarray(i, i + n))) add(l);
    i += n;
  }
  for (const l of s.end()) add(l);
  return out;
}

const x = (n) => 'x'.repeat(n);
const BOM = '\ufeff';

const cases = [
  ['', []],
  ['\n', [[1, '']]],
  ['a', [[1, 'a']]],
  ['a\nb\n', [[1, 'a'], [2, 'b']]],
  ['a\r\n\r\nb\r', [[1, 'a'], [2, ''], [3, 'b']]],
  ['a\r\r\n', [[1, 'a\r']]], // one "\r" dropped, as strings.TrimSuffix
  [BOM + 'a\n' + BOM + 'b\n', [[1, 'a'], [2, BOM + 'b']]], // a BOM only at the start
  ['\n' + BOM + 'a', [[1, ''], [2, BOM + 'a']]],
  [BOM, [[1, '']]],
  [x(MAX_LINE_LEN) + '\n', [[1, x(MAX_LINE_LEN)]]],
  [x(MAX_LINE_LEN) + '\r\n', [[1, x(MAX_LINE_LEN)]]],
  [x(MAX_LINE_LEN + 1) + '\n', [[1, null]]],
  [x(MAX_LINE_LEN + 1) + '\r\nok', [[1, null], [2, 'ok']]],
  [x(MAX_LINE_LEN + 1), [[1, null]]],
  [x(MAX_LINE_LEN + 2), [[1, null]]],
  [BOM + x(MAX_LINE_LEN - 2) + '\n', [[1, x(MAX_LINE_LEN - 2)]]],
  // the limit is measured without the BOM (pdbgen's read buffer has room
  // for it and "\r\n": see READ_BUF_LEN)
  [BOM + x(MAX_LINE_LEN - 1) + '\n', [[1, x(MAX_LINE_LEN - 1)]]],
  [BOM + x(MAX_LINE_LEN) + '\n', [[1, x(MAX_LINE_LEN)]]],
  [BOM + x(MAX_LINE_LEN) + '\r\nok', [[1, x(MAX_LINE_LEN)], [2, 'ok']]],
  [BOM + x(MAX_LINE_LEN + 1) + '\n', [[1, null]]],
  [BOM + x(MAX_LINE_LEN + 2), [[1, null]]],
  [x(3 << 20) + '\nnext\n' + x(5000), [[1, null], [2, 'next'], [3, null]]],
];

test('LineSplitter: lines, numbers, BOM, "\\r", the length limit, any chunking', () => {
  for (const [input, want] of cases) {
    const b = enc(input);
    const label = JSON.stringify(input.length > 40 ? input.slice(0, 20) + '...' + input.length : input);
    assert.deepEqual(split(b), want, label);
    for (const sizes of [[1], [2], [3], [7, 1], [4097], [4098, 1], [4099], [65536]]) {
      if (b.length > 20000 && sizes[0] < 1000) continue;
      assert.deepEqual(split(b, sizes), want, `${label} in chunks of ${sizes}`);
    }
  }
});

test('LineSplitter keeps at most a line buffer, whatever the line length', () => {
  const s = new LineSplitter();
  const big = new Uint8Array(1 << 20).fill(0x31);
  for (let i = 0; i < 64; i++) assert.equal([...s.push(big)].length, 0);
  assert.ok(s.buf.length <= MAX_LINE_LEN + 5);
  const lines = [...s.push(enc('\n1\n'))];
  assert.deepEqual(lines.map((l) => [l.no, !!l.tooLong]), [[1, true], [2, false]]);
});

test('boardOfLine: skipped, too long, and boards parsed untrimmed as puzzle.ParseBoard', () => {
  const line = (s) => ({ no: 1, text: enc(s) });
  assert.equal(boardOfLine(line(''), 9), null);
  assert.equal(boardOfLine(line(' \t\u3000'), 9), null);
  assert.equal(boardOfLine(line('  # 1 2 3'), 9), null);
  assert.deepEqual(boardOfLine({ no: 1, tooLong: true }, 9), { error: LINE_TOO_LONG });
  assert.equal(LINE_TOO_LONG, 'line longer than 4096 bytes');
  assert.deepEqual(Array.from(boardOfLine(line('\t1 2 3 4 5 6 7 8 0 '), 9).board), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
  // TrimSpace would drop U+00A0 and U+000B, ParseBoard does not split at them
  assert.equal(boardOfLine(line('\u00a01 2 3 4 5 6 7 8 0'), 9).error, 'bad board: cell 0: "\\u00a01" is not a tile number or blank (0, x, _)');
  assert.equal(boardOfLine(line('1 2 3 4 5 6 7 8 0\u000b'), 9).error, 'bad board: cell 8: "0\\v" is not a tile number or blank (0, x, _)');
  assert.equal(boardOfLine(line(',,,'), 9).error, 'bad board: empty line');
});
