import { spawn, spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import git from 'isomorphic-git';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { FILES, parseVersion } from './crash-format.js';
import { recordFigures } from './figures.js';
import { createRng } from './rng.js';
import { SEED, SIZES, replayHint } from './sizes.js';

const childSource = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
let scratch: string;
let childBundle: string;

beforeAll(async () => {
  scratch = nodeFs.mkdtempSync(join(tmpdir(), 'sandpit-crash-'));
  childBundle = join(scratch, 'crash-child.mjs');
  // one self-contained file, so each of the many children starts fast and runs the current sources
  await build({
    input: childSource,
    platform: 'node',
    logLevel: 'silent',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    output: { file: childBundle, format: 'esm', inlineDynamicImports: true },
  });
});

afterAll(() => {
  if (scratch) nodeFs.rmSync(scratch, { recursive: true, force: true });
});

interface Journal {
  committed: Map<string, string>;
  pending: { name: string; v: string } | null;
  started: boolean;
  crashed: string[];
}

function readJournal(path: string): Journal {
  const j: Journal = { committed: new Map(), pending: null, started: false, crashed: [] };
  const text = nodeFs.existsSync(path) ? nodeFs.readFileSync(path, 'utf8') : '';
  for (const line of text.split('\n')) {
    const [kind, name, h, b] = line.split(' ');
    if (kind === 'S') {
      j.started = true;
      j.pending = null;
    } else if (kind === 'B') j.pending = { name: name!, v: `${h}/${b}` };
    else if (kind === 'E') {
      j.committed.set(name!, `${h}/${b}`);
      j.pending = null;
    } else if (kind === 'F') j.pending = null;
    else if (kind === 'N') j.committed.delete(name!);
    else if (kind === 'X') j.crashed.push(line);
  }
  return j;
}

function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  return new Promise((resolve) => {
    const tick = () => (check() ? resolve(true) : Date.now() > until ? resolve(false) : setTimeout(tick, 5));
    tick();
  });
}

