// Randomized robustness (deterministic seeds): mutated good files must be
// rejected with one of the four error classes of SPEC.md section 3, or read
// to the same table; never a crash, a hang or another exception. Header
// mutations are re-signed (and, in format 2, payload mutations get a new
// payload_sha256) so that they reach the JSON, sanity, zstd and code checks.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { readBytes } from '../tilepdb.mjs';
import { kitDir, conformanceDir } from './helpers.mjs';
import { classOf } from './conformance.mjs';

const sha = (b) => createHash('sha256').update(b).digest();
const goodFiles = ['good-additive.pdb', 'good-exact.pdb', 'good-v2-additive.pdb', 'good-v2-exact.pdb', 'good-multiframe.pdb'].map((f) => path.join(kitDir, f));
// boards past 5x5 (cell sets past cell 31), from the conformance kit when it is there
for (const f of ['v2-additive-6x6.pdb', 'v2-additive-7x7-frames.pdb']) {
  if (fs.existsSync(path.join(conformanceDir, f))) goodFiles.push(path.join(conformanceDir, f));
}
// zero-aware tables (SPEC.md section 11), formats 1 and 2, frames that start inside a block of S entries
const zaDir = path.join(conformanceDir, '..', 'conformance-zero-aware');
for (const f of ['v1-zero-aware-3x3.pdb', 'v2-zero-aware-4x3-frames.pdb']) {
  if (fs.existsSync(path.join(zaDir, f))) goodFiles.push(path.join(zaDir, f));
}

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function split(b) {
  const n = Buffer.from(b).readUInt32LE(12);
  return { major: b[8], json: Buffer.from(b.subarray(16, 16 + n)), payload: b.subarray(48 + n) };
}

function assemble(major, json, payload) {
  const pre = Buffer.alloc(16);
  pre.write('TILEPDB\x1a', 'latin1');
  pre.writeUInt16LE(major, 8);
  pre.writeUInt32LE(json.length, 12);
  const signed = Buffer.concat([pre, json]);
  return new Uint8Array(Buffer.concat([signed, sha(signed), payload]));
}

async function outcome(bytes, good) {
  try {
    const t = await readBytes(bytes);
    return Buffer.compare(Buffer.from(t.values), Buffer.from(good.values)) === 0 ? 'same' : 'changed';
  } catch (e) {
    return classOf(e);
  }
}

const classes = new Set(['format', 'checksum', 'unsupported', 'unsupported-version']);

for (const file of goodFiles) {
  const name = path.basename(file);
  test(`fuzz ${name}: truncations, bit flips, re-signed header and payload mutations`, async () => {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const good = await readBytes(bytes);
    for (let n = 0; n < bytes.length; n += Math.max(1, Math.floor(bytes.length / 300))) {
      assert.equal(await outcome(bytes.subarray(0, n), good), 'format', `truncated to ${n}`);
    }
    const rnd = rng(name.length * 7919);
    const seen = new Map();
    const note = (o, what) => {
      assert.ok(classes.has(o) || o === 'same', `${what}: ${o}`);
      seen.set(o, (seen.get(o) || 0) + 1);
    };
    for (let i = 0; i < 400; i++) {
      const c = Uint8Array.from(bytes);
      const at = Math.floor(rnd() * c.length);
      c[at] ^= 1 << Math.floor(rnd() * 8);
      note(await outcome(c, good), `bit flip at ${at}`);
    }
    const { major, json, payload } = split(bytes);
    const alphabet = Buffer.from('{}[]",:-.0123456789eE aznulltrue\\\t\n\u00ff\u00ef\u00bb');
    for (let i = 0; i < 600; i++) {
      let j = Buffer.from(json);
      const k = Math.floor(rnd() * j.length);
      switch (Math.floor(rnd() * 4)) {
        case 0: j = Buffer.concat([j.subarray(0, k), j.subarray(k + 1)]); break;
        case 1: j = Buffer.concat([j.subarray(0, k), Buffer.from([alphabet[Math.floor(rnd() * alphabet.length)]]), j.subarray(k)]); break;
        case 2: j[k] = alphabet[Math.floor(rnd() * alphabet.length)]; break;
        default: {
          // replace a number by another, possibly huge or negative
          const s = j.toString('latin1').replace(/\d+/g, (m) => (rnd() < 0.15 ? pickNumber(rnd) : m));
          j = Buffer.from(s, 'latin1');
        }
      }
      note(await outcome(assemble(major, j, payload), good), `header mutation ${i}: ${j.toString('latin1').slice(0, 60)}`);
    }
    for (let i = 0; i < 300; i++) {
      const p = Uint8Array.from(payload);
      const at = Math.floor(rnd() * p.length);
      p[at] = Math.floor(rnd() * 256);
      let j = json;
      if (major >= 2) j = Buffer.from(json.toString('utf8').replace(/"payload_sha256":"[0-9a-f]{64}"/, `"payload_sha256":"${sha(p).toString('hex')}"`));
      note(await outcome(assemble(major, j, p), good), `payload byte ${at}`);
    }
    assert.ok(seen.size >= 2, `mutations reached several outcomes: ${[...seen]}`);
  });
}

function pickNumber(rnd) {
  return ['0', '-1', '18446744073709551616', '9223372036854775808', '99999999999', '1', '255', '2', '8', '9', '64'][Math.floor(rnd() * 11)];
}
