// Set files (format/SPEC.md section 10): one additive table serving several
// patterns through a board symmetry σ and a tile relabelling π. This module
// holds the pure parts, with no I/O and no dependency on the table reader:
// parsing a set file's JSON, the 8 board symmetries, the relabelling, the
// blank's goal region and the check that a table serves a pattern
// (puzzle.MapPattern in Go). tilepdb.mjs reads the tables and groups the
// parts (openSetFile, openSetBytes, openSet).
//
// Error messages are those of the Go reader (format/setfile.go,
// puzzle/symmetry.go), so that the command-line readers print what
// `pdbgen lookup` prints; functions return them as strings (null when all
// is well) and tilepdb.mjs wraps them in a SetFileError.

import { parseJSON, JSONError, quoteName, kindOf } from './json.mjs';

/** The newest set file version this reader implements ("tilepdb_set"): 1 (SPEC.md section 10) and 2 (catalogues, section 12); any other is refused. */
export const SET_VERSION = 2;
/** The set file versions this reader reads. */
export const SET_VERSIONS = Object.freeze([1, 2]);
/** Most partitions in a catalogue (set file version 2; SPEC.md section 12). */
export const MAX_PARTITIONS = 64;
/** Most parts over all partitions of a catalogue (SPEC.md section 12). */
export const MAX_CATALOGUE_PARTS = 4096;
/** Largest set file read, in bytes (1 MiB; SPEC.md section 10). */
export const MAX_SET_FILE_LEN = 1 << 20;
/** Conventional file name ending of a set file. */
export const SET_FILE_EXT = '.set.json';

/**
 * The symmetry names of SPEC.md section 10, in the fixed order of Go's
 * puzzle.Symmetry constants. The last four (rot90, rot270, transpose,
 * anti-transpose) are valid on square boards only.
 */
export const SYMMETRIES = Object.freeze(['identity', 'rot90', 'rot180', 'rot270', 'flip-lr', 'flip-tb', 'transpose', 'anti-transpose']);

/** Whether symmetry name maps a w x h board onto itself (the 4 square-only ones need w = h). */
export function symmetryValidOn(name, w, h) {
  switch (name) {
    case 'identity':
    case 'rot180':
    case 'flip-lr':
    case 'flip-tb':
      return true;
    case 'rot90':
    case 'rot270':
    case 'transpose':
    case 'anti-transpose':
      return w === h;
    default:
      return false;
  }
}

/**
 * Image of cell (0..w*h-1) under symmetry name on a board of w columns and
 * h rows, by the table of SPEC.md section 10 on (r, c) = (cell div w,
 * cell mod w). The symmetry must be valid on the board.
 */
export function symmetryCell(name, w, h, cell) {
  let r = Math.floor(cell / w);
  let c = cell % w;
  switch (name) {
    case 'rot90':
      [r, c] = [c, h - 1 - r];
      break;
    case 'rot180':
      [r, c] = [h - 1 - r, w - 1 - c];
      break;
    case 'rot270':
      [r, c] = [w - 1 - c, r];
      break;
    case 'flip-lr':
      c = w - 1 - c;
      break;
    case 'flip-tb':
      r = h - 1 - r;
      break;
    case 'transpose':
      [r, c] = [c, r];
      break;
    case 'anti-transpose':
      [r, c] = [w - 1 - c, h - 1 - r];
      break;
    default:
  }
  return r * w + c;
}

/**
 * The blank's goal region of pattern p (a rank.mjs Pattern): a Uint8Array
 * of N flags, region[c] = 1 for the cells reachable from the goal's blank
 * cell through cells that hold none of p's tiles at the goal (4-neighbour
 * moves), else 0.
 */
export function goalBlankRegion(p) {
  const occupied = new Uint8Array(p.n);
  for (const t of p.tiles) occupied[p.goalPos[t]] = 1;
  const start = p.goalPos[0];
  const region = new Uint8Array(p.n);
  region[start] = 1;
  const stack = [start];
  while (stack.length > 0) {
    const c = stack.pop();
    const r = Math.floor(c / p.w);
    const col = c % p.w;
    const next = [];
    if (r > 0) next.push(c - p.w);
    if (r < p.h - 1) next.push(c + p.w);
    if (col > 0) next.push(c - 1);
    if (col < p.w - 1) next.push(c + 1);
    for (const nb of next) {
      if (occupied[nb] || region[nb]) continue;
      region[nb] = 1;
      stack.push(nb);
    }
  }
  return region;
}