describe('hardening: SIGKILL in the middle of writes (node)', () => {
  it(`${SIZES.kills} kills: every file is a whole old or new version, and the shadow repository opens and passes git fsck`, async () => {
    console.log(replayHint('crash'));
    const rng = createRng(SEED).fork('crash');
    const root = join(scratch, 'ws');
    nodeFs.mkdirSync(root);
    const journalPath = join(scratch, 'journal.log');
    const broken: string[] = [];
    let torn = 0;
    let lost = 0;
    let uncaught = 0;
    let midWrite = 0;
    let fsckRuns = 0;
    let reopenedInit = 0;
    let reopenedOnce = false;
    const gitdir = join(root, '.sandpit', 'git');
    const fsck = () => {
      fsckRuns++;
      const r = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--no-dangling', '--no-progress'], {
        encoding: 'utf8',
      });
      if (r.status !== 0) broken.push(`git fsck failed (exit ${r.status}): ${(r.stderr || r.stdout).slice(0, 400)}`);
    };
    for (let round = 0; round < SIZES.kills; round++) {
      const before = nodeFs.existsSync(journalPath) ? nodeFs.statSync(journalPath).size : 0;
      const child = spawn(process.execPath, [childBundle, root, journalPath, String(rng.int(2 ** 31))], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const started = await waitFor(
        () => nodeFs.existsSync(journalPath) && nodeFs.statSync(journalPath).size > before,
        20_000,
      );
      if (!started) broken.push(`round ${round}: the child never started: ${stderr.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, rng.int(250)));
      child.kill('SIGKILL');
      const code = await exited;
      if (code !== null) {
        uncaught++;
        broken.push(`round ${round}: the child exited by itself (${code}): ${stderr.slice(0, 300)}`);
      }
      const j = readJournal(journalPath);
      if (j.crashed.length) {
        uncaught += j.crashed.length;
        broken.push(...j.crashed);
      }
      if (j.pending) midWrite++;
      for (const name of FILES) {
        const text = nodeFs.existsSync(join(root, name)) ? nodeFs.readFileSync(join(root, name), 'utf8') : null;
        const allowed = new Set<string | null>([j.committed.get(name) ?? null]);
        if (j.pending?.name === name) allowed.add(j.pending.v);
        const parsed = parseVersion(name, text);
        const got = text === null ? null : parsed ? `${parsed.h}/${parsed.b}` : 'torn';
        if (got === 'torn') {
          torn++;
          broken.push(`round ${round}: ${name} is torn (${text!.length} chars)`);
        } else if (!allowed.has(got)) {
          lost++;
          broken.push(`round ${round}: ${name} holds ${got}, expected one of ${[...allowed].join(', ')}`);
        }
        // a change cut off by the kill may or may not have landed: what the file holds is the truth the next round starts from
        if (got !== 'torn')
          nodeFs.appendFileSync(journalPath, got === null ? `N ${name}\n` : `E ${name} ${got.replace('/', ' ')}\n`);
      }
      if (nodeFs.existsSync(gitdir)) {
        try {
          await git.log({ fs: nodeFs, gitdir, depth: 3 });
        } catch (error) {
          // a kill during the very first open can leave a repository without a branch yet; it must
          // be taken up again by the next open, which this checks by opening it here
          const neverCommitted = /Could not find (HEAD|refs\/heads\/main)/.test(String(error)) && !reopenedOnce;
          const ws = createWorkspace({ fs: createNodeFs(), root });
          const snaps = await ws.call('list_snapshots', { limit: 3 });
          await ws.close();
          const again = await git.log({ fs: nodeFs, gitdir, depth: 3 }).then(
            () => true,
            () => false,
          );
          if (neverCommitted && snaps.ok && again) reopenedInit++;
          else
            broken.push(
              `round ${round}: isomorphic-git cannot read the history: ${String(error).slice(0, 200)}; reopened: ${snaps.ok} ${again}`,
            );
        }
        reopenedOnce ||= nodeFs.existsSync(join(gitdir, 'refs', 'heads', 'main'));
      }
      if ((round + 1) % 50 === 0) fsck();
    }
    fsck();
    // the workspace still works on what the kills left behind
    const ws = createWorkspace({ fs: createNodeFs(), root });
    for (const name of FILES) {
      const env = await ws.call('read_file', { path: name });
      if (!env.ok && env.error.code !== 'NOT_FOUND')
        broken.push(`read_file ${name} after the kills: ${env.error.code}`);
    }
    const snaps = await ws.call('list_snapshots', { limit: 5 });
    if (!snaps.ok) broken.push(`list_snapshots after the kills: ${JSON.stringify(snaps.error)}`);
    const wrote = await ws.call('write_file', { path: 'after.txt', content: 'alive\n' });
    if (!wrote.ok) broken.push(`write_file after the kills: ${JSON.stringify(wrote.error)}`);
    await ws.close();
    fsck();
    const litter = [...walkNames(root)].filter((n) => n.endsWith('.sandpit-tmp')).length;
    console.log(
      `[hardening crash] kills=${SIZES.kills} mid-change=${midWrite} torn=${torn} lost=${lost} uncaught=${uncaught} fsck=${fsckRuns} leftover-temp-files=${litter} first-open-cut-and-recovered=${reopenedInit}`,
    );
    recordFigures({
      area: 'crash safety (SIGKILL)',
      backend: 'node',
      attempts: SIZES.kills,
      escapes: 0,
      uncaught,
      partial: 0,
      lost,
      torn,
      note: `${midWrite} kills landed during a change; git fsck clean ${fsckRuns}x; ${litter} temp files left; ${reopenedInit} kills cut the first open, all recovered`,
    });
    expect(broken, replayHint('crash')).toEqual([]);
  });
});

function* walkNames(dir: string): Generator<string> {
  for (const e of nodeFs.readdirSync(dir, { withFileTypes: true })) {
    yield e.name;
    if (e.isDirectory()) yield* walkNames(join(dir, e.name));
  }
}
