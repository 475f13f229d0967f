// The shell-corpus section of `npm run bench`: every line of the shell's differential corpus
// (test/shell/differential-*lines.ts: the lines agents type, the tools they reach for, archives)
// run on a fresh copy of the corpus's small repository through Sandpit's browser shell (run_command
// on memory, and its interpreter bare: runShell over the workspace's write path, no envelope, no
// snapshots, as the differential test runs it), through /bin/bash with the GNU tools (one spawn per
// line, and one bash script running every line in a fresh copy), and through just-bash (a
// TypeScript bash for agents, its interpreter bare on its own in-memory filesystem), in one run:
// time, and how many lines agree with bash's stdout, exit code and empty-or-not stderr.
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmtMs, fmtRatio, table } from './measure.mjs';

const CORPUS = [
  'differential-lines',
  'differential-agent-lines',
  'differential-tool-lines',
  'differential-archive-lines',
];
const BASH_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', HOME: '/' };

/** The corpus files are TypeScript: transpiled here with esbuild (no types to check), then imported. */
async function loadCorpus(work) {
  const { transform } = await import('esbuild');
  const out = {};
  for (const name of CORPUS) {
    const source = await readFile(new URL(`../test/shell/${name}.ts`, import.meta.url), 'utf8');
    const file = join(work, `${name}.mjs`);
    await writeFile(file, (await transform(source, { loader: 'ts', format: 'esm' })).code);
    Object.assign(out, await import(pathToFileURL(file).href));
  }
  const lines = [...out.LINES, ...out.AGENT_LINES, ...out.TOOL_LINES, ...out.ARCHIVE_LINES];
  return { fixture: out.FIXTURE, lines };
}

async function writeTree(dir, files) {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

const agrees = (a, b) => a.stdout === b.stdout && a.exit === b.exit && (a.stderr === '') === (b.stderr === '');

/** `limit` runs only the first lines (a quick look at the section itself). */
export async function benchShellCorpus({ limit = Infinity } = {}) {
  const { createMemoryFs, createShellRunner, createWorkspace } = await import('../dist/index.js');
  const { runShell } = await import('../dist/shell/run.js');
  const { FileWriter } = await import('../dist/workspace/file-writer.js');
  const { PathResolver } = await import('../dist/workspace/paths.js');
  const { PathLocks } = await import('../dist/workspace/locks.js');
  const { ChangeLog } = await import('../dist/workspace/change-log.js');
  const { Bash } = await import('just-bash');
  const work = await mkdtemp(join(tmpdir(), 'sandpit-bench-corpus-'));
  try {
    const { fixture, lines: all } = await loadCorpus(work);
    const lines = all.slice(0, limit);
    const times = { sandpit: 0, bare: 0, bash: 0, justBash: 0 };
    const agree = { sandpit: 0, bare: 0, justBash: 0 };
    const memoryTree = () =>
      createMemoryFs(Object.fromEntries(Object.entries(fixture).map(([p, text]) => [`/${p}`, text])));
    for (const [n, line] of lines.entries()) {
      const dir = join(work, `t${n}`);
      await writeTree(dir, fixture);
      let t = performance.now();
      const run = spawnSync('/bin/bash', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 10_000, env: BASH_ENV });
      times.bash += performance.now() - t;
      const want = { stdout: run.stdout, stderr: run.stderr, exit: run.status ?? -1 };
      await rm(dir, { recursive: true, force: true });

      const viaTool = async () => {
        const fs = memoryTree();
        const ws = createWorkspace({ fs, processRunner: createShellRunner(fs), snapshots: false });
        const t0 = performance.now();
        const r = await ws.call('run_command', { command: line, env: { LC_ALL: 'C' }, timeout_seconds: 10 });
        times.sandpit += performance.now() - t0;
        const got = r.ok ? { stdout: r.result.stdout, stderr: r.result.stderr, exit: r.result.exit_code } : null;
        if (got && agrees(got, want)) agree.sandpit++;
      };
      const bareRun = async () => {
        const bareFs = memoryTree();
        const writer = new FileWriter(bareFs, new PathResolver(bareFs, '/'), new PathLocks(), new ChangeLog(), null);
        const t0 = performance.now();
        const b = await runShell({
          fs: bareFs,
          root: '/',
          command: line,
          cwd: '.',
          env: { LC_ALL: 'C' },
          timeoutMs: 10_000,
          apply: (steps) => writer.apply(steps, { allOrNothing: false }),
        });
        times.bare += performance.now() - t0;
        if (agrees({ stdout: b.stdout, stderr: b.stderr, exit: b.exit_code }, want)) agree.bare++;
      };
      // in turn first, so a command's first load and the warm-up fall on both rows alike
      if (n % 2 === 0) {
        await viaTool();
        await bareRun();
      } else {
        await bareRun();
        await viaTool();
      }

      const peer = new Bash({
        files: Object.fromEntries(Object.entries(fixture).map(([p, text]) => [`/w/${p}`, text])),
        cwd: '/w',
        env: { LC_ALL: 'C' },
      });
      t = performance.now();
      const j = await peer.exec(line).catch((error) => ({ stdout: '', stderr: String(error), exitCode: -2 }));
      times.justBash += performance.now() - t;
      if (agrees({ stdout: j.stdout, stderr: j.stderr, exit: j.exitCode }, want)) agree.justBash++;
    }
    // bash once, every line in a fresh copy of the tree made by the script itself
    const seedDir = join(work, 'seed');
    await writeTree(seedDir, fixture);
    const script = lines
      .map((line) => `rm -rf t && cp -a seed t && (cd t && ${line}) >/dev/null 2>&1 </dev/null`)
      .join('\n');
    await writeFile(join(work, 'all.sh'), `${script}\n`);
    const t = performance.now();
    spawnSync('/bin/bash', ['all.sh'], { cwd: work, env: BASH_ENV, timeout: 600_000 });
    const scriptMs = performance.now() - t;

    const pct = (k) => `${((100 * k) / lines.length).toFixed(1)}%`;
    // each row against both of Sandpit's: through run_command, and its interpreter bare (like for like with just-bash's)
    const ratios = (ms) => [fmtRatio(ms / times.sandpit), fmtRatio(ms / times.bare)];
    return table(
      `The shell's differential corpus: ${lines.length} command lines, each on a fresh copy of a small repository`,
      [
        'shell',
        'all lines',
        'vs run_command',
        'vs bare interpreter',
        'agrees with bash (stdout, exit code, stderr empty or not)',
      ],
      [
        [
          "Sandpit's browser shell (run_command on memory)",
          fmtMs(times.sandpit),
          ...ratios(times.sandpit),
          pct(agree.sandpit),
        ],
        [
          "Sandpit's shell interpreter, bare (runShell: no envelope, no snapshots)",
          fmtMs(times.bare),
          ...ratios(times.bare),
          pct(agree.bare),
        ],
        [
          'just-bash 3.4.2, bare (exec on its in-memory filesystem)',
          fmtMs(times.justBash),
          ...ratios(times.justBash),
          pct(agree.justBash),
        ],
        ['/bin/bash, one spawn per line', fmtMs(times.bash), ...ratios(times.bash), '(the reference)'],
        ['/bin/bash, one script (its own copy of the tree per line)', fmtMs(scriptMs), ...ratios(scriptMs), ''],
      ],
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
