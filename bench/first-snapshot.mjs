// The first change in a fresh npm project: a project of 60 source files beside a node_modules of
// 10,000 files and no .gitignore (what `npm init -y && npm install ...` leaves). Timed from opening
// the workspace to the first write_file's envelope, its snapshot included, with node_modules left
// out (the default) and kept (`snapshots: { exclude: [] }`, what Sandpit did before), beside
// `git add -A && git commit` on the same folder. Target: under 1 s with the default. Needs
// `npm run build`. Run alone with `node bench/first-snapshot.mjs`, or import benchFirstSnapshot().
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNodeWorkspace } from '../dist/node/index.js';
import { fmtMs, table } from './measure.mjs';

const MODULE_FILES = 10_000;
const PACKAGES = 400;
const SOURCE_FILES = 60;
const RUNS = 3;

async function makeProject() {
  const root = await mkdtemp(join(tmpdir(), 'sandpit-bench-npm-'));
  await writeFile(join(root, 'package.json'), '{ "name": "app", "version": "1.0.0" }\n');
  for (let i = 0; i < SOURCE_FILES; i++) {
    await mkdir(join(root, 'src', `m${i % 6}`), { recursive: true });
    await writeFile(join(root, 'src', `m${i % 6}`, `f${i}.js`), `export const v${i} = ${i};\n`.repeat(20));
  }
  for (let i = 0; i < MODULE_FILES; i++) {
    const dir = join(root, 'node_modules', `pkg-${i % PACKAGES}`, i % 3 ? 'lib' : 'dist');
    if (i < PACKAGES * 2) await mkdir(dir, { recursive: true });
    else if (!existsSync(dir)) await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `file-${i}.js`), `module.exports = ${i};\n`.repeat(25));
  }
  return root;
}

/** One run: open, write one file, answer; the snapshot is part of the call. */
async function firstWrite(root, snapshots) {
  await rm(join(root, '.sandpit'), { recursive: true, force: true });
  const t = performance.now();
  const ws = openNodeWorkspace(root, { sandbox: 'none', ...(snapshots ? { snapshots } : {}) });
  const r = await ws.call('write_file', { path: 'src/new.js', content: 'export const n = 1;\n' });
  const ms = performance.now() - t;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const listed = await ws.call('snapshot', {});
  await ws.close();
  await rm(join(root, 'src', 'new.js'), { force: true });
  return { ms, skipped: listed.ok ? listed.result.skipped.length : -1 };
}

function gitFirstCommit(root) {
  const gitdir = join(root, '.bench-git');
  spawnSync('git', ['init', '-q', '--bare', gitdir], { stdio: 'ignore' });
  spawnSync('git', ['--git-dir', gitdir, 'config', 'core.bare', 'false'], { stdio: 'ignore' });
  spawnSync('git', ['--git-dir', gitdir, 'config', 'gc.auto', '0'], { stdio: 'ignore' });
  const env = {
    ...process.env,
    GIT_DIR: gitdir,
    GIT_WORK_TREE: root,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@x',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@x',
  };
  const t = performance.now();
  const r = spawnSync(
    'sh',
    ['-c', 'printf \'.sandpit\\n.bench-git\\n\' > "$GIT_DIR/info/exclude"; git add -A && git commit -q -m first'],
    { cwd: root, env, stdio: 'ignore' },
  );
  const ms = performance.now() - t;
  spawnSync('rm', ['-rf', gitdir]);
  if (r.status !== 0) throw new Error('git commit failed');
  return ms;
}

const medianOf = async (fn) => {
  const all = [];
  for (let i = 0; i < RUNS; i++) all.push(await fn());
  all.sort((a, b) => (a.ms ?? a) - (b.ms ?? b));
  return all[Math.floor(all.length / 2)];
};

export async function benchFirstSnapshot() {
  const root = await makeProject();
  try {
    const skipping = await medianOf(() => firstWrite(root, null));
    const keeping = await medianOf(() => firstWrite(root, { exclude: [] }));
    const git = await medianOf(async () => gitFirstCommit(root));
    const met = skipping.ms < 1000 ? 'met' : 'not met';
    return table(
      `First change in a fresh npm project: ${SOURCE_FILES} source files, node_modules of ${MODULE_FILES.toLocaleString('en-US')} files, no .gitignore (median of ${RUNS})`,
      ['system', 'open + first write_file, snapshot included', 'target', ''],
      [
        [
          `Sandpit, node_modules left out (default; ${skipping.skipped} folder listed as skipped)`,
          fmtMs(skipping.ms),
          'under 1 s',
          met,
        ],
        ['Sandpit, every folder kept (`snapshots: { exclude: [] }`, the old behaviour)', fmtMs(keeping.ms), '', ''],
        ['git CLI add -A && commit, no .gitignore', fmtMs(git), '', ''],
      ],
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchFirstSnapshot());