const quote = (goal) => JSON.stringify(Array.from(goal).join(' '));

/**
 * Checks that the table of pattern `to` serves pattern `from` through
 * symmetry sym (both rank.mjs Patterns on the same board and goal; puzzle.MapPattern):
 * neither is exact, sym is valid on the board, it maps from's goal cells
 * exactly onto to's, and it maps the blank's goal region of from onto
 * to's. Returns { map } with map = { cell, tile, src } (cell[c] = σ(c),
 * tile[t] = π(t) = goal[σ(goal cell of t)], src[j] = the from tile looked
 * up as to.tiles[j]), or { error } with Go's message (after "bad symmetry: ").
 */
export function mapPattern(from, to, sym) {
  const { w, h, n } = from;
  const bad = (msg) => ({ error: `bad symmetry: ${msg}` });
  if (to.w !== w || to.h !== h) return bad(`pattern ${from} is on a ${w}x${h} board, its table ${to} on ${to.w}x${to.h}`);
  if (quote(to.goal) !== quote(from.goal)) return bad(`pattern ${from} has goal ${quote(from.goal)}, its table ${to} has goal ${quote(to.goal)}`);
  if (from.exact || to.exact) return bad(`exact tables (${to}) serve only themselves`);
  if (!symmetryValidOn(sym, w, h)) return bad(`${sym} does not map a ${w}x${h} board onto itself (square boards only)`);
  if (from.tiles.length !== to.tiles.length) return bad(`pattern ${from} has ${from.tiles.length} tiles, its table ${to} has ${to.tiles.length}`);
  const cell = new Uint8Array(n);
  for (let c = 0; c < n; c++) cell[c] = symmetryCell(sym, w, h, c);
  const tile = new Uint8Array(n);
  for (let c = 0; c < n; c++) tile[from.goal[c]] = from.goal[cell[c]];
  const idx = new Map();
  to.tiles.forEach((t, j) => idx.set(t, j));
  const src = new Uint8Array(to.tiles.length);
  for (const t of from.tiles) {
    const j = idx.get(tile[t]);
    if (j === undefined) {
      const g = from.goalPos[t];
      return bad(`${sym} maps the goal cell ${g} of tile ${t} of ${from} to cell ${cell[g]}, which is not a goal cell of ${to}`);
    }
    src[j] = t;
  }
  const fromRegion = goalBlankRegion(from);
  const toRegion = goalBlankRegion(to);
  let sameImage = true;
  for (let c = 0; c < n; c++) if (fromRegion[c] !== toRegion[cell[c]]) sameImage = false;
  if (!sameImage) {
    return bad(`${sym} maps the blank's goal region of ${from} (the free cells around goal cell ${from.goalPos[0]}) onto another region than that of ${to}`);
  }
  return { map: { cell, tile, src } };
}

/** Go's %v of a list of integers: "[2 3 4]". */
export const goList = (xs) => `[${Array.from(xs ?? []).join(' ')}]`;

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
/** How deep arrays and objects may nest in a set file (the top-level object counts as 1; SPEC.md section 10.1). */
export const MAX_SET_FILE_DEPTH = 64;
/** Longest table name in a set file, in bytes (SPEC.md section 10.2). */
export const MAX_TABLE_NAME_LEN = 255;

// An integer of a set file (format's jsonInt): a number without fraction
// or exponent ("-0" is 0) within int64, as a Number (a BigInt beyond
// 2^53, printed exactly; it fails the range checks). Returns { v } or
// { msg }.
function intOf(v) {
  if (v === null || typeof v !== 'object' || v instanceof Map || Array.isArray(v) || !('num' in v)) return { msg: `want an integer, found ${kindOf(v)}` };
  if (/[.eE]/.test(v.num)) return { msg: `${v.num} is not an integer` };
  const b = BigInt(v.num);
  if (b < INT64_MIN || b > INT64_MAX) return { msg: `${v.num} is out of range` };
  return { v: b >= -SAFE && b <= SAFE ? Number(b) : b };
}

