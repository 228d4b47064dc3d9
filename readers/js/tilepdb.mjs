// tilepdb reader for JavaScript (Node >= 18 and browsers, ES module, no build
// step): reads and verifies table files of formats 1.x and 2.x
// (format/SPEC.md) in the strict order of SPEC.md section 3, ranks boards
// (section 4), looks them up, and sums sets of disjoint additive tables,
// given as tables or as set files (section 10: one table serving several
// patterns through a board symmetry; setfile.mjs).
//
// Dependencies: fzstd (pure-JS zstd decoder; it does not verify zstd content
// checksums, so every frame's XXH64 is checked here, see xxh64.mjs), SHA-256
// from node:crypto in Node and WebCrypto (crypto.subtle) in browsers.
//
//   import { readFile, openSet } from './tilepdb.mjs';        // Node
//   const t = await readFile('data/8puzzle.pdb');
//   t.lookup([1, 2, 3, 4, 5, 6, 7, 8, 0]);                    // 0
//   const set = await openSet(['data/15-663_1-5-6-9-10-13.pdb', ...]);
//   set.lookup(board);     // throws UnsolvableError for the other parity class
//   const s24 = await openSet(['data/24-6666.set.json']);      // set files too
//
//   import { readBytes } from './tilepdb.mjs';                // browser
//   const t = await readBytes(new Uint8Array(await (await fetch(url)).arrayBuffer()));
//   const s = await openSetBytes(jsonText, { name: url, table: async (name) => bytesOf(name) });
//
// Errors, with the classes of SPEC.md section 3 in .kind: FormatError
// ('format': not a table file, or corrupt; .offset is the byte offset),
// ChecksumError ('checksum': header SHA-256, payload_sha256, a zstd frame
// checksum or raw_sha256), UnsupportedError ('unsupported': ranking_version,
// bits_per_entry or encoding not implemented), UnsupportedVersionError
// ('unsupported-version': a major version other than 1 and 2). LimitError
// when a valid table is too large for one typed array here. Lookups throw
// BoardError (a malformed board) or UnsolvableError (a board that cannot
// reach the goal: format.ErrUnsolvable). SetFileError ('set') for a set file
// that is malformed or does not hold together with its tables.

import { Decompress } from 'fzstd';
import { Pattern, BoardError, validateBoard, positions, goalName, RANKING_VERSION, MIN_SIDE, MAX_SIDE, MAX_ENTRIES } from './rank.mjs';
import { parseJSON, JSONError, int64Field, uint64Field, stringField, intArrayField, quoteName } from './json.mjs';
import { xxh64Low32 } from './xxh64.mjs';
import { codecFor, SUPPORTED_MAJORS } from './values.mjs';
import { Regions, KIND_ZERO_AWARE, RANKING_CELLSET_ORDER_REGION } from './regions.mjs';
import { SYMMETRIES, MAX_SET_FILE_LEN, MAX_PARTITIONS, MAX_CATALOGUE_PARTS, mapPattern, parseSetFile, looksLikeSetFile, validTableName, tileListError, goList } from './setfile.mjs';

export { Pattern, BoardError } from './rank.mjs';
export { Regions, KIND_ZERO_AWARE, RANKING_CELLSET_ORDER_REGION } from './regions.mjs';
export { SYMMETRIES, SET_VERSION, SET_VERSIONS, MAX_PARTITIONS, MAX_CATALOGUE_PARTS, MAX_SET_FILE_LEN, SET_FILE_EXT, parseSetFile, mapPattern, symmetryCell } from './setfile.mjs';

/** Major versions read (any minor version of each). */
export const MAJOR_VERSIONS = SUPPORTED_MAJORS;
export const MAGIC = Uint8Array.from([0x54, 0x49, 0x4c, 0x45, 0x50, 0x44, 0x42, 0x1a]); // "TILEPDB" 0x1A
export const MAX_HEADER_LEN = 16 << 20;
export const MIN_FRAME_SIZE = 1 << 10;
export const MAX_FRAME_SIZE = 1 << 26;
export const BITS_PER_ENTRY = 8;
export const UNREACHED = 255;
/**
 * Largest table (entries, bytes) this reader holds: one Uint8Array, whose
 * length V8 limits to 2^32 on 64-bit platforms (browsers may allow less;
 * an allocation failure is reported as a LimitError too).
 */
export const MAX_TABLE_BYTES = 2 ** 32;

const PREFIX_LEN = 16;
const CHECKSUM_LEN = 32;
const OFF_HEADER = 16;

/** Base class of the errors about a file's content. */
export class TilepdbError extends Error {}

/** The file is not a tilepdb table or its structure is corrupt (SPEC.md: ErrFormat). */
export class FormatError extends TilepdbError {
  constructor(offset, msg) {
    super(`tilepdb: invalid table file at byte ${offset}: ${msg}`);
    this.name = 'FormatError';
    this.kind = 'format';
    this.offset = offset;
  }
}

/** Stored and recomputed checksums differ (SPEC.md: ErrChecksum). */
export class ChecksumError extends TilepdbError {
  constructor(what, want = '', got = '') {
    super(want || got ? `tilepdb: ${what} mismatch: file says ${want}, content hashes to ${got}` : `tilepdb: ${what} mismatch`);
    this.name = 'ChecksumError';
    this.kind = 'checksum';
    this.what = what;
  }
}

/** A file of a major version this reader does not implement. */
export class UnsupportedVersionError extends TilepdbError {
  constructor(major, minor) {
    super(`tilepdb: table file format version ${major}.${minor} is not supported (this reader supports ${MAJOR_VERSIONS.map((v) => `${v}.x`).join(' and ')})`);
    this.name = 'UnsupportedVersionError';
    this.kind = 'unsupported-version';
    this.major = major;
    this.minor = minor;
  }
}

/** A well-formed header asking for what this reader does not implement (ranking_version, bits_per_entry, encoding). */
export class UnsupportedError extends TilepdbError {
  constructor(offset, msg) {
    super(`tilepdb: unsupported table file at byte ${offset}: ${msg}`);
    this.name = 'UnsupportedError';
    this.kind = 'unsupported';
    this.offset = offset;
  }
}

/** A valid table that this reader cannot hold (size limit of one typed array). */
export class LimitError extends Error {
  constructor(msg) {
    super(msg);
    this.name = 'LimitError';
    this.kind = 'limit';
  }
}

const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

const isNode = typeof globalThis.process !== 'undefined' && !!globalThis.process.versions?.node;

/** SHA-256 (FIPS 180-4) of bytes: node:crypto in Node, WebCrypto elsewhere. */
export async function sha256(bytes) {
  if (isNode) {
    const { createHash } = await import('node:crypto');
    // in slices of 4 MiB: a worker thread running this stops at once when
    // its process exits (cli.mjs on Ctrl-C), not after a 100 MB hash
    const h = createHash('sha256');
    for (let o = 0; o < bytes.length; o += 1 << 22) h.update(bytes.subarray(o, o + (1 << 22)));
    return new Uint8Array(h.digest());
  }
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
}

