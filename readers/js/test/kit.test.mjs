// Every file of the readers' kit (readers/testdata/kit) and, once merged, of
// the project-wide conformance kit (format/testdata/conformance) is read and
// gives the expected result: ok or the error class the spec names.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readFile, readBytes, FormatError } from '../tilepdb.mjs';
import { kitDir, conformanceDir, tsv } from './helpers.mjs';
import { classOf, runConformance } from './conformance.mjs';

async function outcome(file) {
  try {
    await readFile(file);
    return 'ok';
  } catch (e) {
    return classOf(e);
  }
}

test('readers kit: every file gives its expected class', async () => {
  const rows = tsv(path.join(kitDir, 'index.tsv'));
  assert.ok(rows.length >= 40);
  for (const [name, want] of rows) {
    assert.equal(await outcome(path.join(kitDir, name)), want, name);
  }
});

test('readers kit: every truncation of a good file is a format error, never a crash', async () => {
  const b = fs.readFileSync(path.join(kitDir, 'good-additive.pdb'));
  for (let n = 0; n < b.length; n++) {
    await assert.rejects(readBytes(b.subarray(0, n)), FormatError, `length ${n}`);
  }
});

test('readers kit: single-bit flips are rejected with a class, or leave the table intact', async () => {
  const b = fs.readFileSync(path.join(kitDir, 'good-additive.pdb'));
  const good = await readBytes(b);
  for (let i = 0; i < b.length; i++) {
    const c = Uint8Array.from(b);
    c[i] ^= 1 << (i % 8);
    try {
      const t = await readBytes(c);
      assert.deepEqual(t.values, good.values, `byte ${i} changed the table silently`);
    } catch (e) {
      assert.ok(!classOf(e).startsWith('other'), `byte ${i}: ${e}`);
    }
  }
});

test('conformance kit (format/testdata/conformance)', {
  skip: fs.existsSync(path.join(conformanceDir, 'index.json')) ? false : `${conformanceDir}/index.json is not in this tree yet (it lands with format 2; TILEPDB_CONFORMANCE_DIR points elsewhere); the readers kit above stands in`,
}, async () => {
  const n = await runConformance(conformanceDir);
  assert.ok(n > 40);
});

// bigTable builds (in memory) a well-formed format 1.0 file whose table is
// too large to hold: side x side (default 5x5), `tiles` tiles, frames of
// 2^26 entries whose zstd frame headers are valid (the rest of each frame
// is never reached).
export function bigTable(tiles, sha256hex, side = 5) {
  const n = side * side;
  let entries = 1n;
  for (let i = 0; i < tiles; i++) entries *= BigInt(n - i);
  const S = 1n << 26n;
  const nf = Number((entries + S - 1n) / S);
  const frames = [];
  const sizes = [];
  for (let i = 0; i < nf; i++) {
    const raw = i < nf - 1 ? S : entries - S * BigInt(nf - 1);
    const len = 10 + 4 * Math.ceil(Number(raw) / 131072);
    const f = new Uint8Array(len);
    f.set([0x28, 0xb5, 0x2f, 0xfd, 0xe4]);
    new DataView(f.buffer).setBigUint64(5, raw, true);
    frames.push(f);
    sizes.push(len);
  }
  const json = `{"width":${side},"height":${side},"goal":[${Array.from({ length: n }, (_, i) => (i + 1) % n)}],"goal_name":"blank-last","tiles":[${Array.from({ length: tiles }, (_, i) => i + 1)}],"kind":"additive","ranking":"cellset-order","ranking_version":1,"entries":${entries},"bits_per_entry":8,"max_value":0,"histogram":[${entries}],"raw_sha256":"${'0'.repeat(64)}","generator":"test","frame_size":${S},"frames":[${sizes}]}`;
  const hb = new TextEncoder().encode(json);
  const pre = new Uint8Array(16 + hb.length);
  pre.set(new TextEncoder().encode('TILEPDB\x1a'));
  new DataView(pre.buffer).setUint16(8, 1, true);
  new DataView(pre.buffer).setUint32(12, hb.length, true);
  pre.set(hb, 16);
  const sum = sha256hex(pre);
  const total = pre.length + 32 + sizes.reduce((a, b) => a + b, 0);
  const out = new Uint8Array(total);
  out.set(pre);
  out.set(sum, pre.length);
  let o = pre.length + 32;
  for (const f of frames) {
    out.set(f, o);
    o += f.length;
  }
  return out;
}

test('a table larger than one typed array is refused with a LimitError naming the limit (5x5, 8 tiles: 43,609,104,000 entries)', async () => {
  const { createHash } = await import('node:crypto');
  const { LimitError, MAX_TABLE_BYTES } = await import('../tilepdb.mjs');
  const file = bigTable(8, (b) => createHash('sha256').update(b).digest());
  await assert.rejects(readBytes(file), (e) => e instanceof LimitError && e.message.includes(String(MAX_TABLE_BYTES)) && e.message.includes('43609104000'));
});

test('a 6-tile table of the 48-puzzle (7x7: 10,068,347,520 entries) is refused with a LimitError, not an allocation', async () => {
  const { createHash } = await import('node:crypto');
  const { LimitError } = await import('../tilepdb.mjs');
  const file = bigTable(6, (b) => createHash('sha256').update(b).digest(), 7);
  await assert.rejects(readBytes(file), (e) => e instanceof LimitError && e.message.includes('10068347520'));
});

test('a header nested 100,000 deep in an unknown key is one format error, not a crash', async () => {
  const { createHash } = await import('node:crypto');
  const b = fs.readFileSync(path.join(kitDir, 'good-additive.pdb'));
  const n = b.readUInt32LE(12);
  const js = Buffer.from(b.subarray(16, 16 + n).toString().replace('{', `{"x":${'['.repeat(100000)}${']'.repeat(100000)},`));
  const pre = Buffer.from(b.subarray(0, 16));
  pre.writeUInt32LE(js.length, 12);
  const signed = Buffer.concat([pre, js]);
  const file = Buffer.concat([signed, createHash('sha256').update(signed).digest(), b.subarray(48 + n)]);
  await assert.rejects(readBytes(new Uint8Array(file)), (e) => e instanceof FormatError && /^tilepdb: invalid table file at byte 16: header JSON: (nested too deeply|JSON nested deeper than 10000 levels at byte \d+)$/.test(e.message));
});
