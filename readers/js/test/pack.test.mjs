// What npm users get: `npm pack` makes the tarball, a fresh project in a
// temporary folder installs it (its dependency fzstd from npm's cache when
// `npm ci` filled it: --prefer-offline) and imports the package by name,
// each subpath of the exports map, the command line from node_modules/.bin,
// and checks that files outside the exports map and the `files` list stay
// out. Skipped when npm is not on PATH.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { here, kitDir } from './helpers.mjs';

const pkgDir = path.join(here, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const npmCmd = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const noNpm = spawnSync(npmCmd, ['--version'], { shell: process.platform === 'win32' }).status === 0 ? false : 'npm is not on PATH';

function sh(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', shell: process.platform === 'win32', env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test('npm pack: the tarball installs in a fresh project and imports by name', { skip: noNpm, timeout: 300000 }, (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tilepdb-pack-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const [packed] = JSON.parse(sh(npmCmd, ['pack', '--json', '--pack-destination', tmp], pkgDir));
  const files = packed.files.map((f) => f.path).sort();
  for (const want of ['package.json', 'README.md', 'LICENSE', 'tilepdb.mjs', 'tilepdb.d.ts', 'solver.mjs', 'solver.d.ts', 'rank.d.ts', 'board.d.ts', 'cli.mjs']) {
    assert.ok(files.includes(want), `the tarball lacks ${want}: ${files.join(' ')}`);
  }
  for (const f of files) assert.ok(!f.startsWith('test/') && !f.startsWith('node_modules/') && f !== 'bench.mjs', `the tarball holds ${f}`);
  // every declared entry point and types file is in the tarball
  for (const target of Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))) {
    assert.ok(files.includes(target.replace(/^\.\//, '')), `exports names ${target}, not in the tarball`);
  }

  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
  sh(npmCmd, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(tmp, packed.filename)], app);

  const exact = path.join(kitDir, 'good-exact.pdb'); // 3x2, blank-last, exact
  fs.writeFileSync(
    path.join(app, 'check.mjs'),
    `import { readFile, TableSet, FormatError } from 'tilepdb';
import { Solver, applyMoves } from 'tilepdb/solver';
import { Pattern } from 'tilepdb/rank';
import { parseBoard } from 'tilepdb/board';
import meta from 'tilepdb/package.json' with { type: 'json' };
const t = await readFile(${JSON.stringify(exact)});
const board = parseBoard('1 2 3 4 0 5', 6).board;
const sol = new Solver([t]).solve(board);
let deep = 'importable';
try { await import('tilepdb/values.mjs'); } catch (e) { deep = e.code; }
console.log(JSON.stringify({
  name: meta.name,
  lookup: t.lookup(board),
  set: new TableSet([t]).lookup(board),
  pattern: String(new Pattern(3, 2, [1, 2, 3, 4, 5, 0], [1, 2])),
  moves: sol.moves,
  end: Array.from(applyMoves(board, 3, sol.moves)).join(' '),
  formatError: typeof FormatError,
  deep,
}));
`,
  );
  const got = JSON.parse(sh(process.execPath, ['check.mjs'], app));
  assert.deepEqual(got, {
    name: pkg.name,
    lookup: 1,
    set: 1,
    pattern: '3x2 blank-last tiles 1,2',
    moves: 'r',
    end: '1 2 3 4 5 0',
    formatError: 'function',
    deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
  });

  const bin = path.join(app, 'node_modules', '.bin', process.platform === 'win32' ? 'tilepdb-js.cmd' : 'tilepdb-js');
  assert.match(sh(bin, ['verify', exact], app), /: ok \(3x2 blank-last exact/);
});
