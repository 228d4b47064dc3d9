import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { xxh64Hex, xxh64Low32 } from '../xxh64.mjs';
import { here, tsv } from './helpers.mjs';

test('XXH64 against xxhsum 0.8.1 vectors (every tail length 0..71, longer inputs)', () => {
  const rows = tsv(path.join(here, 'testdata', 'xxh64.tsv'));
  assert.ok(rows.length > 70);
  for (const [len, want] of rows) {
    const b = new Uint8Array(Number(len));
    for (let i = 0; i < b.length; i++) b[i] = (i * 131 + (i >> 8) * 17 + 7) & 255;
    assert.equal(xxh64Hex(b), want, `length ${len}`);
    assert.equal(xxh64Low32(b), parseInt(want.slice(8), 16) >>> 0);
  }
});

test('XXH64 published values', () => {
  const enc = (s) => new TextEncoder().encode(s);
  assert.equal(xxh64Hex(enc('')), 'ef46db3751d8e999');
  assert.equal(xxh64Hex(enc('a')), 'd24ec4f1a98c6e5b');
  assert.equal(xxh64Hex(enc('abc')), '44bc2cf5ad770999');
});

test('XXH64 of a subarray hashes only the view', () => {
  const b = new Uint8Array(100).map((_, i) => i);
  assert.equal(xxh64Hex(b.subarray(10, 60)), xxh64Hex(b.slice(10, 60)));
});
