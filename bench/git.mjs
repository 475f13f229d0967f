// Git: cloning a generated 2,000-file repository over HTTP (git http-backend on 127.0.0.1, in a
// process of its own) into every Sandpit backend, against the git CLI's `git clone` of the same URL
// and isomorphic-git's own clone onto Node's fs: memory and node in Node, memory, OPFS and IndexedDB
// in a Web Worker in headless Chromium (bench/git-browser.mjs). Needs `npm run build`. Run alone
// with `node bench/git.mjs`, or import benchGit().
//
// The contenders take turns: a warm-up round, then ROUNDS rounds in each of which every contender
// clones once, in an order changed round by round (bench/turns.mjs), so a load that comes and goes
// on the machine falls on all of them alike and none always follows the same neighbour. Every
// clone is untimed before and after alike: a fresh folder or storage name, removed once the clone
// is timed, then a wait until the bench's own processes are idle (the browser goes on deleting an
// IndexedDB database after the page's call returns, and that was timed in the next turn). The
// served repository is packed once before the first clone (as a host serves one) and nothing
// changes it after, so the server does the same work for every clone. A row's ratio is the median
// of its ratios to the git CLI's clone in the same round; the spread is the lowest and highest.
// Beside the time, each row's CPU (its own processes', not the server's) and the CPU that other
// processes on the machine took meanwhile, which says whether the times are a quiet machine's.
// BENCH_GIT_TRACE=1 prints every turn to stderr.
import { execFileSync, spawn } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import http from 'isomorphic-git/http/web';
import { createMemoryFs, createWorkspace } from '../dist/index.js';
import { createNodeFs } from '../dist/node/index.js';
import { BROWSER_BACKENDS, openBrowserCloner } from './git-browser.mjs';
import { serveGitProcess } from './git-http.mjs';
import { fmtMs, fmtRatio, medianOf as median, table } from './measure.mjs';
import { meter, settle, turnOrder } from './turns.mjs';

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
    /**
     * A contender's clone into a fresh folder, then the folder removed, untimed. The clone calls
     * `lap.start()` and `lap.stop()` around what is timed (`stop(ms)` where it times itself).
     */
    const inFolder = (clone) => async (lap) => {
      const dir = await fresh();
      await clone(dir, lap);
      await rm(dir, { recursive: true, force: true });
    };
    const timed = (clone) =>
      inFolder(async (dir, lap) => {
        lap.start();
        await clone(dir);
        lap.stop();
      });
    /**
     * A Sandpit clone timed from the workspace's creation to the clone's envelope, as the page
     * times the worker's; the workspace is then closed, untimed as in the page, so what it does
     * after answering (the review journal's record) is done before the next contender's turn
     * instead of during it.
     */
    const sandpit = (open) =>
      inFolder(async (root, lap) => {
        lap.start();
        const ws = open(root);
        check(await ws.git.clone({ url }));
        lap.stop();
        await ws.close();
      });
    browser = await openBrowserCloner(url, { expectFiles: FILES });
    const contenders = [
      ['git CLI (`git clone`)', timed((dir) => run('git', ['clone', '-q', url, dir]))],
      [
        'isomorphic-git `clone` (node fs)',
        timed((dir) => git.clone({ fs: nodeFs, http, dir, url, singleBranch: true })),
      ],
      ['Sandpit `git.clone` (memory)', sandpit(() => createWorkspace({ fs: createMemoryFs() }))],
      ['Sandpit `git.clone` (node)', sandpit((root) => createWorkspace({ fs: createNodeFs(), root }))],
      // timed in the page: starting the worker and opening the storage count, as they do for a user
      ...BROWSER_BACKENDS.map((backend) => [
        `Sandpit \`connectWorkspace\` + \`git.clone\` (${backend}, Chromium worker)`,
        (lap) => browser.clone(backend, lap),
      ]),
    ];
    const times = contenders.map(() => []);
    const cpu = contenders.map(() => []);
    const others = [];
    const leftovers = contenders.map(() => []);
    let previous = -1;
    for (let round = 0; round <= rounds; round++) {
      // round 0 warms every contender up once, and is not counted
      for (const i of turnOrder(contenders.length, round)) {
        // untimed: what the previous turn left running in the bench's own processes ends first
        const settled = await settle();
        if (previous >= 0) leftovers[previous].push(settled.cpuMs);
        let t = 0;
        let running;
        let lap;
        await contenders[i][1]({
          start() {
            running = meter({ exclude: [server.pid] });
            t = performance.now();
          },
          stop(ownMs) {
            const ms = ownMs ?? performance.now() - t;
            lap = { ms, ...running.stop() };
          },
        });
        previous = i;
        if (process.env.BENCH_GIT_TRACE)
          console.error(
            `# round ${round}: ${contenders[i][0]} ${lap.ms.toFixed(0)} ms, ${lap.cpuMs} ms CPU, others ${lap.othersCores?.toFixed(2)} cores; settled before it in ${settled.waitedMs.toFixed(0)} ms (${settled.cpuMs} ms CPU)`,
          );
        if (round === 0) continue;
        times[i].push(lap.ms);
        if (lap.cpuMs !== null) cpu[i].push(lap.cpuMs);
        if (lap.othersCores !== null) others.push(lap.othersCores);
      }
    }
    const ratios = times.map((ts) => ts.map((ms, r) => ms / times[0][r]));
    const withCpu = cpu.every((c) => c.length === rounds);
    const cpuRatios = cpu.map((cs) => cs.map((ms, r) => ms / cpu[0][r]));
    const rows = contenders.map(([name], i) => [
      name,
      fmtMs(median(times[i])),
      `${fmtMs(Math.min(...times[i]))} - ${fmtMs(Math.max(...times[i]))}`,
      fmtRatio(median(ratios[i])),
      `${fmtRatio(Math.min(...ratios[i]))} - ${fmtRatio(Math.max(...ratios[i]))}`,
      ...(withCpu ? [fmtMs(median(cpu[i])), fmtRatio(median(cpuRatios[i]))] : []),
    ]);
    const worst = leftovers.map((c) => Math.max(0, ...c));
    const most = worst.indexOf(Math.max(...worst));
    const load = others.length
      ? `Processes outside the benchmark used a median ${median(others).toFixed(2)} of the machine's ${cpus().length} cores while a clone was timed (${Math.min(...others).toFixed(2)} - ${Math.max(...others).toFixed(2)}): the times are a quiet machine's only where that is near 0. `
      : '';
    const cpuNote = withCpu
      ? "CPU: the contender's own processes while timed (the bench's process, its children, the browser's), not the server's. "
      : '';
    return `${table(
      `Git clone of ${FILES.toLocaleString('en')} files over HTTP (${rounds} rounds, contenders taking turns; median, and the lowest and highest; ratio to the git CLI's clone of the same round)`,
      ['clone', 'time', 'range', 'vs git', 'range vs git', ...(withCpu ? ['CPU', 'CPU vs git'] : [])],
      rows,
    )}\n\n${load}${cpuNote}Before each turn the benchmark's own processes were let finish what the previous turn left (at most ${fmtMs(worst[most])} of CPU, after the ${contenders[most][0]} row).`;
  } finally {
    await browser?.close();
    await server?.close();
    await rm(base, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchGit());
