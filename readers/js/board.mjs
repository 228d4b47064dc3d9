// Board syntax of `pdbgen lookup` (puzzle.ParseBoard), reproduced byte for
// byte, error messages included, so that the readers' CLIs give the same
// answers and the same `line N: ...` errors as pdbgen. No dependencies.
//
// A board line is N numbers in reading order separated by spaces, tabs
// and/or commas, no cell left empty between commas ("1,,2" is refused);
// "0", "x", "X" or "_" is the blank. Lines are bytes
// (UTF-8, possibly invalid); quoting in messages follows Go's %q.

/**
 * Longest board line accepted, in bytes, measured without its "\n" or
 * "\r\n" (and without a byte-order mark on line 1): maxLineLen of
 * cmd/pdbgen/boards.go. A longer line, of any length, is reported as
 * "line longer than 4096 bytes" and skipped.
 */
export const MAX_LINE_LEN = 4096;

// pdbgen reads lines through a bufio.Reader of MAX_LINE_LEN + 5 bytes
// (readBufLen: room for "\r\n" and a byte-order mark): a line whose raw
// bytes (before "\n") fill it is too long whatever it holds; a shorter one
// is judged by its length without the "\r" and, on line 1, the byte-order
// mark. Mirrored here byte for byte.
const READ_BUF_LEN = MAX_LINE_LEN + 2 + 3;

const BOM = [0xef, 0xbb, 0xbf];

/**
 * Splits board input (bytes, in chunks of any size) into numbered lines as
 * `pdbgen lookup` reads them (cmd/pdbgen/boards.go readBoards): lines end
 * at "\n", one trailing "\r" is dropped, a last line without "\n" counts,
 * a UTF-8 byte-order mark at the start of the input is skipped, and lines
 * are numbered from 1. Memory stays bounded whatever a line's length: at
 * most READ_BUF_LEN bytes of a line are kept.
 *
 * push(chunk) and end() are generators of { no, text } (text: Uint8Array,
 * valid only until the generator resumes) or { no, tooLong: true }.
 */
export class LineSplitter {
  constructor() {
    this.no = 0;
    this.buf = new Uint8Array(READ_BUF_LEN);
    this.len = 0;
    this.over = false;
  }

  /** Lines completed by chunk (a Uint8Array). */
  *push(chunk) {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      if (!this.over) {
        const take = Math.min(end - start, READ_BUF_LEN - this.len);
        this.buf.set(chunk.subarray(start, start + take), this.len);
        this.len += take;
        if (this.len === READ_BUF_LEN) this.over = true;
      }
      if (nl < 0) return;
      yield this.take();
      start = nl + 1;
    }
  }

  /** The last line, when the input does not end with "\n". */
  *end() {
    if (this.len > 0 || this.over) yield this.take();
  }

  take() {
    const no = ++this.no;
    const over = this.over;
    let text = this.buf.subarray(0, this.len);
    this.len = 0;
    this.over = false;
    if (over) return { no, tooLong: true };
    if (no === 1 && text.length >= 3 && text[0] === BOM[0] && text[1] === BOM[1] && text[2] === BOM[2]) text = text.subarray(3);
    if (text.length > 0 && text[text.length - 1] === 0x0d) text = text.subarray(0, text.length - 1);
    if (text.length > MAX_LINE_LEN) return { no, tooLong: true };
    return { no, text };
  }
}

/** The problem reported for a line over MAX_LINE_LEN. */
export const LINE_TOO_LONG = `line longer than ${MAX_LINE_LEN} bytes`;

/**
 * What `pdbgen lookup` does with one line of LineSplitter: null for a line
 * it skips (blank, or a comment: first non-space character '#'), else
 * parseBoardBytes of the line as it is (puzzle.ParseBoard is given the
 * untrimmed line: a leading no-break space is part of the first cell), or
 * { error: LINE_TOO_LONG }.
 */
export function boardOfLine(line, n) {
  if (line.tooLong) return { error: LINE_TOO_LONG };
  const t = trimSpace(line.text);
  if (t.length === 0 || t[0] === 0x23) return null;
  return parseBoardBytes(line.text, n);
}

