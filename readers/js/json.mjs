// A strict JSON parser (RFC 8259) that keeps numbers exact, for the header
// of a table file and for set files: JSON.parse would round integers above
// 2^53 (entries and histogram counts are unsigned 64-bit). It applies the
// JSON rules of SPEC.md sections 2 and 10.1: white space is space, tab, CR
// and LF; a key occurs at most once in an object; keys match byte for byte
// (case-sensitively); no \u escape of a lone surrogate; arrays and objects
// nested at most maxDepth deep; required keys must be present and not
// null; integers have no fraction or exponent and lie in their type's
// range. (The caller checks UTF-8 and the byte-order mark on the bytes.)
// Syntax errors give the byte offset in the UTF-8 text and the words of
// the Go reader's set-file parser (format/setjson.go), so that set-file
// messages are byte-identical. No dependencies.

/** JSON syntax or type error; message says what and where. */
export class JSONError extends Error {}

/** Default nesting limit (arrays and objects), as Go's encoding/json. */
const MAX_DEPTH = 10000;

const HEX = '0123456789abcdef';
const hex = (x, width) => Array.from({ length: width }, (_, k) => HEX[(x >> (4 * (width - 1 - k))) & 15]).join('');

/**
 * Quotes a name read from a file for a message, by the rule of Go's %+q
 * (strconv.QuoteToASCII), so that messages are byte-identical to
 * pdbgen's and no control character reaches a terminal: printable ASCII as
 * is, `"` and `\` escaped, \a \b \f \n \r \t \v, other characters below
 * 0x80 as \xhh, others as \uhhhh or \Uhhhhhhhh (a lone surrogate as \ufffd).
 */
export function quoteName(s) {
  const named = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' };
  let out = '"';
  for (const ch of String(s)) {
    let r = ch.codePointAt(0);
    if (r === 0x22 || r === 0x5c) out += `\\${ch}`;
    else if (r >= 0x20 && r < 0x7f) out += ch;
    else if (named[r]) out += named[r];
    else if (r < 0x20 || r === 0x7f) out += `\\x${hex(r, 2)}`;
    else {
      if (r >= 0xd800 && r <= 0xdfff) r = 0xfffd;
      out += r < 0x10000 ? `\\u${hex(r, 4)}` : `\\U${hex(r, 8)}`;
    }
  }
  return `${out}"`;
}

/**
 * Parses text (a string). Objects become Maps (key -> value), arrays
 * Arrays, strings strings, true/false booleans, null null, and numbers
 * { num: 'literal' } so that callers convert them exactly. opts.maxDepth
 * bounds how deep arrays and objects nest (the top-level one counts as 1;
 * default 10000); set files use 64, so no stack is at risk.
 */
export function parseJSON(text, opts = {}) {
  const maxDepth = opts.maxDepth ?? MAX_DEPTH;
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const fail = (what) => {
    throw new JSONError(`${what} at byte ${new TextEncoder().encode(text.slice(0, i)).length}`);
  };
  // depth: the number of arrays and objects around the value.
  const value = (depth) => {
    ws();
    if (i >= n) fail('unexpected end of JSON input');
    const c = text[i];
    if ((c === '{' || c === '[') && depth >= maxDepth) fail(`JSON nested deeper than ${maxDepth} levels`);
    if (c === '{') {
      i++;
      const m = new Map();
      ws();
      if (text[i] === '}') {
        i++;
        return m;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('looking for beginning of object key string');
        const k = string();
        ws();
        if (text[i] !== ':') fail("after object key: want ':'");
        i++;
        if (m.has(k)) fail(`duplicate key ${quoteName(k)}`);
        m.set(k, value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return m;
        }
        fail("after object key:value pair: want ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const a = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return a;
        }
        fail("after array element: want ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0].length === 0) fail('invalid character looking for beginning of value');
    if (m[0].length === 400) fail('number literal too long');
    i += m[0].length;
    return { num: m[0] };
  };
  const string = () => {
    i++; // opening quote
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) fail('unexpected end of JSON input in string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail('invalid control character in string literal');
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          const u = parseInt(text.slice(i + 2, i + 6), 16);
          if (u >= 0xd800 && u <= 0xdfff) {
            // only a high surrogate followed by a \u escape of a low one
            const low = text.slice(i + 6, i + 8) === '\\u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 8, i + 12)) ? parseInt(text.slice(i + 8, i + 12), 16) : -1;
            if (u >= 0xdc00 || low < 0xdc00 || low > 0xdfff) fail('lone surrogate in \\u escape');
            out += String.fromCharCode(u, low);
            i += 12;
          } else {
            out += String.fromCharCode(u);
            i += 6;
          }
        } else {
          fail('invalid escape in string literal');
        }
        start = i;
        continue;
      }
      i++;
    }
  };
  const v = value(0);
  ws();
  if (i !== n) fail('invalid character after top-level value');
  return v;
}

/** The value of a required key (exact match): missing or null is an error. */
export function field(obj, name) {
  if (!obj.has(name)) throw new JSONError(`required key ${JSON.stringify(name)} is missing`);
  const v = obj.get(name);
  if (v === null) throw new JSONError(`key ${JSON.stringify(name)} is null`);
  return { v };
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

function intOf(v, what, lo, hi) {
  if (v === null) throw new JSONError(`null is not a value of ${what}`);
  if (typeof v !== 'object' || v instanceof Map || Array.isArray(v) || !('num' in v)) {
    throw new JSONError(`cannot unmarshal ${kindOf(v)} into ${what}`);
  }
  if (!/^-?[0-9]+$/.test(v.num)) throw new JSONError(`cannot unmarshal number ${v.num} into ${what}`);
  const b = BigInt(v.num);
  // An unsigned integer has no minus sign, not even in -0 (SPEC.md section 2, rule 5).
  if (b < lo || b > hi || (lo === 0n && v.num.startsWith('-'))) throw new JSONError(`cannot unmarshal number ${v.num} into ${what}`);
  return b;
}

/** The JSON kind of a value parseJSON returned, in Go's words: null, string, bool, array, object or number. */
export function kindOf(v) {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map) return 'object';
  return 'number';
}

/** A required signed 64-bit integer (BigInt). */
export function int64Field(obj, name) {
  return intOf(field(obj, name).v, `key ${name} (integer)`, INT64_MIN, INT64_MAX);
}

/** A required unsigned 64-bit integer (BigInt). */
export function uint64Field(obj, name) {
  return intOf(field(obj, name).v, `key ${name} (unsigned 64-bit integer)`, 0n, UINT64_MAX);
}

/** A required string. */
export function stringField(obj, name) {
  const f = field(obj, name);
  if (typeof f.v !== 'string') throw new JSONError(`cannot unmarshal ${kindOf(f.v)} into field ${name} of type string`);
  return f.v;
}

/** A required array of integers (BigInt), signed 64-bit or unsigned. */
export function intArrayField(obj, name, unsigned = false) {
  const f = field(obj, name);
  if (!Array.isArray(f.v)) throw new JSONError(`cannot unmarshal ${kindOf(f.v)} into field ${name} of type array`);
  const what = `field ${name} element of type ${unsigned ? 'uint64' : 'int'}`;
  return f.v.map((e) => (unsigned ? intOf(e, what, 0n, UINT64_MAX) : intOf(e, what, INT64_MIN, INT64_MAX)));
}
