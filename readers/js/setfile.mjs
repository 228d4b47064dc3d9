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

import { parseJSON, JSONError } from './json.mjs';

/** The set file version this reader implements ("tilepdb_set"); any other is refused. */
export const SET_VERSION = 1;
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
 * The blank's goal region of pattern p (a rank.mjs Pattern) as a bit mask
 * of cells: the cells reachable from the goal's blank cell through cells
 * that hold none of p's tiles at the goal (4-neighbour moves).
 */
export function goalBlankRegion(p) {
  let occupied = 0;
  for (const t of p.tiles) occupied |= 1 << p.goalPos[t];
  const start = p.goalPos[0];
  let region = 1 << start;
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
      if (occupied & (1 << nb) || region & (1 << nb)) continue;
      region |= 1 << nb;
      stack.push(nb);
    }
  }
  return region >>> 0;
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
  let img = 0;
  for (let c = 0; c < n; c++) if (fromRegion & (1 << c)) img |= 1 << cell[c];
  if (img >>> 0 !== goalBlankRegion(to)) {
    return bad(`${sym} maps the blank's goal region of ${from} (the free cells around goal cell ${from.goalPos[0]}) onto another region than that of ${to}`);
  }
  return { map: { cell, tile, src } };
}

/** Go's %v of a list of integers: "[2 3 4]". */
export const goList = (xs) => `[${Array.from(xs ?? []).join(' ')}]`;

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function kindOf(v) {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map) return 'object';
  return 'number';
}

// Go's encoding/json into the struct of format.SetFile: a missing key or
// null leaves the zero value (0, "", empty list); a value of another type,
// or a number that is not an int64, is an error. Integers come back as
// Numbers, or as BigInts beyond 2^53 (printed exactly; they fail the
// range checks).
function intOf(v, what) {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'object' || v instanceof Map || Array.isArray(v) || !('num' in v)) throw new JSONError(`cannot unmarshal ${kindOf(v)} into ${what} of type int`);
  if (!/^-?[0-9]+$/.test(v.num)) throw new JSONError(`cannot unmarshal number ${v.num} into ${what} of type int`);
  const b = BigInt(v.num);
  if (b < INT64_MIN || b > INT64_MAX) throw new JSONError(`cannot unmarshal number ${v.num} into ${what} of type int`);
  return b >= -SAFE && b <= SAFE ? Number(b) : b;
}

function intsOf(v, what) {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new JSONError(`cannot unmarshal ${kindOf(v)} into ${what} of type []int`);
  return v.map((e) => intOf(e, what));
}

function stringOf(v, what) {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new JSONError(`cannot unmarshal ${kindOf(v)} into ${what} of type string`);
  return v;
}

/**
 * Parses the JSON of a set file (a string, or UTF-8 bytes) into
 * { tilepdb_set, width, height, goal, parts: [{ tiles, table, table_tiles,
 * symmetry, tile_map, table_raw_sha256 }] } with the types of Go's
 * format.SetFile: unknown keys are ignored, a missing key or null is the
 * zero value (which the later checks refuse). Checks the version.
 * Returns { set } or { error } (the message after "tilepdb: invalid set: ").
 * Does not check the size (the caller does, before reading more than
 * MAX_SET_FILE_LEN + 1 bytes).
 */
export function parseSetFile(data) {
  const text = typeof data === 'string' ? data : new TextDecoder('utf-8').decode(data);
  let set;
  try {
    const obj = parseJSON(text);
    if (!(obj instanceof Map)) throw new JSONError(`cannot unmarshal ${kindOf(obj)} into a set file (want a JSON object)`);
    const partsJSON = obj.get('parts');
    if (partsJSON !== undefined && partsJSON !== null && !Array.isArray(partsJSON)) throw new JSONError(`cannot unmarshal ${kindOf(partsJSON)} into field parts of type []SetPart`);
    set = {
      tilepdb_set: intOf(obj.get('tilepdb_set'), 'field tilepdb_set'),
      width: intOf(obj.get('width'), 'field width'),
      height: intOf(obj.get('height'), 'field height'),
      goal: intsOf(obj.get('goal'), 'field goal'),
      parts: (partsJSON ?? []).map((p, i) => {
        if (p === null) p = new Map();
        if (!(p instanceof Map)) throw new JSONError(`cannot unmarshal ${kindOf(p)} into part ${i + 1} (want a JSON object)`);
        return {
          tiles: intsOf(p.get('tiles'), `field parts.tiles`),
          table: stringOf(p.get('table'), 'field parts.table'),
          table_tiles: intsOf(p.get('table_tiles'), 'field parts.table_tiles'),
          symmetry: stringOf(p.get('symmetry'), 'field parts.symmetry'),
          tile_map: intsOf(p.get('tile_map'), 'field parts.tile_map'),
          table_raw_sha256: stringOf(p.get('table_raw_sha256'), 'field parts.table_raw_sha256'),
        };
      }),
    };
  } catch (e) {
    if (e instanceof JSONError) return { error: `not a set file: ${e.message}` };
    // Unknown keys may hold any JSON, nested deeper than the recursive
    // parser's stack: a clear refusal, never a crash.
    if (e instanceof RangeError) return { error: 'not a set file: JSON nested too deeply for this reader' };
    throw e;
  }
  if (set.tilepdb_set !== SET_VERSION) return { error: `set file version ${set.tilepdb_set} is not supported (this reader supports ${SET_VERSION})` };
  return { set };
}

/** Whether bytes (the start of a file) look like a set file: the first byte other than space, tab, CR and LF is '{' (format.IsSetFile). */
export function looksLikeSetFile(bytes) {
  for (const b of bytes) {
    if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) continue;
    return b === 0x7b;
  }
  return false;
}

/** Whether name is a plain file name in the set file's directory: not empty, no '/', '\' or ':', not '.' or '..'. */
export function validTableName(name) {
  return name !== '' && !/[/\\:]/.test(name) && name !== '.' && name !== '..';
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
