// Runs the project-wide conformance kits (format/testdata/conformance and
// format/testdata/conformance-zero-aware, index.json, described in their
// README.md) against the JavaScript reader. In the zero-aware kit every
// rank is a zero-aware index (SPEC.md 11.2).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readBytes, UnsolvableError } from '../tilepdb.mjs';
import { positions } from '../rank.mjs';

/** Class of an error thrown by the reader: its .kind, or 'other: ...'. */
export function classOf(e) {
  return e && ['format', 'checksum', 'unsupported', 'unsupported-version'].includes(e.kind) ? e.kind : `other: ${e && e.stack}`;
}

/** Checks every file of the kit in dir (at least minFiles); returns the number of files. */
export async function runConformance(dir, minFiles = 11) {
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8'));
  assert.equal(index.kit_version, 1, 'kit_version');
  assert.ok(index.files.length >= minFiles, `${index.files.length} files in ${dir}`);
  for (const f of index.files) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, f.file)));
    let t;
    let err;
    try {
      t = await readBytes(bytes);
    } catch (e) {
      err = e;
    }
    if (f.expect === 'error') {
      assert.ok(err, `${f.file}: accepted, want a ${f.error} error (${f.description})`);
      assert.equal(classOf(err), f.error, `${f.file}: ${f.description}: ${err.message}`);
      continue;
    }
    assert.ok(!err, `${f.file}: ${err && err.message}`);
    const want = f.table;
    assert.equal(`${t.version[0]}.${t.version[1]}`, want.format, `${f.file} format`);
    assert.equal(t.pattern.w, want.width);
    assert.equal(t.pattern.h, want.height);
    assert.deepEqual(Array.from(t.pattern.goal), want.goal, `${f.file} goal`);
    assert.deepEqual(Array.from(t.pattern.tiles), want.tiles, `${f.file} tiles`);
    assert.equal(t.zeroAware ? 'zero-aware' : t.pattern.kind, want.kind, `${f.file} kind`);
    assert.equal(t.header.kind, want.kind, `${f.file} header kind`);
    if (want.encoding !== undefined) assert.equal(t.encoding, want.encoding, `${f.file} encoding`);
    assert.equal(t.header.entries, want.entries);
    assert.equal(t.header.max_value, want.max_value);
    assert.equal(t.header.raw_sha256, want.raw_sha256);
    for (const { rank, value } of f.ranks) assert.equal(t.values[rank], value, `${f.file} rank ${rank}`);
    for (const { board, rank, value } of f.boards) {
      const index = t.zeroAware ? t.regions.index(positions(board)) : t.pattern.rank(positions(board));
      assert.equal(index, rank, `${f.file} board ${board}`);
      assert.equal(t.value(positions(board)), value, `${f.file} board ${board}`);
      // the checked lookup answers the goal's parity class, else throws UnsolvableError (format.Set.Lookup)
      if (t.pattern.solvablePositions(positions(board))) assert.equal(t.lookup(board), value, `${f.file} board ${board}`);
      else assert.throws(() => t.lookup(board), UnsolvableError, `${f.file} board ${board}`);
    }
  }
  return index.files.length;
}
