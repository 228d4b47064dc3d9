// Shared paths and small helpers for the tests.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
/** Repository root. */
export const root = path.resolve(here, '..', '..', '..');
export const kitDir = path.join(root, 'readers', 'testdata', 'kit');
/** The project-wide conformance kit (format/testdata/conformance/), once merged. */
export const conformanceDir = process.env.TILEPDB_CONFORMANCE_DIR || path.join(root, 'format', 'testdata', 'conformance');
export const dataDir = path.join(root, 'data');

/** Non-comment, non-empty lines of a TSV file, split on tabs. */
export function tsv(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
}

/** The fenced block between <!-- NAME:begin ... --> and <!-- NAME:end --> in SPEC.md. */
export function specBlock(name) {
  const spec = fs.readFileSync(path.join(root, 'format', 'SPEC.md'), 'utf8');
  const m = new RegExp(`<!-- ${name}:begin[^>]*-->\\n\`\`\`\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(spec);
  if (!m) throw new Error(`SPEC.md has no ${name} block`);
  return m[1];
}

export function goalFor(name, n) {
  if (name === 'blank-last') return Array.from({ length: n }, (_, i) => (i + 1) % n);
  if (name === 'blank-first') return Array.from({ length: n }, (_, i) => i);
  return name.split(' ').map(Number);
}
