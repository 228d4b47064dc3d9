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
