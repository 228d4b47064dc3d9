// Board syntax and messages of puzzle.ParseBoard as pdbgen lookup prints
// them (scripts/check-readers.sh compares the CLIs with pdbgen itself).
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseBoard, goQuote, trimSpace, decodeRune } from '../board.mjs';

const cases = [
  ['1 2 3 4 5 6 7 8 0', null, [1, 2, 3, 4, 5, 6, 7, 8, 0]],
  ['1,2,3,4,5,6,7,8,x', null, [1, 2, 3, 4, 5, 6, 7, 8, 0]],
  ['  1\t2 ,3, 4 5 6 7 8 _\r', null, [1, 2, 3, 4, 5, 6, 7, 8, 0]],
  ['X,1,2,3,4,5,6,7,8', null, [0, 1, 2, 3, 4, 5, 6, 7, 8]],
  // a cell left empty by a comma (issue 22): refused, naming the cell
  ['  1\t2 ,3,,4 5 6 7 8 _\r', 'bad board: cell 3: empty (a comma with no tile before it)'],
  ['1, \t,2', 'bad board: cell 1: empty (a comma with no tile before it)'],
  [',1,2,3,4,5,6,7,8,0', 'bad board: cell 0: empty (a comma with no tile before it)'],
  ['1,2,3,4,5,6,7,8,0,', 'bad board: cell 9: empty (a comma with no tile before it)'],
  ['1 2 3 4 5 6 7 8 0 ,\t', 'bad board: cell 9: empty (a comma with no tile before it)'],
  ['1,2', 'bad board: 2 cells, want 9'],
  ['+1 02 3 4 5 6 7 8 -0', null, [1, 2, 3, 4, 5, 6, 7, 8, 0]],
  [',,,', 'bad board: empty line'],
  ['1 2 3', 'bad board: 3 cells, want 9'],
  ['1 2 3 4 5 6 7 8 9', 'bad board: cell 8: tile 9 out of range 0..8'],
  ['1 2 3 4 5 6 7 8 -1', 'bad board: cell 8: tile -1 out of range 0..8'],
  ['1 2 3 4 5 6 7 8 99999999999999999999', 'bad board: cell 8: "99999999999999999999" is not a tile number or blank (0, x, _)'],
  ['1 2 3 4 5 6 7 8 9223372036854775807', 'bad board: cell 8: tile 9223372036854775807 out of range 0..8'],
  ['1 2 3 4 5 6 7 8 o', 'bad board: cell 8: "o" is not a tile number or blank (0, x, _)'],
  ['1 2 3 4 5 6 7 8 "\\', 'bad board: cell 8: "\\"\\\\" is not a tile number or blank (0, x, _)'],
  ['1 2 3 4 5 6 7 8 é\u00a0\u0007', 'bad board: cell 8: "é\\u00a0\\a" is not a tile number or blank (0, x, _)'],
  ['1 2 3 4 5 6 7 8 ８', 'bad board: cell 8: "８" is not a tile number or blank (0, x, _)'],
  ['1 1 3 4 5 6 7 8 0', 'bad board: tile 1 appears twice'],
  ['0 2 3 4 5 6 7 8 0', 'bad board: more than one blank'],
  ['1 2 3 4 5 6 7 8 2', 'bad board: tile 2 appears twice'],
  ['0 2 3 4 5 6 7 8 2', 'bad board: tile 2 appears twice'],
];

test('parseBoard: boards and Go error messages', () => {
  for (const [line, err, board] of cases) {
    const r = parseBoard(line, 9);
    if (err) assert.equal(r.error, err, line);
    else assert.deepEqual(Array.from(r.board), board, line);
  }
});

test('goQuote follows strconv.Quote', () => {
  const q = (bytes) => goQuote(Uint8Array.from(bytes));
  assert.equal(q([0x61, 0xff, 0x62]), '"a\\xffb"');
  assert.equal(q([0xed, 0xa0, 0x80]), '"\\xed\\xa0\\x80"'); // surrogate: invalid UTF-8
  assert.equal(q([0x7f, 0x0a, 0x09]), '"\\x7f\\n\\t"');
  assert.equal(q([...new TextEncoder().encode('\u200b\u{1f600}\u{e0001}')]), '"\\u200b😀\\U000e0001"');
});

test('trimSpace trims what Go trims (U+0085 and U+3000, not U+FEFF or invalid bytes)', () => {
  const t = (s) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(trimSpace(new TextEncoder().encode(s)));
  assert.equal(t('\u0085 \u3000x y\u2029\t'), 'x y');
  assert.equal(t('\ufeffx'), '\ufeffx');
  assert.deepEqual(Array.from(trimSpace(Uint8Array.from([0x20, 0xc2, 0x20]))), [0xc2]);
});

test('decodeRune rejects overlong and out-of-range sequences', () => {
  assert.deepEqual(decodeRune(Uint8Array.from([0xc0, 0x80]), 0), [0xfffd, 1]);
  assert.deepEqual(decodeRune(Uint8Array.from([0xf4, 0x90, 0x80, 0x80]), 0), [0xfffd, 1]);
  assert.deepEqual(decodeRune(Uint8Array.from([0xe2, 0x82, 0xac]), 0), [0x20ac, 3]);
});

test('parseBoard round trip on boards up to 8x8 (36, 49, 64 cells): every syntax reads back the same board', () => {
  let s = 12345;
  const rnd = (m) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return Math.floor((s / 2 ** 32) * m);
  };
  for (const n of [36, 42, 49, 56, 64]) {
    for (let trial = 0; trial < 200; trial++) {
      const b = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = rnd(i + 1);
        [b[i], b[j]] = [b[j], b[i]];
      }
      const seps = [' ', '\t', ',', ', ', ' ,\t'];
      const text = b.map((t) => (t === 0 ? ['0', 'x', 'X', '_'][rnd(4)] : (rnd(10) === 0 ? '+' : '') + String(t))).join(seps[rnd(seps.length)]);
      const r = parseBoard(text, n);
      assert.equal(r.error, undefined, text);
      assert.deepEqual(Array.from(r.board), b, text);
    }
    assert.equal(parseBoard(Array.from({ length: n }, (_, i) => i).join(' '), n + 1).error, `bad board: ${n} cells, want ${n + 1}`);
    assert.equal(parseBoard(Array.from({ length: n }, (_, i) => (i === 1 ? n : i)).join(' '), n).error, `bad board: cell 1: tile ${n} out of range 0..${n - 1}`);
  }
});
