// Regenerates readers/testdata/kit/: small good and deliberately broken
// table files (format 1.0) with the error class a strict reader must give
// (index.tsv), shared by the JavaScript and Java readers' tests until the
// project-wide conformance kit (format/testdata/conformance/) lands, and
// checked against the Go reader by scripts/check-readers.sh.
//
//   cd repo && bin/pdbgen build --board 3x3 --tiles 1,2,3 -o /tmp/kitsrc
//   bin/pdbgen build --board 3x2 --tiles 1-5 -o /tmp/kitsrc
//   bin/pdbgen build --preset 15-663 -o data   (for 15-663_2-3-4.pdb)
//   (format 1.0 tables, pdbgen before 0.2 or --format 1; and the first two in format 2.0:)
//   bin/pdbgen build --format 2 --board 3x3 --tiles 1,2,3 -o /tmp/kitsrc/v2 (and 3x2 tiles 1-5)
//   node readers/testdata/make-kit.mjs /tmp/kitsrc/3x3_1-2-3.pdb /tmp/kitsrc/3x2.pdb data/15-663_2-3-4.pdb \
//        /tmp/kitsrc/v2/3x3_1-2-3.pdb /tmp/kitsrc/v2/3x2.pdb
//
// Needs the zstd command (Debian package zstd) to re-compress frames.

import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { decompress } from '../js/node_modules/fzstd/esm/index.mjs'; // npm ci in readers/js first

const [base, exact, multi, v2additive, v2exact] = process.argv.slice(2);
const out = path.join(path.dirname(new URL(import.meta.url).pathname), 'kit');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const sha = (b) => createHash('sha256').update(b).digest();

// parse splits a file into its parts.
function parse(buf) {
  const n = buf.readUInt32LE(12);
  const json = buf.subarray(16, 16 + n).toString('utf8');
  const h = JSON.parse(json);
  const payload = buf.subarray(48 + n);
  const frames = [];
  let off = 0;
  for (const c of h.frames) {
    frames.push(payload.subarray(off, off + c));
    off += c;
  }
  return { prefix: buf.subarray(0, 16), json, h, frames };
}

// assemble builds a file: prefix fields, header text (signed), frames.
function assemble({ major = 1, minor = 0, json, frames, sign = true, lenOverride }) {
  const hb = Buffer.from(json, 'utf8');
  const pre = Buffer.alloc(16);
  Buffer.from('TILEPDB\x1a', 'latin1').copy(pre, 0);
  pre.writeUInt16LE(major, 8);
  pre.writeUInt16LE(minor, 10);
  pre.writeUInt32LE(lenOverride ?? hb.length, 12);
  const signed = Buffer.concat([pre, hb]);
  let sum = sha(signed);
  if (!sign) sum = Buffer.from(sum.map((x, i) => (i === 0 ? x ^ 1 : x)));
  return Buffer.concat([signed, sum, ...frames]);
}

function zstdFrame(raw) {
  return execFileSync('zstd', ['-q', '-c', '--check', '-19', '--no-progress', `--stream-size=${raw.length}`], { input: raw });
}

const index = [];
function check(ok, msg) {
  if (!ok) throw new Error(msg);
}
function emit(name, expect, what, bytes) {
  fs.writeFileSync(path.join(out, name), bytes);
  index.push([name, expect, what]);
}

const b = fs.readFileSync(base);
const P = parse(b);
const raw = Buffer.from(decompress(Buffer.concat(P.frames)));
const withHeader = (edit, extra = {}) => {
  const h = JSON.parse(P.json);
  edit(h);
  return assemble({ json: JSON.stringify(h), frames: P.frames, ...extra });
};
const rawSha = (r) => sha(r).toString('hex');