/**
 * Parses a set file (UTF-8 bytes, or a string, which is encoded first) by
 * the JSON rules and required keys of SPEC.md sections 10 and 12, in the
 * order of Go's format.ParseSetFile, with its messages: no byte-order mark,
 * valid UTF-8, the JSON rules of json.mjs with nesting at most
 * MAX_SET_FILE_DEPTH, a JSON object; tilepdb_set first (present, an
 * integer, 1 or 2); then every required key present, not null, of its
 * type: width, height, goal, then for version 1 parts, for version 2
 * partitions (an array of arrays of parts), and in each part tiles, table,
 * table_tiles, symmetry, tile_map, table_raw_sha256. Unknown keys are
 * ignored. Returns { set } with { tilepdb_set, width, height, goal, parts:
 * [{ tiles, table, table_tiles, symmetry, tile_map, table_raw_sha256 }],
 * partitions } where, for version 2, partitions holds the parts of each
 * partition (parts is then all of them, partition by partition) and, for
 * version 1, partitions is null; or { error, part, partition } (the first
 * problem, the message after "tilepdb: invalid set: "; part is its part
 * number within its partition, 0 for the file or a whole partition;
 * partition is the partition number of a version-2 file, else 0). Does not
 * check the size (the caller does, before reading more than
 * MAX_SET_FILE_LEN + 1 bytes).
 */
export function parseSetFile(data) {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const notSet = (msg) => ({ error: `not a set file: ${msg}`, part: 0, partition: 0 });
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return notSet('starts with a byte-order mark');
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return notSet('not valid UTF-8');
  }
  let obj;
  try {
    obj = parseJSON(text, { maxDepth: MAX_SET_FILE_DEPTH });
  } catch (e) {
    if (e instanceof JSONError) return notSet(e.message);
    // Cannot happen with the depth bound; a clear refusal all the same.
    if (e instanceof RangeError) return notSet(`JSON nested deeper than ${MAX_SET_FILE_DEPTH} levels`);
    throw e;
  }
  if (!(obj instanceof Map)) return notSet(`want a JSON object, found ${kindOf(obj)}`);
  const probs = [];
  const field = (o, key) => {
    if (!o.has(key)) return { msg: `required key "${key}" is missing` };
    const v = o.get(key);
    if (v === null) return { msg: `key "${key}" is null` };
    return { v };
  };
  const intKey = (o, key, part) => {
    let f = field(o, key);
    if (f.msg === undefined) {
      f = intOf(f.v);
      if (f.msg !== undefined) f.msg = `key "${key}": ${f.msg}`;
    }
    if (f.msg !== undefined) probs.push({ part, msg: f.msg });
    return f.v ?? 0;
  };
  const intsKey = (o, key, part) => {
    const f = field(o, key);
    let msg = f.msg;
    const out = [];
    if (msg === undefined) {
      if (!Array.isArray(f.v)) msg = `key "${key}": want an array of integers, found ${kindOf(f.v)}`;
      else {
        for (let i = 0; i < f.v.length; i++) {
          const e = intOf(f.v[i]);
          if (e.msg !== undefined) {
            msg = `key "${key}"[${i}]: ${e.msg}`;
            break;
          }
          out.push(e.v);
        }
      }
    }
    if (msg !== undefined) probs.push({ part, msg });
    return out;
  };
  const strKey = (o, key, part) => {
    const f = field(o, key);
    let msg = f.msg;
    if (msg === undefined && typeof f.v !== 'string') msg = `key "${key}": want a string, found ${kindOf(f.v)}`;
    if (msg !== undefined) {
      probs.push({ part, msg });
      return '';
    }
    return f.v;
  };
  // where: "part J" (version 1), "partition I" or "partition I part J"
  const where = (partition, part) => (partition > 0 ? `partition ${partition}${part > 0 ? ` part ${part}` : ''}` : part > 0 ? `part ${part}` : '');
  const first = () => {
    const { part, partition = 0, msg } = probs[0];
    const w = where(partition, part);
    return { error: w ? `${w}: ${msg}` : msg, part, partition };
  };
  const version = intKey(obj, 'tilepdb_set', 0);
  if (probs.length > 0) return first();
  if (!SET_VERSIONS.includes(version)) return { error: `set file version ${version} is not supported (this reader supports 1 and 2)`, part: 0, partition: 0 };
  const set = { tilepdb_set: version, width: intKey(obj, 'width', 0), height: intKey(obj, 'height', 0), goal: intsKey(obj, 'goal', 0), parts: [], partitions: null };
  const partOf = (p, no, partition) => {
    if (!(p instanceof Map)) {
      probs.push({ part: no, partition, msg: `want an object, found ${kindOf(p)}` });
      return null;
    }
    const n0 = probs.length;
    const sp = {
      tiles: intsKey(p, 'tiles', no),
      table: strKey(p, 'table', no),
      table_tiles: intsKey(p, 'table_tiles', no),
      symmetry: strKey(p, 'symmetry', no),
      tile_map: intsKey(p, 'tile_map', no),
      table_raw_sha256: strKey(p, 'table_raw_sha256', no),
    };
    for (let i = n0; i < probs.length; i++) probs[i].partition = partition;
    return sp;
  };
  const key = version === 1 ? 'parts' : 'partitions';
  const pf = field(obj, key);
  if (pf.msg === undefined && !Array.isArray(pf.v)) pf.msg = `key "${key}": want an array of ${version === 1 ? 'objects' : 'arrays'}, found ${kindOf(pf.v)}`;
  if (pf.msg !== undefined) {
    probs.push({ part: 0, msg: pf.msg });
    return first();
  }
  if (version === 1) {
    pf.v.forEach((p, i) => {
      const sp = partOf(p, i + 1, 0);
      if (sp) set.parts.push(sp);
    });
  } else {
    set.partitions = [];
    pf.v.forEach((q, i) => {
      const partition = i + 1;
      if (!Array.isArray(q)) {
        probs.push({ part: 0, partition, msg: `want an array, found ${kindOf(q)}` });
        return;
      }
      const ps = [];
      q.forEach((p, j) => {
        const sp = partOf(p, j + 1, partition);
        if (sp) ps.push(sp);
      });
      set.partitions.push(ps);
      set.parts.push(...ps);
    });
  }
  if (probs.length > 0) return first();
  return { set };
}

