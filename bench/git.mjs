// Git: cloning a generated 2,000-file repository over HTTP (git http-backend on 127.0.0.1) into
// every Sandpit backend, against the git CLI's `git clone` of the same URL and isomorphic-git's
// own clone onto Node's fs: memory and node in Node, then memory, OPFS and IndexedDB in a Web
// Worker in headless Chromium (bench/git-browser.mjs). Needs `npm run build`. Run alone with
// `node bench/git.mjs`, or import benchGit().
import { execFileSync, spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import http from 'isomorphic-git/http/web';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { createNodeFs } from '../dist/node/index.js';
import { BROWSER_BACKENDS, benchGitBrowser } from './git-browser.mjs';
import { serveGit } from './git-http.mjs';
import { fmtMs, fmtRatio, median, table } from './measure.mjs';

const FILES = 2000;
const RUNS = 3;
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'b',
  GIT_AUTHOR_EMAIL: 'b@b',
  GIT_COMMITTER_NAME: 'b',
  GIT_COMMITTER_EMAIL: 'b@b',
};

async function makeRepo(base) {
  const work = join(base, 'work');
  for (let i = 0; i < FILES; i++) {
    const dir = join(work, `pkg${String(i % 20).padStart(2, '0')}`, `mod${String(Math.floor(i / 20) % 10)}`);
    await mkdir(dir, { recursive: true });
    const lines = Array.from(
      { length: 20 },
      (_, n) => `export const v${n} = ${(i * 31 + n) % 997}; // file ${i} line ${n}`,
    );
    await writeFile(join(dir, `file${i}.ts`), `${lines.join('\n')}\n`);
  }
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work, env });
  execFileSync('git', ['add', '-A'], { cwd: work, env });
  execFileSync('git', ['commit', '-q', '-m', 'generated'], { cwd: work, env });
  execFileSync('git', ['clone', '-q', '--bare', work, join(base, 'served', 'repo.git')], { env });
}

const run = (cmd, args) =>
  new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: 'ignore' });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}`))));
  });

export async function benchGit() {
  const base = await mkdtemp(join(tmpdir(), 'sandpit-bench-git-'));
  try {
    await makeRepo(base);
    const server = await serveGit(join(base, 'served'));
    const url = `${server.url}/repo.git`;
    let n = 0;
    const fresh = async () => {
      const dir = join(base, `out-${++n}`);
      await mkdir(dir);
      return dir;
    };
    const check = (envelope) => {
      if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
    };
    const cases = [
      ['git CLI (`git clone`)', async () => run('git', ['clone', '-q', url, await fresh()])],
      [
        'isomorphic-git `clone` (node fs)',
        async () => git.clone({ fs: nodeFs, http, dir: await fresh(), url, singleBranch: true }),
      ],
      [
        'Sandpit `git.clone` (memory)',
        async () => check(await createWorkspace({ fs: createMemoryFs() }).git.clone({ url })),
      ],
      [
        'Sandpit `git.clone` (node)',
        async () => check(await createWorkspace({ fs: createNodeFs(), root: await fresh() }).git.clone({ url })),
      ],
    ];
    const times = [];
    for (const [, fn] of cases) times.push(await median(fn, { runs: RUNS, warmup: 1 }));
    const names = cases.map(([name]) => name);
    // Timed from the page: starting the worker and opening the storage count, as they do for a user.
    const inBrowser = await benchGitBrowser(url, { runs: RUNS, expectFiles: FILES });
    for (const backend of BROWSER_BACKENDS) {
      names.push(`Sandpit \`connectWorkspace\` + \`git.clone\` (${backend}, Chromium worker)`);
      times.push(inBrowser[backend]);
    }
    await server.close();
    const rows = names.map((name, i) => [name, fmtMs(times[i]), fmtRatio(times[i] / times[0])]);
    return table(
      `Git clone of ${FILES.toLocaleString('en')} files over HTTP (median of ${RUNS}; ratio to the git CLI)`,
      ['clone', 'time', 'vs git'],
      rows,
    );
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchGit());