// Good files.
emit('good-additive.pdb', 'ok', '3x3 blank-last tiles 1,2,3 as pdbgen writes it', b);
emit('good-exact.pdb', 'ok', '3x2 exact table as pdbgen writes it', fs.readFileSync(exact));
{
  const m = parse(fs.readFileSync(multi));
  const mraw = Buffer.from(decompress(Buffer.concat(m.frames)));
  const fsz = 1024;
  const frames = [];
  for (let lo = 0; lo < mraw.length; lo += fsz) frames.push(zstdFrame(mraw.subarray(lo, lo + fsz)));
  const h = JSON.parse(m.json);
  h.frame_size = fsz;
  h.frames = frames.map((f) => f.length);
  h.generator = 'tilepdb readers/testdata/make-kit.mjs (zstd CLI frames)';
  emit('good-multiframe.pdb', 'ok', '15-663 tiles 2,3,4 in 1024-byte frames compressed by the zstd CLI', assemble({ json: JSON.stringify(h), frames }));
}
if (v2additive) {
  emit('good-v2-additive.pdb', 'ok', 'format 2.0 (manhattan-half-4bit) of good-additive.pdb, as pdbgen 0.2 writes it', fs.readFileSync(v2additive));
  emit('good-v2-exact.pdb', 'ok', 'format 2.0 (manhattan-half-4bit) of good-exact.pdb, as pdbgen 0.2 writes it', fs.readFileSync(v2exact));
}
emit('good-minor.pdb', 'ok', 'minor version 7 with an unknown key (minor versions only add keys)', withHeader((h) => (h.added_in_1_7 = { x: [1, 2], y: null }), { minor: 7 }));
emit('bad-json-duplicate.pdb', 'format', 'key "kind" twice', assemble({ json: P.json.replace('"kind":', '"kind":"additive","kind":'), frames: P.frames }));
emit('bad-json-case.pdb', 'format', 'key "Tiles" for "tiles" (keys are case-sensitive: tiles is missing)', assemble({ json: P.json.replace('"tiles":', '"Tiles":'), frames: P.frames }));
emit('bad-json-null.pdb', 'format', 'generator null', withHeader((h) => (h.generator = null)));
emit('bad-json-missing.pdb', 'format', 'no frame_size key', withHeader((h) => delete h.frame_size));
{
  const h = JSON.parse(P.json);
  const keys = Object.keys(h).reverse();
  const json = ' {\n' + keys.map((k) => `  ${JSON.stringify(k)} : ${JSON.stringify(h[k])}`).join(',\n') + '\n}\n';
  emit('good-reordered.pdb', 'ok', 'header keys in reverse order with white space', assemble({ json, frames: P.frames }));
}

