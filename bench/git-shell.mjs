// The git-shell section of `npm run bench`: `git status` and `git diff` in the browser shell
// (run_command over Sandpit's interpreter and isomorphic-git) against the real git CLI, on the
// same 1,000- and 10,000-file repositories with 10 changed files, in one run. The shell runs over
// the node backend on the same folder (what real git reads) and over memory (a browser workspace).
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmtMs, fmtRatio, median, table } from './measure.mjs';

const ENV = {
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};
const gitEnv = { ...process.env, ...ENV, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

async function makeRepo(dir, files) {
  for (let i = 0; i < files; i++) {
    const path = join(dir, `pkg${i % 25}`, `sub${i % 8}`, `file${i}.ts`);
    await mkdir(join(path, '..'), { recursive: true });
    const lines = Array.from({ length: 30 }, (_, n) => `export const v${n} = ${i * n};`);
    await writeFile(path, `${lines.join('\n')}\n`);
  }
  const git = (...args) => execFileSync('git', args, { cwd: dir, env: gitEnv, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'base');
  for (let i = 0; i < 10; i++) {
    const path = join(dir, `pkg${(i * 97) % 25}`, `sub${(i * 97) % 8}`, `file${i * 97}.ts`);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('export const v3 =', 'export const changed3 ='));
  }
}

async function seedOf(dir, prefix = '') {
  const out = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, await seedOf(full, rel));
    else out[rel] = new Uint8Array(await readFile(full));
  }
  return out;
}

export async function benchGitShell() {
  const { createWorkspace, createShellRunner } = await import('../dist/index.js');
  const { createMemoryFs } = await import('../dist/fs/memory.js');
  const { createNodeFs } = await import('../dist/fs/node.js');
  const rows = [];
  for (const files of [1000, 10000]) {
    const dir = await mkdtemp(join(tmpdir(), 'sandpit-bench-git-'));
    try {
      await makeRepo(dir, files);
      const nodeFs = createNodeFs({ root: dir });
      const onNode = createWorkspace({
        fs: nodeFs,
        root: dir,
        processRunner: createShellRunner(nodeFs, dir),
        snapshots: false,
      });
      const mem = createMemoryFs(await seedOf(dir));
      const onMemory = createWorkspace({ fs: mem, processRunner: createShellRunner(mem), snapshots: false });
      for (const line of ['git status', 'git diff']) {
        const [cmd, ...args] = line.split(' ');
        const real = await median(async () => execFileSync(cmd, args, { cwd: dir, env: gitEnv, stdio: 'pipe' }), {
          runs: 5,
          warmup: 1,
        });
        const shell = async (ws) => {
          const r = await ws.call('run_command', { command: line, env: ENV, timeout_seconds: 600 });
          if (!r.ok || r.result.exit_code !== 0) throw new Error(`${line} failed: ${JSON.stringify(r).slice(0, 400)}`);
        };
        const node = await median(() => shell(onNode), { runs: 3, warmup: 1 });
        const memory = await median(() => shell(onMemory), { runs: 3, warmup: 1 });
        rows.push([
          `${line}, ${files} files`,
          fmtMs(real),
          fmtMs(node),
          fmtRatio(node / real),
          fmtMs(memory),
          fmtRatio(memory / real),
        ]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return table(
    'git in the browser shell vs the git CLI (10 files changed; target: within 3x at 10,000 files)',
    ['command', 'git CLI', 'shell on node', 'ratio', 'shell on memory', 'ratio'],
    rows,
  );
}
