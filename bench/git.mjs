// Git: cloning a generated 2,000-file repository over HTTP (git http-backend on 127.0.0.1, in a
// process of its own) into every Sandpit backend, against the git CLI's `git clone` of the same URL
// and isomorphic-git's own clone onto Node's fs: memory and node in Node, memory, OPFS and IndexedDB
// in a Web Worker in headless Chromium (bench/git-browser.mjs). Needs `npm run build`. Run alone
// with `node bench/git.mjs`, or import benchGit().
//
// The contenders take turns: a warm-up round, then ROUNDS rounds in each of which every contender
// clones once, in an order rotated round by round, so a load that comes and goes on the machine
// falls on all of them alike and none always follows the same neighbour. Every clone is untimed
// before and after alike: a fresh folder or storage name, removed once the clone is timed. The
// served repository is packed once before the first clone (as a host serves one) and nothing
// changes it after, so the server does the same work for every clone. A row's ratio is the median
// of its ratios to the git CLI's clone in the same round; the spread is the lowest and highest.
import { execFileSync, spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import http from 'isomorphic-git/http/web';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { createNodeFs } from '../dist/node/index.js';
import { BROWSER_BACKENDS, openBrowserCloner } from './git-browser.mjs';
import { serveGitProcess } from './git-http.mjs';
import { fmtMs, fmtRatio, table } from './measure.mjs';

const FILES = 2000;
const ROUNDS = 7;
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
  const served = join(base, 'served', 'repo.git');
  execFileSync('git', ['clone', '-q', '--bare', work, served], { env });
  // a local clone shares the work tree's loose objects: packed, upload-pack reuses the pack's
  // compressed objects instead of compressing all 2,000 again for every clone, as a host's would
  execFileSync('git', ['repack', '-q', '-a', '-d'], { cwd: served, env });
}

const run = (cmd, args) =>
  new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: 'ignore' });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}`))));
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchGit({ rounds = ROUNDS } = {}) {
  const base = await mkdtemp(join(tmpdir(), 'sandpit-bench-git-'));
  let server;
  let browser;
  try {
    await makeRepo(base);
    server = await serveGitProcess(join(base, 'served'));
    const url = `${server.url}/repo.git`;
    let n = 0;
    const fresh = async () => {
      const dir = join(base, `out-${++n}`);
      await mkdir(dir);
      return dir;
    };
    const check = (envelope) => {
      if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
      if (envelope.result.files !== FILES) throw new Error(`the clone brought ${envelope.result.files} files`);
    };
    /** A contender's clone into a fresh folder: timed (or timing itself: a number), then the folder removed, untimed. */
    const inFolder = (clone) => async () => {
      const dir = await fresh();
      const t = performance.now();
      const own = await clone(dir);
      const ms = typeof own === 'number' ? own : performance.now() - t;
      await rm(dir, { recursive: true, force: true });
      return ms;
    };
    /**
     * A Sandpit clone timed from the workspace's creation to the clone's envelope, as the page
     * times the worker's; the workspace is then closed, untimed as in the page, so what it does
     * after answering (the review journal's record) is done before the next contender's turn
     * instead of during it.
     */
    const sandpit = (open) =>
      inFolder(async (root) => {
        const t = performance.now();
        const ws = open(root);
        check(await ws.git.clone({ url }));
        const ms = performance.now() - t;
        await ws.close();
        return ms;
      });
    browser = await openBrowserCloner(url, { expectFiles: FILES });
    const contenders = [
      ['git CLI (`git clone`)', inFolder((dir) => run('git', ['clone', '-q', url, dir]))],
      [
        'isomorphic-git `clone` (node fs)',
        inFolder((dir) => git.clone({ fs: nodeFs, http, dir, url, singleBranch: true })),
      ],
      ['Sandpit `git.clone` (memory)', sandpit(() => createWorkspace({ fs: createMemoryFs() }))],
      ['Sandpit `git.clone` (node)', sandpit((root) => createWorkspace({ fs: createNodeFs(), root }))],
      // timed in the page: starting the worker and opening the storage count, as they do for a user
      ...BROWSER_BACKENDS.map((backend) => [
        `Sandpit \`connectWorkspace\` + \`git.clone\` (${backend}, Chromium worker)`,
        () => browser.clone(backend),
      ]),
    ];
    const times = contenders.map(() => []);
    for (let round = 0; round <= rounds; round++) {
      // round 0 warms every contender up once, and is not counted
      for (let k = 0; k < contenders.length; k++) {
        const i = (k + round) % contenders.length;
        const ms = await contenders[i][1]();
        if (round > 0) times[i].push(ms);
      }
    }
    const ratios = times.map((ts) => ts.map((ms, r) => ms / times[0][r]));
    const rows = contenders.map(([name], i) => [
      name,
      fmtMs(median(times[i])),
      `${fmtMs(Math.min(...times[i]))} - ${fmtMs(Math.max(...times[i]))}`,
      fmtRatio(median(ratios[i])),
      `${fmtRatio(Math.min(...ratios[i]))} - ${fmtRatio(Math.max(...ratios[i]))}`,
    ]);
    return table(
      `Git clone of ${FILES.toLocaleString('en')} files over HTTP (${rounds} rounds, contenders taking turns; median, and the lowest and highest; ratio to the git CLI's clone of the same round)`,
      ['clone', 'time', 'range', 'vs git', 'range vs git'],
      rows,
    );
  } finally {
    await browser?.close();
    await server?.close();
    await rm(base, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchGit());
