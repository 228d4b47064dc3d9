// A strict JSON parser (RFC 8259) that keeps numbers exact, for the header
// of a table file: JSON.parse would round integers above 2^53 (entries and
// histogram counts are unsigned 64-bit). It applies the JSON rules of
// SPEC.md section 2: white space is space, tab, CR and LF; a key occurs at
// most once in an object; keys match byte for byte (case-sensitively);
// required keys must be present and not null; integers have no fraction or
// exponent and lie in their type's range. (The caller checks UTF-8 and the
// byte-order mark on the bytes.) No dependencies.

/** JSON syntax or type error; message says what and where. */
export class JSONError extends Error {}

const MAX_DEPTH = 10000;

/**
 * Parses text (a string). Objects become Maps (key -> value), arrays
 * Arrays, strings strings, true/false booleans, null null, and numbers
 * { num: 'literal' } so that callers convert them exactly.
 */
export function parseJSON(text) {
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
    throw new JSONError(`${what} at offset ${i}`);
  };
  const value = (depth) => {
    if (depth > MAX_DEPTH) fail('exceeded max depth');
    ws();
    if (i >= n) fail('unexpected end of JSON input');
    const c = text[i];
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
        if (m.has(k)) fail(`duplicate key ${JSON.stringify(k)}`);
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
    if (!m || m[0].length === 0) fail(`invalid character ${JSON.stringify(c)} looking for beginning of value`);
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
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
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
  if (b < lo || b > hi) throw new JSONError(`cannot unmarshal number ${v.num} into ${what}`);
  return b;
}

function kindOf(v) {
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
