import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, repoRoot } from '../cli/built-cli.js';
import { FULL } from '../hardening/sizes.js';
import { git, startGitServer, type GitServer } from './git-server.js';

const MIB = 1024 * 1024;
/** The bomb: a file of zeros that deflates about a thousandfold. Hardening uses the 2 GiB. */
const BOMB_BYTES = (FULL ? 2048 : 256) * MIB;
/** A file under the cap that is written: small enough for npm test, big enough to see in RSS. */
const ALLOWED_BYTES = (FULL ? 256 : 96) * MIB;
const child = fileURLToPath(new URL('./fixtures/clone-rss.mjs', import.meta.url));

let server: GitServer;
beforeAll(async () => {
  await buildCli();
  server = await startGitServer();
});
afterAll(async () => {
  await server?.close();
});

/** A bare repository holding one file of `bytes` zeros, made by the real git CLI from a sparse file. */
function zerosRepo(name: string, bytes: number): void {
  const work = mkdtempSync(join(tmpdir(), 'sandpit-git-bomb-'));
  try {
    git(work, 'init', '-q', '-b', 'main');
    writeFileSync(join(work, 'small.txt'), 'small\n');
    writeFileSync(join(work, 'zeros.bin'), '');
    truncateSync(join(work, 'zeros.bin'), bytes);
    // Over core.bigFileThreshold git writes the file straight into a pack, deflated at the level a
    // server's pack gets, so serving it copies that pack data instead of inflating the loose object
    // and deflating it again (a CPU-second per 256 MiB); the clone receives the same object, deflated alike.
    git(work, '-c', 'core.bigFileThreshold=1m', 'add', '-A');
    git(work, 'commit', '-q', '-m', 'zeros');
    execFileSync('git', ['clone', '-q', '--bare', work, join(server.root, `${name}.git`)]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

interface Measured {
  ok: boolean;
  error?: { code: string; message: string };
  skipped?: string[];
  before: number;
  peak: number;
}

/** Clone in a child process that samples its own RSS, so the runner's heap does not count. */
async function cloneMeasured(name: string, maxFileBytes?: number): Promise<Measured> {
  const root = mkdtempSync(join(tmpdir(), 'sandpit-git-rss-'));
  try {
    const args = [
      child,
      join(repoRoot, 'dist'),
      `${server.url}/${name}.git`,
      root,
      ...(maxFileBytes ? [String(maxFileBytes)] : []),
    ];
    const out = await new Promise<string>((resolve, reject) => {
      const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (d) => {
        stdout += d;
      });
      proc.stderr.on('data', (d) => {
        stderr += d;
      });
      proc.on('close', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`clone child exited ${code}: ${stderr}`)),
      );
    });
    return JSON.parse(out) as Measured;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const mib = (n: number) => Math.round(n / MIB);

/**
 * What an ordinary clone of the same shape adds (the file empty): the workspace's helper threads,
 * buffers and caches, which grew past half the bomb's margin once the rescan's watcher got a
 * thread of its own. Subtracted, so each test weighs what its one file adds.
 */
let ordinary: number | undefined;
async function ordinaryGrowth(): Promise<number> {
  if (ordinary === undefined) {
    zerosRepo('ordinary', 0);
    const run = await cloneMeasured('ordinary');
    expect(run.ok, JSON.stringify(run.error)).toBe(true);
    ordinary = run.peak - run.before;
    console.log(`[clone rss] ordinary clone: rss ${mib(run.before)} -> peak ${mib(run.peak)} MiB`);
    // an ordinary clone of two small files stays small in itself
    expect(ordinary).toBeLessThan(96 * MIB);
  }
  return ordinary;
}

describe('memory during a clone', () => {
  it(`skips a ${mib(BOMB_BYTES)} MiB bomb over the file cap without inflating it`, async () => {
    zerosRepo('bomb', BOMB_BYTES);
    const run = await cloneMeasured('bomb', 16 * MIB);
    console.log(`[clone rss] bomb ${mib(BOMB_BYTES)} MiB skipped: rss ${mib(run.before)} -> peak ${mib(run.peak)} MiB`);
    expect(run.ok, JSON.stringify(run.error)).toBe(true);
    expect(run.skipped).toEqual([`zeros.bin (${BOMB_BYTES} bytes, over the ${16 * MIB}-byte file cap)`]);
    // the bomb never exists in memory: what it adds to a clone stays far below one copy of it
    expect(run.peak - run.before - (await ordinaryGrowth())).toBeLessThan(Math.min(BOMB_BYTES / 4, 64 * MIB));
  });

  it(`writes an allowed ${mib(ALLOWED_BYTES)} MiB file holding about one copy of it, not four`, async () => {
    zerosRepo('allowed', ALLOWED_BYTES);
    const run = await cloneMeasured('allowed', ALLOWED_BYTES * 2);
    console.log(
      `[clone rss] allowed ${mib(ALLOWED_BYTES)} MiB written: rss ${mib(run.before)} -> peak ${mib(run.peak)} MiB`,
    );
    expect(run.ok, JSON.stringify(run.error)).toBe(true);
    expect(run.skipped).toEqual([]);
    // isomorphic-git held four copies (its index, its reader, the wrap it hashes); the own reader holds one, plus garbage not yet collected
    expect(run.peak - run.before - (await ordinaryGrowth())).toBeLessThan(ALLOWED_BYTES * 2);
  });
});