/** A source of bytes: { size, read(offset, length) -> Promise<Uint8Array> } over memory. */
export function memorySource(bytes) {
  return {
    size: bytes.length,
    async read(off, len) {
      return bytes.subarray(off, off + len);
    },
  };
}

/** A source over a Node FileHandle (positioned reads; nothing is read ahead). */
export function fileHandleSource(fh, size) {
  return {
    size,
    async read(off, len) {
      const buf = new Uint8Array(len);
      let got = 0;
      while (got < len) {
        const { bytesRead } = await fh.read(buf, got, len - got, off + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buf.subarray(0, got);
    },
  };
}

/** One decoded, verified table (of either format: the values are the same). */
export class Table {
  constructor(header, pattern, values, version, regions = null) {
    /** The JSON header as parsed (numbers as JavaScript numbers; entries and histogram counts too). */
    this.header = header;
    /** The pattern (geometry, goal, tiles, ranking). */
    this.pattern = pattern;
    /** values[index] = moves (Uint8Array of header.entries bytes); index: the rank, or regions.index(pos) for a zero-aware table. */
    this.values = values;
    /** [major, minor] of the file. */
    this.version = version;
    /** "raw bytes" (format 1) or the format 2 encoding. */
    this.encoding = header.encoding ?? 'raw bytes';
    /**
     * A zero-aware table's region numbering (regions.mjs Regions: values
     * are indexed by Regions.index, SPEC.md section 11), else null.
     */
    this.regions = regions;
    /** Whether the table is of kind zero-aware. */
    this.zeroAware = regions !== null;
  }

  /** Fast path for a solver's inner loop: the value of the state with position vector pos; nothing checked, no allocation. */
  value(pos) {
    return this.values[this.regions ? this.regions.index(pos) : this.pattern.rank(pos)];
  }

  /**
   * Checked lookup of a board (array-like of N tiles, 0 = blank), in moves,
   * with the rule of TableSet.lookup: throws BoardError for a malformed
   * board and UnsolvableError for one that cannot reach the file's goal,
   * exact and additive tables alike.
   */
  lookup(board) {
    const err = validateBoard(board, this.pattern.n);
    if (err) throw new BoardError(err);
    const pos = positions(board);
    if (!this.pattern.solvablePositions(pos)) throw new UnsolvableError(this.pattern.goalName);
    return this.value(pos);
  }
}

function checkMagic(pre) {
  const m = Math.min(pre.length, MAGIC.length);
  for (let i = 0; i < m; i++) {
    if (pre[i] !== MAGIC[i]) return false;
  }
  return true;
}

// zstd frame header checks of SPEC.md section 1 (checkFrameHeader in Go).
function checkFrameHeader(b, raw) {
  if (b.length < 6 || b[0] !== 0x28 || b[1] !== 0xb5 || b[2] !== 0x2f || b[3] !== 0xfd) return 'not a zstd frame (bad zstd magic)';
  const fhd = b[4];
  const fcsFlag = fhd >> 6;
  const single = (fhd & 0x20) !== 0;
  if (fhd & 0x08) return 'zstd frame descriptor has the reserved bit set';
  if (!(fhd & 0x04)) return 'zstd frame has no content checksum';
  if (fhd & 0x03) return 'zstd frame uses a dictionary';
  if (fcsFlag === 0 && !single) return 'zstd frame does not record its content size';
  let i = single ? 5 : 6;
  const fcsLen = [1, 2, 4, 8][fcsFlag];
  if (b.length < i + fcsLen) return 'zstd frame header truncated';
  let fcs = 0;
  for (let k = fcsLen - 1; k >= 0; k--) fcs = fcs * 256 + b[i + k];
  if (fcsLen === 2) fcs += 256;
  if (fcs !== raw) return `zstd frame content size is ${fcs}, want ${raw}`;
  return '';
}

// Walks the blocks of one zstd frame (RFC 8878 3.1.1.2) that must fill
// exactly frame.length bytes; returns '' or what is wrong. window is the
// largest window accepted.
function checkFrameBlocks(f, window) {
  const fhd = f[4];
  const single = (fhd & 0x20) !== 0;
  const fcsFlag = fhd >> 6;
  let p = 5;
  if (!single) {
    const wd = f[5];
    const base = 2 ** (10 + (wd >> 3));
    const w = base + (base / 8) * (wd & 7);
    if (w > window) return `zstd window of ${w} bytes exceeds the limit of ${window}`;
    p++;
  }
  p += [single ? 1 : 0, 2, 4, 8][fcsFlag];
  for (;;) {
    if (p + 3 > f.length) return 'zstd frame truncated (block header)';
    const bh = f[p] | (f[p + 1] << 8) | (f[p + 2] << 16);
    p += 3;
    const last = bh & 1;
    const type = (bh >> 1) & 3;
    const size = bh >>> 3;
    if (type === 3) return 'zstd block of reserved type';
    if (size > 128 << 10) return `zstd block of ${size} bytes exceeds 128 KiB`;
    p += type === 1 ? 1 : size;
    if (p > f.length) return 'zstd frame truncated (block)';
    if (last) break;
  }
  if (p + 4 !== f.length) {
    return p + 4 > f.length ? 'zstd frame truncated (content checksum)' : `zstd frame ends ${f.length - p - 4} bytes before the frame's end`;
  }
  return '';
}

// minFrameLen: lower bound on a valid zstd frame of `raw` stored bytes (SPEC.md 3.5).
function minFrameLen(raw) {
  const blocks = Math.max(Math.ceil(raw / (128 << 10)), 1);
  return 4 + 1 + 1 + 4 * blocks + 4;
}

/**
 * Reads and verifies a whole table from a source (see memorySource,
 * fileHandleSource), in the order of SPEC.md section 3, and returns a Table.
 * Nothing the file says is trusted for an allocation before it is checked
 * against the file size: the header after `48 + n <= size`, the table
 * after the frame layout. opts.onProgress({ done, total }) is called after
 * every frame (total = frames).
 */
export async function readTable(src, opts = {}) {
  const size = src.size;
  const read = async (off, len) => {
    const b = await src.read(off, len);
    if (b.length !== len) throw new FormatError(off + b.length, `file truncated: short read (${b.length} of ${len} bytes)`);
    return b;
  };
  // 1. size, magic, version, header length
  if (size === 0) throw new FormatError(0, 'empty file');
  const have = Math.min(size, PREFIX_LEN);
  const pre = await read(0, have);
  if (!checkMagic(pre)) throw new FormatError(0, 'not a tilepdb table file (bad magic)');
  if (have < 12) throw new FormatError(have, `file truncated inside the fixed prefix (${have} of ${PREFIX_LEN} bytes)`);
  const dv = new DataView(pre.buffer, pre.byteOffset, pre.byteLength);
  const major = dv.getUint16(8, true);
  const minor = dv.getUint16(10, true);
  if (!MAJOR_VERSIONS.includes(major)) throw new UnsupportedVersionError(major, minor);
  if (have < PREFIX_LEN) throw new FormatError(have, `file truncated inside the fixed prefix (${have} of ${PREFIX_LEN} bytes)`);
  const n = dv.getUint32(12, true);
  if (n > MAX_HEADER_LEN) throw new FormatError(12, `header length ${n} exceeds the limit of ${MAX_HEADER_LEN} bytes`);
  const payloadOff = PREFIX_LEN + n + CHECKSUM_LEN;
  if (payloadOff > size) throw new FormatError(size, `file truncated: the ${n}-byte header and its checksum end at byte ${payloadOff}, the file has ${size} bytes`);
  const head = await read(0, payloadOff);
  // 2. header checksum
  const sum = await sha256(head.subarray(0, PREFIX_LEN + n));
  const stored = head.subarray(PREFIX_LEN + n);
  if (toHex(sum) !== toHex(stored)) throw new ChecksumError('header sha256', toHex(stored), toHex(sum));
  // 3. JSON rules and types
  const js = head.subarray(PREFIX_LEN, PREFIX_LEN + n);
  if (js[0] === 0xef && js[1] === 0xbb && js[2] === 0xbf) throw new FormatError(OFF_HEADER, 'header JSON starts with a byte-order mark');
  let h;
  try {
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(js);
    } catch {
      throw new JSONError('header is not valid UTF-8');
    }
    h = parseHeader(text, major);
  } catch (e) {
    if (e instanceof JSONError) throw new FormatError(OFF_HEADER, `header JSON: ${e.message}`);
    // Unknown keys may nest deeper than the recursive parser's stack (its
    // bound is Go's, 10000): the same one line as the Java reader's.
    if (e instanceof RangeError) throw new FormatError(OFF_HEADER, 'header JSON: nested too deeply');
    throw e;
  }
  // 4. header sanity, 5. layout
  const { pattern, regions } = checkHeader(h, major);
  const codec = codecFor(major, h.encoding);
  const layout = checkLayout(h, major, codec, payloadOff, size);
  const { frames, offs, frameSize, entries } = layout;
  const frameEntries = (i) => Math.min(entries - i * frameSize, frameSize);
  const payload = await read(payloadOff, size - payloadOff);
  // 6. payload checksum (2.x)
  if (major >= 2) {
    const ps = toHex(await sha256(payload));
    if (ps !== h.payload_sha256) throw new ChecksumError('payload_sha256', h.payload_sha256, ps);
  }
  // 7. every frame's zstd header, before allocating the table
  for (let i = 0; i < frames.length; i++) {
    const o = offs[i] - payloadOff;
    const msg = checkFrameHeader(payload.subarray(o, o + Math.min(18, frames[i])), codec.storedSize(frameEntries(i)));
    if (msg) throw new FormatError(offs[i], `frame ${i}: ${msg}`);
  }
  // 8. allocate, decompress, decode
  if (entries > MAX_TABLE_BYTES) {
    throw new LimitError(`tilepdb: table of ${entries} entries is larger than this reader's limit of ${MAX_TABLE_BYTES} bytes (one Uint8Array)`);
  }
  let raw;
  try {
    raw = new Uint8Array(entries);
  } catch (e) {
    throw new LimitError(`tilepdb: cannot allocate ${entries} bytes for the table in this JavaScript engine (${e.message})`);
  }
  let window = 1024;
  while (window < frameSize) window *= 2;
  const direct = codec.storedSize(frameSize) === frameSize && codec.storedSize(1) === 1;
  for (let i = 0; i < frames.length; i++) {
    const o = offs[i] - payloadOff;
    const f = payload.subarray(o, o + frames[i]);
    const lo = i * frameSize;
    const dst = raw.subarray(lo, lo + frameEntries(i));
    const storedLen = codec.storedSize(dst.length);
    const storedBuf = direct ? dst : new Uint8Array(storedLen);
    decodeFrame(f, storedBuf, i, offs[i], window);
    const msg = codec.unpack(storedBuf, dst);
    if (msg) throw new FormatError(offs[i], `frame ${i}: ${msg}`);
    if (opts.onProgress) opts.onProgress({ done: i + 1, total: frames.length });
  }
  const bad = codec.finish(raw, pattern, regions);
  if (bad) throw new FormatError(payloadOff, `the entry of rank ${bad.rank} decodes to ${bad.value}, above 254`);
  // 9. raw SHA-256
  const rawSum = toHex(await sha256(raw));
  if (rawSum !== h.raw_sha256) throw new ChecksumError('raw_sha256', h.raw_sha256, rawSum);
  // 10. recount
  const hist = new Float64Array(256);
  for (let i = 0; i < raw.length; i++) hist[raw[i]]++;
  if (hist[UNREACHED] !== 0) throw new FormatError(payloadOff, `${hist[UNREACHED]} entries hold the reserved value 255, first at rank ${raw.indexOf(UNREACHED)}`);
  let max = 0;
  for (let v = 255; v >= 0; v--) {
    if (hist[v] !== 0) {
      max = v;
      break;
    }
  }
  if (max !== h.max_value) throw new FormatError(OFF_HEADER, `header max_value is ${h.max_value}, the largest value in the table is ${max}`);
  for (let v = 0; v < 256; v++) {
    const want = v < h.histogram.length ? h.histogram[v] : 0n;
    if (want !== BigInt(hist[v])) throw new FormatError(OFF_HEADER, `header histogram does not match the table: value ${v}: header says ${want} entries, table has ${hist[v]}`);
  }
  const header = {
    ...h,
    entries,
    histogram: h.histogram.map(Number),
    frames: frames.slice(),
  };
  return new Table(header, pattern, raw, [major, minor], regions);
}

function decodeFrame(f, dst, i, off, window) {
  const msg = checkFrameBlocks(f, window);
  if (msg) throw new FormatError(off, `frame ${i}: ${msg}`);
  let got = 0;
  try {
    const d = new Decompress((chunk) => {
      if (got + chunk.length > dst.length) throw new FormatError(off, `frame ${i} decodes to more than ${dst.length} bytes`);
      dst.set(chunk, got);
      got += chunk.length;
    });
    d.push(f, true);
  } catch (e) {
    if (e instanceof TilepdbError) throw e;
    throw new FormatError(off, `frame ${i}: zstd: ${e.message}`);
  }
  if (got !== dst.length) throw new FormatError(off, `frame ${i} decodes to ${got} bytes, want ${dst.length}`);
  const want = (f[f.length - 4] | (f[f.length - 3] << 8) | (f[f.length - 2] << 16) | (f[f.length - 1] << 24)) >>> 0;
  if (xxh64Low32(dst) !== want) throw new ChecksumError(`zstd frame ${i} (at byte ${off}) content checksum`);
}

// parseHeader decodes the JSON header with the types of SPEC.md section 2:
// every key required (encoding and payload_sha256 in 2.x only), integers
// exact as BigInt until checked.
function parseHeader(text, major) {
  const obj = parseJSON(text);
  if (!(obj instanceof Map)) throw new JSONError('header is not a JSON object');
  const h = {
    width: int64Field(obj, 'width'),
    height: int64Field(obj, 'height'),
    goal: intArrayField(obj, 'goal'),
    goal_name: stringField(obj, 'goal_name'),
    tiles: intArrayField(obj, 'tiles'),
    kind: stringField(obj, 'kind'),
    ranking: stringField(obj, 'ranking'),
    ranking_version: int64Field(obj, 'ranking_version'),
    entries: uint64Field(obj, 'entries'),
    bits_per_entry: int64Field(obj, 'bits_per_entry'),
    max_value: int64Field(obj, 'max_value'),
    histogram: intArrayField(obj, 'histogram', true),
    raw_sha256: stringField(obj, 'raw_sha256'),
    generator: stringField(obj, 'generator'),
    frame_size: int64Field(obj, 'frame_size'),
    frames: intArrayField(obj, 'frames'),
  };
  if (major >= 2) {
    h.encoding = stringField(obj, 'encoding');
    h.payload_sha256 = stringField(obj, 'payload_sha256');
  }
  return h;
}

// checkHeader: SPEC.md 3.4 in the reference reader's order. Converts the
// checked integer fields of h to numbers and returns { pattern, regions }
// (regions: the Regions of a zero-aware table, SPEC.md section 11, else null).
function checkHeader(h, major) {
  const bad = (msg) => new FormatError(OFF_HEADER, `header: ${msg}`);
  const unsupported = (msg) => new UnsupportedError(OFF_HEADER, `header: ${msg}`);
  const { width: w, height: ht } = h;
  if (w < BigInt(MIN_SIDE) || w > BigInt(MAX_SIDE) || ht < BigInt(MIN_SIDE) || ht > BigInt(MAX_SIDE)) throw bad(`board ${w}x${ht}: each side must be between ${MIN_SIDE} and ${MAX_SIDE}`);
  const W = Number(w);
  const H = Number(ht);
  const n = W * H;
  if (h.goal.length !== n) throw bad(`goal has ${h.goal.length} cells, want ${n} for a ${W}x${H} board`);
  h.goal.forEach((t, i) => {
    if (t < 0n || t >= BigInt(n)) throw bad(`goal cell ${i}: tile ${t} out of range 0..${n - 1}`);
  });
  const goal = h.goal.map(Number);
  const gErr = validateBoard(goal, n);
  if (gErr) throw bad(`goal: ${gErr}`);
  if (h.tiles.length === 0 || h.tiles.length > n - 1) throw bad(`${h.tiles.length} tiles, want 1..${n - 1}`);
  h.tiles.forEach((t, i) => {
    if (t < 1n || t >= BigInt(n)) throw bad(`tile ${t} out of range 1..${n - 1}`);
    if (i > 0 && t <= h.tiles[i - 1]) throw bad(`tiles not strictly ascending (${t} after ${h.tiles[i - 1]})`);
  });
  let p;
  try {
    p = new Pattern(W, H, goal, h.tiles.map(Number));
  } catch (e) {
    if (e instanceof BoardError) throw bad(e.message);
    throw e;
  }
  // A zero-aware header describes an additive pattern; a kind none of
  // the three (a future one) is unsupported, not corrupt (SPEC.md 11).
  const za = h.kind === KIND_ZERO_AWARE && !p.exact;
  if (h.kind !== 'exact' && h.kind !== 'additive' && h.kind !== KIND_ZERO_AWARE) {
    throw unsupported(`kind ${JSON.stringify(h.kind)} is not supported (this reader implements "exact", "additive" and "${KIND_ZERO_AWARE}")`);
  }
  const wantKind = za ? KIND_ZERO_AWARE : p.kind;
  const wantRanking = za ? RANKING_CELLSET_ORDER_REGION : p.ranking;
  if (h.kind !== wantKind) throw bad(`kind "${h.kind}", but ${p.tiles.length} of ${n - 1} tiles make an "${p.kind}" table`);
  if (h.ranking !== wantRanking) throw bad(`ranking "${h.ranking}", want "${wantRanking}" for a table of kind "${wantKind}"`);
  if (h.ranking_version !== BigInt(RANKING_VERSION)) throw unsupported(`ranking_version ${h.ranking_version} is not supported (this reader implements version ${RANKING_VERSION})`);
  if (h.bits_per_entry !== BigInt(BITS_PER_ENTRY)) throw unsupported(`bits_per_entry ${h.bits_per_entry} is not supported (want ${BITS_PER_ENTRY})`);
  if (major >= 2 && !codecFor(major, h.encoding)) throw unsupported(`encoding ${JSON.stringify(h.encoding)} is not supported (this reader implements manhattan-half-4bit and manhattan-half-8bit)`);
  let regions = null;
  if (za) {
    // The region maps take C(N,k)·(N+8) bytes, less than the k!·C(N,k)
    // entries of the smallest zero-aware table of p for k >= 5 (and at
    // most 41 MB below that): refuse before labelling what this reader
    // could not hold anyway.
    if (p.size > MAX_TABLE_BYTES) {
      throw new LimitError(`tilepdb: the zero-aware table of ${p} has at least ${p.size} entries, more than this reader's limit of ${MAX_TABLE_BYTES} bytes (one Uint8Array)`);
    }
    regions = new Regions(p);
    if (regions.size > MAX_ENTRIES) throw bad(`the zero-aware table of ${p} has ${regions.size} entries, more than ${MAX_ENTRIES}`);
    if (h.entries !== BigInt(regions.size)) throw bad(`entries ${h.entries}, but the zero-aware table of pattern ${p} has ${regions.size}`);
  } else if (h.entries !== BigInt(p.size)) throw bad(`entries ${h.entries}, but pattern ${p} has ${p.size}`);
  const wantName = p.goalName === 'blank-last' || p.goalName === 'blank-first' ? p.goalName : 'custom';
  if (h.goal_name !== wantName) throw bad(`goal_name "${h.goal_name}", but the goal is "${wantName}"`);
  if (h.max_value < 0n || h.max_value >= 255n) throw bad(`max_value ${h.max_value} out of range 0..254`);
  if (BigInt(h.histogram.length) !== h.max_value + 1n) throw bad(`histogram has ${h.histogram.length} counts, want max_value+1 = ${h.max_value + 1n}`);
  if (h.histogram[h.histogram.length - 1] === 0n) throw bad(`histogram[max_value] is 0: max_value ${h.max_value} is not attained`);
  let sum = 0n;
  for (const c of h.histogram) sum += c;
  if (sum !== h.entries) throw bad(`histogram sums to ${sum & ((1n << 64n) - 1n)}, want entries = ${h.entries}`);
  if (!/^[0-9a-f]{64}$/.test(h.raw_sha256)) throw bad(`raw_sha256 ${JSON.stringify(h.raw_sha256)} is not 64 lowercase hex digits`);
  if (major >= 2 && !/^[0-9a-f]{64}$/.test(h.payload_sha256)) throw bad(`payload_sha256 ${JSON.stringify(h.payload_sha256)} is not 64 lowercase hex digits`);
  h.max_value = Number(h.max_value);
  h.width = W;
  h.height = H;
  h.goal = goal;
  h.tiles = h.tiles.map(Number);
  h.ranking_version = Number(h.ranking_version);
  h.bits_per_entry = Number(h.bits_per_entry);
  return { pattern: p, regions };
}

// checkLayout: SPEC.md 3.5.
function checkLayout(h, major, codec, payloadOff, size) {
  const bad = (msg) => new FormatError(OFF_HEADER, `header: ${msg}`);
  if (h.frame_size < BigInt(MIN_FRAME_SIZE) || h.frame_size > BigInt(MAX_FRAME_SIZE)) {
    throw bad(`frame_size ${h.frame_size} out of range ${MIN_FRAME_SIZE}..${MAX_FRAME_SIZE}`);
  }
  if (major >= 2 && h.frame_size % 2n !== 0n) throw bad(`frame_size ${h.frame_size} is odd (format 2 packs two entries per byte)`);
  const frameSize = Number(h.frame_size);
  const entries = Number(h.entries); // <= 2^36, checked against the pattern
  const nf = Math.ceil(entries / frameSize);
  if (h.frames.length !== nf) throw bad(`${h.frames.length} frames listed, want ceil(entries/frame_size) = ${nf}`);
  let total = 0n;
  const frames = [];
  for (let i = 0; i < nf; i++) {
    const c = h.frames[i];
    const raw = codec.storedSize(Math.min(entries - i * frameSize, frameSize));
    if (c < BigInt(minFrameLen(raw))) throw bad(`frame ${i} is ${c} bytes, too small to hold a zstd frame of ${raw} bytes`);
    total += c;
    if (total > (1n << 63n) - 1n) throw bad('frame sizes overflow');
    frames.push(c);
  }
  const rest = BigInt(size - payloadOff);
  if (total > rest) throw new FormatError(size, `file truncated: frames need ${total} payload bytes, file has ${rest}`);
  if (total < rest) throw new FormatError(payloadOff + Number(total), `${rest - total} trailing bytes after the last frame`);
  const offs = [payloadOff];
  const fr = frames.map(Number); // each below the file size now
  for (let i = 0; i < nf; i++) offs.push(offs[i] + fr[i]);
  h.frame_size = frameSize;
  return { frames: fr, offs, frameSize, entries };
}

/** Reads and verifies a table from bytes in memory (a Uint8Array holding the whole file). */
export function readBytes(bytes, opts) {
  return readTable(memorySource(bytes), opts);
}

/**
 * Thrown by the Node functions for a path that names something other than
 * a regular file (a named pipe, a directory, a device): "PATH: not a
 * regular file (WHAT)", as pdbgen says it (Go's internal/regular); .what
 * says which. Trouble running (pdbgen's exit 2), not bad data.
 */
export class NotRegularFileError extends Error {
  constructor(path, stats) {
    const what = fileKind(stats);
    super(`${path}: not a regular file (${what})`);
    this.name = 'NotRegularFileError';
    this.path = path;
    /** What it is: 'a directory', 'a named pipe', 'a socket', 'a character device', 'a device' or 'an irregular file'. */
    this.what = what;
  }
}

// fileKind names what a fs.Stats describes, in Go's internal/regular words.
function fileKind(st) {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a device';
  return 'an irregular file';
}

/**
 * Node: opens path for reading only if it is a regular file, without ever
 * blocking on something else: stat first (which does not open), then open
 * with O_NONBLOCK where the platform has it (a FIFO swapped in between
 * would not block the open) and check the opened file again. Returns
 * { fh, size }; throws NotRegularFileError, or the system error (ENOENT...).
 */
async function openRegular(path) {
  const { open, stat } = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  let st0;
  try {
    st0 = await stat(path);
  } catch (e) {
    if (e && e.syscall === 'stat') e.syscall = 'open'; // what the caller was about to do: "open PATH: no such file or directory"
    throw e;
  }
  if (!st0.isFile()) throw new NotRegularFileError(path, st0);
  const fh = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new NotRegularFileError(path, st); // replaced since the stat
    return { fh, size: st.size };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/**
 * Node: reads and verifies the table file at path. Errors name the path
 * (the original error is in .cause; its class is kept: FormatError etc.);
 * anything but a regular file is refused before it is opened
 * (NotRegularFileError).
 */
export async function readFile(path, opts) {
  const { fh, size } = await openRegular(path);
  try {
    try {
      return await readTable(fileHandleSource(fh, size), opts);
    } catch (e) {
      if (e instanceof Error && (e instanceof TilepdbError || e instanceof LimitError)) {
        e.message = `${path}: ${e.message}`;
      }
      throw e;
    }
  } finally {
    await fh.close();
  }
}

/**
 * Tables given together that do not form one heuristic (different boards
 * or goals, an exact table in a set, shared tiles): not a file problem, but
 * bad data all the same (Go: puzzle.ErrNotAdditive; pdbgen exits 1).
 */
export class SetError extends Error {}

/**
 * A set file (SPEC.md sections 10 and 12) that is malformed, of another
 * version, or does not hold together with its tables (Go: format.ErrSet):
 * bad data, like a corrupt table. The message names the set file and,
 * where there is one, the part (1-based, also in .part: within its
 * partition for a catalogue) and the partition of a catalogue (1-based,
 * .partition); .file is the set file's name.
 */
export class SetFileError extends TilepdbError {
  constructor(message, file, part, partition) {
    super(message);
    this.name = 'SetFileError';
    this.kind = 'set';
    this.file = file;
    this.part = part;
    this.partition = partition;
  }
}

/**
 * Thrown by the checked lookups for a valid board that cannot reach the
 * goal (the other parity class): format.ErrUnsolvable. Not a BoardError:
 * `pdbgen lookup` answers such a board "unsolvable" and exits 0.
 */
export class UnsolvableError extends Error {
  constructor(goalName) {
    super(`board is not solvable for goal ${goalName}`);
    this.name = 'UnsolvableError';
  }
}

/**
 * A set of tables forming one heuristic: one exact table, or additive
 * parts on the same board and goal with pairwise disjoint tiles (their sum
 * is admissible), or a catalogue (SPEC.md section 12: several such
 * additive partitions of parts, the heuristic being the maximum over the
 * partitions of their sums; Holte et al. 2006). Each part is looked up
 * through a table, either for the table's own pattern or, from a set file
 * (SPEC.md section 10), for the pattern a board symmetry maps onto the
 * table's.
 *
 * new TableSet(tables, names): each table used for its own pattern; names
 * (optional) label the tables in errors (SetError, message prefix
 * "tilepdb: "). TableSet.fromParts builds a set from parts.
 */
export class TableSet {
  constructor(tables, names = tables.map((_, i) => `table ${i + 1}`), opts = {}) {
    const parts = opts.parts ?? tables.map((t) => ({ pattern: t.pattern, table: t, symmetry: 'identity', map: null }));
    const fail = (msg) => (opts.makeError ? opts.makeError(msg) : new SetError(`tilepdb: ${msg}`));
    if (parts.length === 0) throw fail('empty set: need at least one table');
    const first = parts[0].pattern;
    const partitions = opts.partitions ?? null;
    // the partition of each part (0 for an additive set), and per
    // partition the part holding each tile: the parts of each partition
    // are pairwise disjoint (SPEC.md 12 step 8)
    const partitionOf = new Int32Array(parts.length);
    (partitions ?? []).forEach((idx, k) => idx.forEach((i) => (partitionOf[i] = k)));
    const owners = (partitions ?? [0]).map(() => new Map());
    parts.forEach((part, i) => {
      const p = part.pattern;
      const desc = `${names[i]} (${p})`;
      if (p.w !== first.w || p.h !== first.h) throw fail(`${desc} is for a ${p.w}x${p.h} board, ${names[0]} (${first}) for ${first.w}x${first.h}`);
      if (p.goal.join(' ') !== first.goal.join(' ')) throw fail(`${desc} has goal "${p.goal.join(' ')}", ${names[0]} has goal "${first.goal.join(' ')}"`);
      if (p.exact && parts.length > 1) throw fail(`${desc} is an exact table and must be used alone, not in a set of ${parts.length}`);
      const owner = owners[partitionOf[i]];
      const shared = [];
      let other = -1;
      // the earlier part holding the smallest shared tile, and the tiles
      // shared with that part (not those shared with others)
      for (const tile of p.tiles) {
        if (owner.has(tile) && (other < 0 || owner.get(tile) === other)) {
          shared.push(tile);
          other = owner.get(tile);
        }
      }
      if (shared.length) throw fail(`${desc} and ${names[other]} (${parts[other].pattern}) are not disjoint: both hold tile(s) ${shared.join(',')}`);
      for (const tile of p.tiles) owner.set(tile, i);
    });
    /**
     * The parts, in order: { pattern (the tiles the part covers), table,
     * symmetry (a name of SPEC.md section 10), map } where map is null for
     * a table's own pattern, else { cell, tile, src } (setfile.mjs mapPattern).
     */
    this.parts = parts.map((p) => ({ ...p }));
    /**
     * For a catalogue (SPEC.md section 12), the indices into parts of each
     * partition's parts, in file order; null for an additive set (one
     * partition of all the parts) or an exact table.
     */
    this.partitions = partitions && partitions.map((idx) => Array.from(idx));
    /** The distinct tables behind the parts, in order of first use. */
    this.tables = [...new Set(parts.map((p) => p.table))];
    this.w = first.w;
    this.h = first.h;
    this.n = first.n;
    this.goal = first.goal;
    this.exact = first.exact;
    this._pos = new Uint8Array(this.n);
    this._cells = new Uint8Array(this.n);
    // Flat arrays for heuristic(): per part its table's values and pattern,
    // and for a symmetric part the cell map and the source tiles.
    this._values = this.parts.map((p) => p.table.values);
    this._patterns = this.parts.map((p) => p.table.pattern);
    this._cellMaps = this.parts.map((p) => (p.map ? p.map.cell : null));
    this._srcs = this.parts.map((p) => (p.map ? p.map.src : null));
    this._regions = this.parts.map((p) => p.table.regions ?? null);
    // _ends[k]: the end (exclusive) in parts of partition k, the parts
    // being reordered partition by partition below when a catalogue's
    // partitions are not already in that order
    this._ends = null;
    if (this.partitions) {
      const order = this.partitions.flat();
      for (const key of ['_values', '_patterns', '_cellMaps', '_srcs', '_regions']) this[key] = order.map((i) => this[key][i]);
      let end = 0;
      this._ends = Int32Array.from(this.partitions, (idx) => (end += idx.length));
    }
  }

  /** Whether this set is a catalogue (SPEC.md section 12): the maximum over partitions of additive sums. */
  catalogue() {
    return this.partitions !== null;
  }

  /**
   * A set of parts [{ pattern, table, symmetry, map }] (map: null for the
   * table's own pattern, else setfile.mjs mapPattern(pattern,
   * table.pattern, symmetry).map), checked like the constructor. names
   * label the parts in errors; makeError(msg) makes the error (default a
   * SetError "tilepdb: msg"); partitions (optional) makes a catalogue:
   * the indices into parts of each partition's parts (each part in one
   * partition), the parts of each partition pairwise disjoint.
   */
  static fromParts(parts, names = parts.map((_, i) => `part ${i + 1}`), makeError = undefined, partitions = undefined) {
    return new TableSet(
      parts.map((p) => p.table),
      names,
      { parts, makeError, partitions },
    );
  }

  /**
   * Fast path: sum of the parts' values for position vector pos (pos[t] =
   * cell of tile t, length N); nothing checked, no allocation. A symmetric
   * part reads its table at the cellset-order rank of the cells σ(pos[t])
   * of its tiles t, taken in the order of the table tiles π(t) they are
   * looked up as (SPEC.md section 10). A zero-aware table (SPEC.md
   * section 11) is read at the index of those cells and of the blank's
   * cell σ(pos[0]). For a catalogue: the maximum over the partitions of
   * the sums of their parts.
   */
  heuristic(pos) {
    const ends = this._ends;
    if (ends === null) return this._sum(pos, 0, this._values.length);
    let best = 0;
    let start = 0;
    for (let k = 0; k < ends.length; k++) {
      const h = this._sum(pos, start, ends[k]);
      if (h > best) best = h;
      start = ends[k];
    }
    return best;
  }

  // _sum: the sum of the values of parts start..end-1 (in the order of the _values arrays).
  _sum(pos, start, end) {
    let h = 0;
    const values = this._values;
    const patterns = this._patterns;
    for (let i = start; i < end; i++) {
      const src = this._srcs[i];
      const za = this._regions[i];
      if (src === null) {
        h += values[i][za ? za.index(pos) : patterns[i].rank(pos)];
        continue;
      }
      const cell = this._cellMaps[i];
      const cells = this._cells;
      for (let j = 0; j < src.length; j++) cells[j] = cell[pos[src[j]]];
      h += values[i][za ? za.indexCells(cells, cell[pos[0]]) : patterns[i].rankCells(cells, src.length)];
    }
    return h;
  }

  /**
   * Checked lookup of a board (array-like of N tiles, 0 = blank), in moves,
   * with the rule of format.Set.Lookup (what `pdbgen lookup` prints): throws
   * BoardError for a malformed board, and UnsolvableError for a board that
   * cannot reach the goal, for exact and additive sets alike (an exact
   * table has no entry for it; additive tables hold every placement of
   * their tiles, but a sum for a board with no distance would mislead).
   * Otherwise returns heuristic of the board's positions.
   */
  lookup(board) {
    const err = validateBoard(board, this.n);
    if (err) throw new BoardError(err);
    const pos = positions(board, this._pos);
    if (!this.parts[0].pattern.solvablePositions(pos)) throw new UnsolvableError(goalName(this.goal));
    return this.heuristic(pos);
  }

  /** Same as lookup (its former name). */
  heuristicBoard(board) {
    return this.lookup(board);
  }
}

/**
 * Checks a parsed set file (setfile.mjs parseSetFile) against its tables
 * with every MUST of SPEC.md sections 10 and 12, in the order of Go's
 * format reader, and returns { parts, names, partitions } for
 * TableSet.fromParts: the parts in file order (partition by partition), the
 * names of the parts in errors ("FILE part J" or "FILE partition I part
 * J"), and for a catalogue (version 2) the indices into parts of each
 * partition's parts (null for version 1). file names the set file in
 * errors; readTable(name, where) reads and verifies the table file of that
 * name (where = "part J" or "partition I part J"; its errors pass through,
 * named by the caller; the caller reads each name once). Errors about the
 * set file are SetFileErrors.
 */
async function setFileParts(file, sf, readTable) {
  const bad = (msg, part, partition) => new SetFileError(`${file}: tilepdb: invalid set: ${msg}`, file, part, partition);
  const { width: w, height: h } = sf;
  if (typeof w !== 'number' || typeof h !== 'number' || w < MIN_SIDE || w > MAX_SIDE || h < MIN_SIDE || h > MAX_SIDE) throw bad(`board ${w}x${h}: each side must be between ${MIN_SIDE} and ${MAX_SIDE}`);
  const n = w * h;
  if (sf.goal.length !== n) throw bad(`goal has ${sf.goal.length} cells, want ${n}`);
  sf.goal.forEach((t, c) => {
    if (typeof t !== 'number' || t < 0 || t >= n) throw bad(`goal cell ${c} holds ${t}, not a tile of 0..${n - 1}`);
  });
  const goal = Uint8Array.from(sf.goal);
  const gErr = validateBoard(goal, n);
  if (gErr) throw bad(`goal: ${gErr}`);
  // groups: [partition number (0 for version 1), its parts]
  let groups;
  if (sf.partitions === null || sf.partitions === undefined) {
    if (sf.parts.length === 0 || sf.parts.length > n - 1) throw bad(`${sf.parts.length} parts, want 1 to ${n - 1}`);
    groups = [[0, sf.parts]];
  } else {
    const np = sf.partitions.length;
    if (np === 0 || np > MAX_PARTITIONS) throw bad(`${np} partitions, want 1 to ${MAX_PARTITIONS}`);
    let total = 0;
    sf.partitions.forEach((ps, i) => {
      if (ps.length === 0 || ps.length > n - 1) throw bad(`partition ${i + 1}: ${ps.length} parts, want 1 to ${n - 1}`, undefined, i + 1);
      total += ps.length;
    });
    if (total > MAX_CATALOGUE_PARTS) throw bad(`${total} parts in all, want at most ${MAX_CATALOGUE_PARTS}`);
    groups = sf.partitions.map((ps, i) => [i + 1, ps]);
  }
  const out = [];
  const names = [];
  const partitions = sf.partitions ? [] : null;
  for (const [partition, sps] of groups) {
    const idx = [];
    for (let i = 0; i < sps.length; i++) {
      const sp = sps[i];
      const where = partition > 0 ? `partition ${partition} part ${i + 1}` : `part ${i + 1}`;
      idx.push(out.length);
      out.push(await setFilePart(file, sp, where, i + 1, partition, w, h, goal, readTable));
      names.push(`${file} ${where}`);
    }
    if (partitions) partitions.push(idx);
  }
  return { parts: out, names, partitions };
}

// setFilePart checks one part of a set file (SPEC.md 10.3 step 5, 12 step
// 7); where names it in messages ("part J" or "partition I part J").
async function setFilePart(file, sp, where, no, partition, w, h, goal, readTable) {
  const n = w * h;
  const partErr = (msg) => new SetFileError(`${file}: tilepdb: invalid set: ${where}: ${msg}`, file, no, partition || undefined);
  const tErr = tileListError(sp.tiles, n);
  if (tErr) throw partErr(`tiles: ${tErr}`);
  if (sp.tiles.length === n - 2) {
    throw partErr(`bad pattern: ${n - 2} of ${n - 1} tiles leaves one non-pattern tile, so some placements are unreachable; use all ${n - 1} tiles (the exact table) or at most ${n - 3}`);
  }
  let p;
  try {
    p = new Pattern(w, h, goal, sp.tiles);
  } catch (e) {
    if (e instanceof BoardError) throw partErr(e.message);
    throw e;
  }
  if (!SYMMETRIES.includes(sp.symmetry)) throw partErr(`bad symmetry: ${quoteName(sp.symmetry)} is not one of ${SYMMETRIES.join(', ')}`);
  const name = quoteName(sp.table);
  if (!validTableName(sp.table)) throw partErr(`table ${name} must be a plain file name in the set file's directory`);
  const t = await readTable(sp.table, where);
  const tp = t.pattern;
  if (tp.w !== w || tp.h !== h) throw partErr(`table ${name} is for a ${tp.w}x${tp.h} board, the set for ${w}x${h}`);
  if (tp.goal.join(' ') !== goal.join(' ')) throw partErr(`table ${name} has goal "${tp.goal.join(' ')}", the set "${goal.join(' ')}"`);
  if (sp.table_tiles.length !== tp.tiles.length || sp.table_tiles.some((x, j) => x !== tp.tiles[j])) {
    throw partErr(`table ${name} holds tiles ${goList(tp.tiles)}, the set file says ${goList(sp.table_tiles)}`);
  }
  if (sp.table_raw_sha256 !== t.header.raw_sha256) throw partErr(`table ${name} has raw_sha256 ${t.header.raw_sha256}, the set file says ${quoteName(sp.table_raw_sha256)}`);
  // SPEC.md section 10: no table of a set file is exact (an exact table serves only itself, alone).
  if (tp.exact) throw partErr(`table ${name} is an exact table (${tp}); a set file lists additive tables only`);
  let map = null;
  let tileMap = Array.from(p.tiles);
  const own = sp.symmetry === 'identity' && p.tiles.join(',') === tp.tiles.join(',');
  if (!own) {
    const m = mapPattern(p, tp, sp.symmetry);
    if (m.error) throw new SetFileError(`${file}: ${where} (tiles ${goList(sp.tiles)}) through table ${name}: tilepdb: invalid set: ${m.error}`, file, no, partition || undefined);
    map = m.map;
    tileMap = Array.from(p.tiles, (x) => map.tile[x]);
  }
  if (sp.tile_map.length !== tileMap.length || sp.tile_map.some((x, j) => x !== tileMap[j])) {
    throw partErr(`tile_map ${goList(sp.tile_map)}, but ${sp.symmetry} maps tiles ${goList(sp.tiles)} to ${goList(tileMap)}`);
  }
  return { pattern: p, table: t, symmetry: sp.symmetry, map };
}

const setFileError = (msg) => new SetFileError(`tilepdb: invalid set: ${msg}`);

/**
 * Browser and Node: the set described by a set file (SPEC.md section 10,
 * or a catalogue, section 12)
 * given as its bytes (Uint8Array, UTF-8 JSON, at most MAX_SET_FILE_LEN) or
 * text. opts.name names the set file in errors (default "set file");
 * opts.table(name) returns the table file of that name, as bytes
 * (Uint8Array, read and verified here with readBytes) or as a Table
 * already read; for example
 *   name => fetch(new URL(name, setUrl)).then(r => r.arrayBuffer()).then(b => new Uint8Array(b)).
 * A table named by several parts is fetched once. Every MUST of section 10
 * is checked; errors: SetFileError (naming the set file and the part), or
 * the table's own errors (FormatError etc., prefixed "<set>: part N: <table>: ").
 */
export async function openSetBytes(data, opts = {}) {
  const name = opts.name ?? 'set file';
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  if (bytes.length > MAX_SET_FILE_LEN) throw new SetFileError(`${name}: tilepdb: invalid set: larger than ${MAX_SET_FILE_LEN} bytes`, name);
  const parsed = parseSetFile(bytes);
  if (parsed.error) throw new SetFileError(`${name}: tilepdb: invalid set: ${parsed.error}`, name, parsed.part || undefined, parsed.partition || undefined);
  if (typeof opts.table !== 'function') throw new TypeError('openSetBytes: opts.table(name) must return the bytes (or Table) of the table file of that name');
  const cache = new Map();
  const sp = await setFileParts(name, parsed.set, async (tname, where) => {
    if (!cache.has(tname)) {
      cache.set(
        tname,
        (async () => {
          const got = await opts.table(tname);
          return got instanceof Table ? got : readBytes(got, opts);
        })(),
      );
    }
    try {
      return await cache.get(tname);
    } catch (e) {
      if (e instanceof Error) e.message = `${name}: ${where}: ${tname}: ${e.message}`;
      throw e;
    }
  });
  return TableSet.fromParts(sp.parts, sp.names, setFileError, sp.partitions ?? undefined);
}

// Node helpers for openSet: reading a set file with its size limit, and
// telling a set file from a table file by its first bytes (format.IsSetFile).
async function readSetFileBytes(path) {
  const { fh } = await openRegular(path);
  try {
    const buf = new Uint8Array(MAX_SET_FILE_LEN + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got === buf.length) break;
    }
    if (got > MAX_SET_FILE_LEN) throw new SetFileError(`${path}: tilepdb: invalid set: larger than ${MAX_SET_FILE_LEN} bytes`, path);
    return buf.subarray(0, got);
  } finally {
    await fh.close();
  }
}

/**
 * Node: whether the file at path is a set file (SPEC.md section 10.3:
 * after an optional byte-order mark and JSON white space, among its first
 * MAX_SET_FILE_LEN bytes, comes '{'); false for a non-regular file.
 */
export async function isSetFile(path) {
  let fh;
  try {
    ({ fh } = await openRegular(path));
  } catch (e) {
    if (e instanceof NotRegularFileError) return false;
    throw e;
  }
  try {
    const buf = new Uint8Array(4096);
    for (let off = 0; off < MAX_SET_FILE_LEN; ) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, MAX_SET_FILE_LEN - off), off);
      if (bytesRead === 0) return false;
      const got = looksLikeSetFile(buf.subarray(0, bytesRead), off);
      if (got !== undefined) return got;
      off += bytesRead;
    }
    return false;
  } finally {
    await fh.close();
  }
}

