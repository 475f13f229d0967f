// Fork and merge: the time to fork a workspace of 1,000 / 10,000 / 50,000 files and to merge 10
// changed files back, for Sandpit (memory backend, copy-on-write forks) and the git CLI on the same
// tree (`git worktree add`, then `git merge` of a branch with the same 10 changes). Needs
// `npm run build`. Run alone with `node bench/fork.mjs [--quick]`, or import benchFork().
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { fmtMs, fmtRatio, table } from './measure.mjs';

const CHANGED = 10;
const RUNS = 5;

const pathOf = (i) => `d${i % 500}/f${i}.txt`;
const body = (i) => Array.from({ length: 20 }, (_, l) => `line ${l} of file ${i}\n`).join('');

function git(cwd, ...args) {
  const r = spawnSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@x',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@x',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr}`);
}

function medianOf(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function sandpit(n) {
  const seed = {};
  for (let i = 0; i < n; i++) seed[`/ws/${pathOf(i)}`] = body(i);
  const ws = createWorkspace({ fs: createMemoryFs(seed), root: '/ws' });
  await ws.snapshots.open();
  const fork = [];
  const merge = [];
  for (let run = 0; run < RUNS; run++) {
    let f;
    fork.push(await timed(async () => (f = await ws.fork({ name: `f${run}` }))));
    for (let k = 0; k < CHANGED; k++) {
      const rel = pathOf(k * 37 + run);
      const r = await f.call('write_file', { path: rel, content: body(k).replace('line 3 ', `fork ${run} line 3 `) });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    }
    // the parent moved on too, in another file
    await ws.call('write_file', { path: pathOf(n - 1 - run), content: `parent ${run}\n` });
    let out;
    merge.push(await timed(async () => (out = await ws.merge(f))));
    if (!out.ok || out.result.files.length !== CHANGED) throw new Error(JSON.stringify(out));
    await ws.dropFork(f);
  }
  await ws.close();
  return { fork: medianOf(fork), merge: medianOf(merge) };
}

async function gitCli(n) {
  const dir = await mkdtemp(join(tmpdir(), 'sandpit-bench-fork-'));
  const main = join(dir, 'main');
  try {
    for (let d = 0; d < Math.min(n, 500); d++) await mkdir(join(main, `d${d}`), { recursive: true });
    for (let i = 0; i < n; i++) await writeFile(join(main, pathOf(i)), body(i));
    git(main, 'init', '-q', '-b', 'main');
    git(main, 'add', '-A');
    git(main, 'commit', '-qm', 'base');
    const fork = [];
    const merge = [];
    for (let run = 0; run < RUNS; run++) {
      const wt = join(dir, `wt${run}`);
      fork.push(await timed(() => git(main, 'worktree', 'add', '-q', '-b', `f${run}`, wt)));
      for (let k = 0; k < CHANGED; k++) {
        const rel = pathOf(k * 37 + run);
        await writeFile(join(wt, rel), body(k).replace('line 3 ', `fork ${run} line 3 `));
      }
      git(wt, 'commit', '-qam', 'fork');
      await writeFile(join(main, pathOf(n - 1 - run)), `parent ${run}\n`);
      git(main, 'commit', '-qam', 'parent');
      merge.push(await timed(() => git(main, 'merge', '-q', '--no-edit', `f${run}`)));
      git(main, 'worktree', 'remove', '--force', wt);
    }
    return { fork: medianOf(fork), merge: medianOf(merge) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The fork-and-merge table: medians of 5 runs at each size, Sandpit against the git CLI. */
export async function benchFork({ quick = false } = {}) {
  const rows = [];
  for (const n of quick ? [1_000, 10_000] : [1_000, 10_000, 50_000]) {
    const s = await sandpit(n);
    const g = await gitCli(n);
    rows.push([
      n.toLocaleString('en'),
      fmtMs(s.fork),
      fmtMs(g.fork),
      fmtRatio(g.fork / s.fork),
      fmtMs(s.merge),
      fmtMs(g.merge),
      fmtRatio(g.merge / s.merge),
    ]);
  }
  return table(
    `Fork, and merge of ${CHANGED} changed files (median of ${RUNS}; ratio = git / Sandpit)`,
    ['files', 'Sandpit fork', 'git worktree add', 'ratio', 'Sandpit merge', 'git merge', 'ratio'],
    rows,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(await benchFork({ quick: process.argv.includes('--quick') }));