// SPEC.md section 2, JSON rules: -0 is the integer 0 in a signed key; a
// \u escape of a lone surrogate and a byte-order mark are refused.
emit('good-minus-zero.pdb', 'ok', 'the goal\'s blank written -0 (an integer without fraction or exponent)', assemble({ json: P.json.replace(/("goal":\[[0-9,]*),0\]/, '$1,-0]'), frames: P.frames }));
emit('bad-json-surrogate.pdb', 'format', 'generator holds a \\u escape of a lone surrogate (\\ud800)', assemble({ json: P.json.replace(/"generator":"[^"]*"/, '"generator":"\\ud800"'), frames: P.frames }));
emit('bad-json-bom.pdb', 'format', 'header JSON starts with a byte-order mark', assemble({ json: '\ufeff' + P.json, frames: P.frames }));
// Broken: fixed prefix.
emit('bad-empty.pdb', 'format', 'empty file', Buffer.alloc(0));
emit('bad-magic.pdb', 'format', 'magic TILEPDX', Buffer.concat([Buffer.from('TILEPDX\x1a', 'latin1'), b.subarray(8)]));
emit('bad-short-prefix.pdb', 'format', 'file of 10 bytes', b.subarray(0, 10));
// SPEC.md section 3, step 1: the major version decides once bytes 8-11 are there.
emit('bad-short-major3-10.pdb', 'format', 'major version 3 in a file of 10 bytes (truncated before the minor version)', assemble({ major: 3, json: P.json, frames: P.frames }).subarray(0, 10));
emit('bad-short-major3-12.pdb', 'unsupported-version', 'major version 3 in a file of 12 bytes (versions complete, the rest missing)', assemble({ major: 3, json: P.json, frames: P.frames }).subarray(0, 12));
emit('bad-short-15.pdb', 'format', 'file of 15 bytes, major version 1', b.subarray(0, 15));
emit('bad-major3.pdb', 'unsupported-version', 'major version 3', assemble({ major: 3, json: P.json, frames: P.frames }));
emit('bad-major0.pdb', 'unsupported-version', 'major version 0', assemble({ major: 0, json: P.json, frames: P.frames }));
emit('bad-major2-v1-header.pdb', 'format', 'major version 2 with a format 1.0 header (no encoding, payload_sha256)', assemble({ major: 2, json: P.json, frames: P.frames }));
emit('bad-header-len-limit.pdb', 'format', 'header length 16 MiB + 1', assemble({ json: P.json, frames: P.frames, lenOverride: (16 << 20) + 1 }));
emit('bad-header-len-file.pdb', 'format', 'header length beyond the file size', assemble({ json: P.json, frames: P.frames, lenOverride: 100000 }));
emit('bad-header-sha.pdb', 'checksum', 'header checksum altered', assemble({ json: P.json, frames: P.frames, sign: false }));
// Broken: header JSON.
emit('bad-json-syntax.pdb', 'format', 'header JSON with a trailing comma', assemble({ json: P.json.replace(/}$/, ',}'), frames: P.frames }));
emit('bad-json-array.pdb', 'format', 'header is a JSON array', assemble({ json: '[' + P.json + ']', frames: P.frames }));
emit('bad-json-type.pdb', 'format', 'width is a string', withHeader((h) => (h.width = '3')));
emit('bad-json-fraction.pdb', 'format', 'entries is 504.0', assemble({ json: P.json.replace('"entries":504', '"entries":504.0'), frames: P.frames }));
// Broken: header sanity.
emit('bad-width.pdb', 'format', 'width 9', withHeader((h) => (h.width = 9)));
emit('bad-goal.pdb', 'format', 'goal holds tile 1 twice', withHeader((h) => (h.goal[1] = 1)));
emit('bad-tiles-order.pdb', 'format', 'tiles not ascending', withHeader((h) => (h.tiles = [2, 1, 3])));
emit('bad-kind.pdb', 'format', 'kind exact for 3 tiles', withHeader((h) => (h.kind = 'exact')));
emit('bad-ranking.pdb', 'format', 'ranking lehmer-half for an additive table', withHeader((h) => (h.ranking = 'lehmer-half')));
emit('bad-ranking-version.pdb', 'unsupported', 'ranking_version 2', withHeader((h) => (h.ranking_version = 2)));
emit('bad-entries.pdb', 'format', 'entries 505', withHeader((h) => (h.entries = 505)));
emit('bad-entries-huge.pdb', 'format', 'entries 2^64-1 (exact integer beyond 2^53)', assemble({ json: P.json.replace('"entries":504', '"entries":18446744073709551615'), frames: P.frames }));
emit('bad-entries-limit.pdb', 'format', '5x5 with tiles 1-9: N!/(N-k)! = 741354768000 entries, above the limit of 2^36', withHeader((h) => {
  Object.assign(h, { width: 5, height: 5, goal: [...Array.from({ length: 24 }, (_, i) => i + 1), 0], tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9], entries: 741354768000, max_value: 0, histogram: [741354768000] });
}));
emit('bad-bits.pdb', 'unsupported', 'bits_per_entry 4', withHeader((h) => (h.bits_per_entry = 4)));
emit('bad-goal-name.pdb', 'format', 'goal_name blank-first for a blank-last goal', withHeader((h) => (h.goal_name = 'blank-first')));
emit('bad-max-value.pdb', 'format', 'max_value 255', withHeader((h) => (h.max_value = 255)));
emit('bad-histogram-len.pdb', 'format', 'histogram one count short', withHeader((h) => h.histogram.pop()));
emit('bad-histogram-sum.pdb', 'format', 'histogram sums to entries+1', withHeader((h) => (h.histogram[0] += 1)));
emit('bad-histogram-overflow.pdb', 'format', 'histogram counts wrap around 2^64 to entries', assemble({
  json: P.json.replace(/"histogram":\[(\d+),(\d+)/, (_, a, c) => `"histogram":[${BigInt(a) + (1n << 63n)},${BigInt(c) + (1n << 63n)}`),
  frames: P.frames,
}));
emit('bad-raw-sha-syntax.pdb', 'format', 'raw_sha256 in upper case', withHeader((h) => (h.raw_sha256 = h.raw_sha256.toUpperCase())));
// Broken: layout.
emit('bad-frame-size.pdb', 'format', 'frame_size 512', withHeader((h) => (h.frame_size = 512)));
emit('bad-frame-count.pdb', 'format', 'two frames listed for one', withHeader((h) => h.frames.push(20)));
emit('bad-frame-small.pdb', 'format', 'frame listed as 13 bytes (below the minimum of 14)', withHeader((h) => (h.frames = [13])));
emit('bad-truncated.pdb', 'format', 'last byte missing', b.subarray(0, b.length - 1));
emit('bad-trailing.pdb', 'format', 'one trailing byte', Buffer.concat([b, Buffer.from([0])]));
// Broken: zstd frames.
const frame0 = P.frames[0];
const withFrame = (f, edit = () => {}) => withHeader((h) => {
  h.frames = [f.length];
  edit(h);
}, { frames: [f] });
emit('bad-frame-magic.pdb', 'format', 'zstd magic altered', withFrame(Buffer.concat([Buffer.from([0x29]), frame0.subarray(1)])));
emit('bad-frame-nochecksum.pdb', 'format', 'zstd frame without content checksum', withFrame(execFileSync('zstd', ['-q', '-c', '--no-check', `--stream-size=${raw.length}`], { input: raw })));
emit('bad-frame-dict-flag.pdb', 'format', 'zstd frame descriptor with a dictionary id flag', withFrame(Buffer.concat([frame0.subarray(0, 4), Buffer.from([frame0[4] | 1]), frame0.subarray(5)])));
{
  // SPEC.md section 1: a window larger than the smallest power of two >= max(S, 1024)
  // (here S = frame_size = 2^20): Single_Segment_flag cleared and a Window_Descriptor
  // of 2^23 bytes (exponent 13) inserted; the 2-byte Frame_Content_Size is unchanged.
  check(frame0[4] === 0x64, `frame header descriptor 0x${frame0[4].toString(16)}, want 0x64`);
  const f = Buffer.concat([frame0.subarray(0, 4), Buffer.from([0x44, 13 << 3]), frame0.subarray(5)]);
  emit('bad-frame-window.pdb', 'format', 'zstd frame whose window (8 MiB) exceeds the bound for frame_size 2^20', withFrame(f));
}
{
  const f = zstdFrame(raw.subarray(0, 503));
  emit('bad-frame-content-size.pdb', 'format', 'zstd frame of 503 bytes for a 504-byte table', withFrame(f));
}
{
  const f = Buffer.from(frame0);
  f[f.length - 1] ^= 0xff;
  emit('bad-frame-checksum.pdb', 'checksum', 'zstd content checksum altered', withFrame(f));
}
{
  const f = Buffer.concat([frame0, Buffer.from([0, 0, 0, 0])]);
  emit('bad-frame-extra.pdb', 'format', 'four bytes after the zstd frame inside its listed size', withFrame(f));
}
// Broken: content.
{
  const r = Buffer.from(raw);
  r[7] ^= 1;
  emit('bad-raw-sha.pdb', 'checksum', 'one table byte changed, frame re-compressed (raw_sha256 mismatch)', withFrame(zstdFrame(r)));
  const r2 = Buffer.from(raw);
  r2[100] = 255;
  emit('bad-reserved-255.pdb', 'format', 'an entry holds 255 (raw_sha256 updated)', withFrame(zstdFrame(r2), (h) => (h.raw_sha256 = rawSha(r2))));
  const r3 = Buffer.from(raw);
  const i = r3.indexOf(1);
  r3[i] = 2;
  emit('bad-histogram-recount.pdb', 'format', 'table differs from the histogram (raw_sha256 updated)', withFrame(zstdFrame(r3), (h) => (h.raw_sha256 = rawSha(r3))));
}

fs.writeFileSync(path.join(out, 'index.tsv'),
  '# readers kit: file\texpected (ok, or the error class of SPEC.md section 3: format, checksum, unsupported, unsupported-version)\twhat\n' +
  '# Generated by readers/testdata/make-kit.mjs; checked against pdbgen by scripts/check-readers.sh.\n' +
  index.map((r) => r.join('\t')).join('\n') + '\n');
console.log(`${index.length} files in ${out}`);