// decodeRune returns [rune, width] like Go's utf8.DecodeRune: invalid or
// truncated sequences give [0xFFFD, 1]; empty input gives [0xFFFD, 0].
export function decodeRune(b, i) {
  const n = b.length - i;
  if (n <= 0) return [0xfffd, 0];
  const c0 = b[i];
  if (c0 < 0x80) return [c0, 1];
  let need, min, cp;
  if (c0 >= 0xc2 && c0 <= 0xdf) { need = 1; min = 0x80; cp = c0 & 0x1f; }
  else if (c0 >= 0xe0 && c0 <= 0xef) { need = 2; min = 0x800; cp = c0 & 0x0f; }
  else if (c0 >= 0xf0 && c0 <= 0xf4) { need = 3; min = 0x10000; cp = c0 & 0x07; }
  else return [0xfffd, 1];
  if (n < need + 1) return [0xfffd, 1];
  for (let k = 1; k <= need; k++) {
    const c = b[i + k];
    if ((c & 0xc0) !== 0x80) return [0xfffd, 1];
    cp = (cp << 6) | (c & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return [0xfffd, 1];
  return [cp, need + 1];
}

// decodeLastRune is Go's utf8.DecodeLastRune on b[0..end).
function decodeLastRune(b, end) {
  if (end <= 0) return [0xfffd, 0];
  if (b[end - 1] < 0x80) return [b[end - 1], 1];
  const lim = Math.max(0, end - 4);
  let start = end - 1;
  for (start--; start >= lim; start--) {
    if ((b[start] & 0xc0) !== 0x80) break;
  }
  if (start < 0) start = 0;
  const [r, size] = decodeRune(b.subarray(0, end), start);
  if (start + size !== end) return [0xfffd, 1];
  return [r, size];
}

/** unicode.IsSpace */
export function isSpace(r) {
  if (r <= 0xff) return r === 0x20 || (r >= 0x09 && r <= 0x0d) || r === 0x85 || r === 0xa0;
  return r === 0x1680 || (r >= 0x2000 && r <= 0x200a) || r === 0x2028 || r === 0x2029 || r === 0x202f || r === 0x205f || r === 0x3000;
}

/** strings.TrimSpace on bytes: returns a subarray. */
export function trimSpace(b) {
  let s = 0;
  let e = b.length;
  while (s < e) {
    const [r, w] = decodeRune(b.subarray(0, e), s);
    if (!isSpace(r) || w === 0) break;
    if (r === 0xfffd && w === 1) break;
    s += w;
  }
  while (e > s) {
    const [r, w] = decodeLastRune(b, e);
    if (!isSpace(r) || (r === 0xfffd && w === 1)) break;
    e -= w;
  }
  return b.subarray(s, e);
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** strconv.IsPrint */
export function isPrint(r) {
  if (r < 0x80) return r >= 0x20 && r < 0x7f;
  if (r <= 0xff) return r >= 0xa1 && r !== 0xad;
  return PRINTABLE.test(String.fromCodePoint(r));
}

const hex = (v, w) => v.toString(16).padStart(w, '0');

/** Go's %q (strconv.Quote) of a byte string. */
export function goQuote(b) {
  let out = '"';
  for (let i = 0; i < b.length;) {
    const [r, w] = decodeRune(b, i);
    if (w === 1 && r === 0xfffd) {
      out += '\\x' + hex(b[i], 2);
      i++;
      continue;
    }
    i += w;
    if (r === 0x22 || r === 0x5c) out += '\\' + String.fromCharCode(r);
    else if (isPrint(r)) out += String.fromCodePoint(r);
    else if (r === 7) out += '\\a';
    else if (r === 8) out += '\\b';
    else if (r === 12) out += '\\f';
    else if (r === 10) out += '\\n';
    else if (r === 13) out += '\\r';
    else if (r === 9) out += '\\t';
    else if (r === 11) out += '\\v';
    else if (r < 0x20 || r === 0x7f) out += '\\x' + hex(r, 2);
    else if (r < 0x10000) out += '\\u' + hex(r, 4);
    else out += '\\U' + hex(r, 8);
  }
  return out + '"';
}

const INT64_MAX = (1n << 63n) - 1n;

// atoi is Go's strconv.Atoi on ASCII bytes: an optional sign and decimal
// digits, in int64 range. Returns a BigInt, or null for a syntax or range error.
function atoi(f) {
  let i = 0;
  let neg = false;
  if (f.length > 0 && (f[0] === 0x2b || f[0] === 0x2d)) {
    neg = f[0] === 0x2d;
    i = 1;
  }
  if (i >= f.length) return null;
  let s = '';
  for (; i < f.length; i++) {
    if (f[i] < 0x30 || f[i] > 0x39) return null;
    s += String.fromCharCode(f[i]);
  }
  let v = BigInt(s);
  if (neg) v = -v;
  if (v > INT64_MAX || v < -INT64_MAX - 1n) return null;
  return v;
}

function isSep(c) {
  return c === 0x20 || c === 0x09 || c === 0x2c || c === 0x0d;
}

// emptyCell is puzzle's emptyCell: the index of the first cell left empty
// by a comma (one at the start or end of the line, or two with only spaces,
// tabs or "\r" between them: "1,,2"), or -1. The index counts the cells
// before the empty one.
function emptyCell(line) {
  let cells = 0;
  let want = true; // at the start or just after a comma: a cell must come
  let inCell = false;
  let comma = false;
  for (const c of line) {
    if (c === 0x2c) {
      if (want) return cells;
      want = true;
      inCell = false;
      comma = true;
    } else if (c === 0x20 || c === 0x09 || c === 0x0d) {
      inCell = false;
    } else {
      if (!inCell) {
        cells++;
        inCell = true;
      }
      want = false;
    }
  }
  return comma && want ? cells : -1;
}

/**
 * puzzle.ParseBoard(line, n) on a byte line with n > 0 cells (fields are
 * split at spaces, tabs, commas and "\r" only; a comma at either end of
 * the line or two commas with only separators between them leave a cell
 * empty, an error; pdbgen passes the line untrimmed, the blank-or-comment
 * test aside):
 * returns { board: Uint8Array } or { error: message } (the message pdbgen
 * prints after "line N: ").
 */
export function parseBoardBytes(line, n) {
  const fields = [];
  for (let i = 0; i < line.length;) {
    while (i < line.length && isSep(line[i])) i++;
    const s = i;
    while (i < line.length && !isSep(line[i])) i++;
    if (i > s) fields.push(line.subarray(s, i));
  }
  if (fields.length === 0) return { error: 'bad board: empty line' };
  const empty = emptyCell(line);
  if (empty >= 0) return { error: `bad board: cell ${empty}: empty (a comma with no tile before it)` };
  if (fields.length !== n) return { error: `bad board: ${fields.length} cells, want ${n}` };
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const f = fields[i];
    if (f.length === 1 && (f[0] === 0x78 || f[0] === 0x58 || f[0] === 0x5f)) {
      b[i] = 0;
      continue;
    }
    const v = atoi(f);
    if (v === null) return { error: `bad board: cell ${i}: ${goQuote(f)} is not a tile number or blank (0, x, _)` };
    if (v < 0n || v >= BigInt(n)) return { error: `bad board: cell ${i}: tile ${v} out of range 0..${n - 1}` };
    b[i] = Number(v);
  }
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = b[i];
    if (seen[t]) return { error: t === 0 ? 'bad board: more than one blank' : `bad board: tile ${t} appears twice` };
    seen[t] = 1;
  }
  for (let t = 0; t < n; t++) {
    if (!seen[t]) return { error: t === 0 ? 'bad board: no blank' : `bad board: tile ${t} is missing` };
  }
  return { board: b };
}

/** parseBoardBytes on a JavaScript string (encoded as UTF-8). */
export function parseBoard(text, n) {
  return parseBoardBytes(trimSpace(new TextEncoder().encode(text)), n);
}