/**
 * Node: reads every path and groups them into one heuristic, like Go's
 * format.OpenSet and `pdbgen lookup`: each path is a table file (used for
 * its own pattern) or a set file (`<name>.set.json`, SPEC.md section 10:
 * its parts, with their tables read from the set file's directory and
 * checked, each table file once; or a catalogue, section 12, which is
 * used alone: the other paths may only be tables it names). Set files' parts come first, in order, then the tables given
 * directly; a table given both directly and through a set file is used
 * once (through the set file), so every path `pdbgen build` printed can
 * be passed. Errors name the paths: the tables' own errors, SetError for
 * tables that do not form a set, SetFileError (bad data) for a set file
 * that is malformed or inconsistent with its tables (grouping errors
 * included once a set file is involved).
 */
export async function openSet(paths, opts) {
  const { resolve, dirname, join } = await import('node:path');
  const tables = new Map(); // resolved path -> Promise<Table>
  const read = (p) => {
    const key = resolve(p);
    if (!tables.has(key)) tables.set(key, readFile(p, opts));
    return tables.get(key);
  };
  const isSet = [];
  for (const p of paths) isSet.push(await isSetFile(p));
  const names = [];
  const parts = [];
  const used = new Set();
  let catalogue = null; // { path, parts, names, partitions } of the first catalogue among the set files
  const setPaths = [];
  for (let i = 0; i < paths.length; i++) {
    if (!isSet[i]) continue;
    const path = paths[i];
    const bytes = await readSetFileBytes(path);
    const parsed = parseSetFile(bytes);
    if (parsed.error) throw new SetFileError(`${path}: tilepdb: invalid set: ${parsed.error}`, path, parsed.part || undefined, parsed.partition || undefined);
    const sp = await setFileParts(path, parsed.set, async (tname, where) => {
      try {
        return await read(join(dirname(path), tname));
      } catch (e) {
        if (e instanceof Error) {
          if (!(e instanceof TilepdbError || e instanceof LimitError)) e.message = ioMessage(e);
          e.message = `${path}: ${where}: ${e.message}`;
        }
        throw e;
      }
    });
    for (const p of parsed.set.parts) used.add(resolve(join(dirname(path), p.table)));
    setPaths.push(path);
    if (sp.partitions) {
      if (catalogue === null) catalogue = { path, ...sp };
      continue;
    }
    sp.parts.forEach((p, j) => {
      names.push(sp.names[j]);
      parts.push(p);
    });
  }
  if (catalogue !== null) {
    // SPEC.md section 12: a catalogue is a whole heuristic, given alone or with the tables it names
    const alone = (other) => new SetFileError(`${catalogue.path}: tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with ${other}`, catalogue.path);
    for (const p of setPaths) if (p !== catalogue.path) throw alone(p);
    if (setPaths.length > 1) throw alone(catalogue.path); // the catalogue named twice
    for (let i = 0; i < paths.length; i++) if (!isSet[i] && !used.has(resolve(paths[i]))) throw alone(paths[i]);
    return TableSet.fromParts(catalogue.parts, catalogue.names, setFileError, catalogue.partitions);
  }
  for (let i = 0; i < paths.length; i++) {
    if (isSet[i] || used.has(resolve(paths[i]))) continue;
    const t = await read(paths[i]);
    names.push(paths[i]);
    parts.push({ pattern: t.pattern, table: t, symmetry: 'identity', map: null });
  }
  return TableSet.fromParts(parts, names, isSet.includes(true) ? setFileError : undefined);
}

/** Node: the set of one set file (openSet with that path alone). */
export async function openSetFile(path, opts) {
  return openSet([path], opts);
}

/**
 * The message of an I/O error worded as Go's *os.PathError ("open PATH: no
 * such file or directory"), as pdbgen prints it; other errors keep theirs.
 */
export function ioMessage(e) {
  const m = e && e.code && e.syscall && e.path !== undefined ? /^[A-Z0-9_]+: (.*), [a-z_]+ '.*'$/s.exec(e.message) : null;
  return m ? `${e.syscall} ${e.path}: ${m[1]}` : e.message;
}