/**
 * Whether bytes (the start of a file) look like a set file (SPEC.md
 * section 10.3, format.IsSetFile): after an optional UTF-8 byte-order mark
 * and JSON white space (space, tab, LF, CR) comes '{'. Returns true or
 * false, or undefined when bytes hold only the mark and white space (look
 * further, up to MAX_SET_FILE_LEN bytes; a file that is all white space
 * there is not a set file).
 */
export function looksLikeSetFile(bytes, offset = 0) {
  let i = 0;
  if (offset === 0 && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  for (; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) continue;
    return b === 0x7b;
  }
  return undefined;
}

/**
 * Whether name is a plain file name in the set file's directory (SPEC.md
 * section 10.2): 1 to MAX_TABLE_NAME_LEN bytes of UTF-8, no '/', '\\' or
 * ':', not '.' or '..', no control character (U+0000 to U+001F, U+007F to U+009F).
 */
export function validTableName(name) {
  if (name === '' || name === '.' || name === '..' || new TextEncoder().encode(name).length > MAX_TABLE_NAME_LEN) return false;
  return !/[/\\:\u0000-\u001f\u007f-\u009f]/.test(name);
}

/**
 * Checks a JSON tile list (format's tileList): non-empty, strictly
 * ascending, in 1..n-1. Returns null or the message (after "tiles: ").
 */
export function tileListError(xs, n) {
  if (xs.length === 0) return 'empty';
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (x < 1 || x >= n || (i > 0 && x <= xs[i - 1])) return `${goList(xs)} is not a strictly ascending list of tiles 1..${n - 1}`;
  }
  return null;
}
