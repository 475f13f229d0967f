import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL } from './sizes.js';
import { buildCli, envelopes, runCli } from '../cli/built-cli.js';

const PROCESSES = 4;
const APPENDS = FULL ? 100 : 25;
let base: string;

beforeAll(async () => {
  await buildCli();
  base = await mkdtemp(join(tmpdir(), 'sandpit-lock-'));
});
afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const git = (gitdir: string, ...args: string[]) =>
  execFileSync('git', [`--git-dir=${gitdir}`, ...args], { encoding: 'utf8' });

describe('several processes on one folder', () => {
  it(`keeps every append and every commit: ${PROCESSES} processes x ${APPENDS} appends`, async () => {
    const root = join(base, 'appends');
    await rm(root, { recursive: true, force: true });
    await execFileSync('mkdir', ['-p', root]);
    await writeFile(join(root, 'seed.txt'), 'seed\n');
    const transcripts = await Promise.all(
      Array.from({ length: PROCESSES }, async (_, p) => {
        const file = join(base, `t${p}.jsonl`);
        const lines = Array.from({ length: APPENDS }, (_, i) =>
          JSON.stringify({ tool: 'append_file', args: { path: 'log.txt', content: `p${p} ${i}\n` } }),
        );
        await writeFile(file, `${lines.join('\n')}\n`);
        return file;
      }),
    );
    const started = Date.now();
    const runs = await Promise.all(transcripts.map((t) => runCli(['replay', t, '--backend', 'node', '--root', root])));
    const took = Date.now() - started;
    for (const run of runs) {
      const all = envelopes(run.stdout);
      expect(all).toHaveLength(APPENDS);
      for (const e of all) {
        expect(e.ok, JSON.stringify(e)).toBe(true);
        expect(e.result.snapshot_error).toBeUndefined();
      }
    }
    const lines = (await readFile(join(root, 'log.txt'), 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(PROCESSES * APPENDS);
    for (let p = 0; p < PROCESSES; p++) {
      // each process's own appends keep their order
      expect(lines.filter((l) => l.startsWith(`p${p} `))).toEqual(
        Array.from({ length: APPENDS }, (_, i) => `p${p} ${i}`),
      );
    }
    const gitdir = join(root, '.sandpit', 'git');
    const appendCommits = git(gitdir, 'log', '--format=%s', 'main')
      .split('\n')
      .filter((s) => s.startsWith('append_file'));
    expect(appendCommits).toHaveLength(PROCESSES * APPENDS);
    // one line of history: no merges, and every commit reachable from the branch
    expect(git(gitdir, 'rev-list', '--merges', 'main').trim()).toBe('');
    const fsck = execFileSync(
      'git',
      [`--git-dir=${gitdir}`, 'fsck', '--full', '--no-reflogs', '--unreachable', '--no-dangling'],
      { encoding: 'utf8' },
    );
    expect(fsck.trim()).toBe('');
    const dangling = execFileSync('git', [`--git-dir=${gitdir}`, 'fsck', '--no-reflogs'], { encoding: 'utf8' });
    expect(dangling).not.toMatch(/dangling commit/);
    expect(git(gitdir, 'show', 'main:log.txt').split('\n').filter(Boolean)).toEqual(lines);
    console.log(`[hardening processes] ${PROCESSES}x${APPENDS} appends in ${took} ms (loaded machine)`);
  });
});

describe('sandpit doctor --root', () => {
  it('names a damaged history, and --repair resets it to the newest intact snapshot', async () => {
    const root = join(base, 'doctor');
    execFileSync('mkdir', ['-p', root]);
    for (let i = 0; i < 3; i++)
      expect(
        JSON.parse(
          (
            await runCli([
              'call',
              'write_file',
              JSON.stringify({ path: `f${i}.txt`, content: `${i}\n` }),
              '--root',
              root,
            ])
          ).stdout,
        ).ok,
      ).toBe(true);
    const gitdir = join(root, '.sandpit', 'git');
    const head = git(gitdir, 'rev-parse', 'main').trim();
    expect((await runCli(['doctor', '--root', root])).stdout).toMatch(/^history: OK \(\d+ snapshots\)/);
    await writeFile(join(gitdir, 'refs', 'heads', 'main'), 'garbage');
    const listed = JSON.parse((await runCli(['call', 'list_snapshots', '{}', '--root', root])).stdout);
    expect(listed).toMatchObject({ ok: false, error: { code: 'IO_ERROR' } });
    expect(listed.error.hint).toContain('doctor --repair');
    const check = await runCli(['doctor', '--root', root]);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('DAMAGED');
    const fix = await runCli(['doctor', '--root', root, '--repair']);
    expect(fix.code, fix.stdout + fix.stderr).toBe(0);
    expect(fix.stdout).toContain(`REPAIRED: the branch now points at ${head.slice(0, 12)}`);
    const after = JSON.parse((await runCli(['call', 'list_snapshots', '{"limit": 50}', '--root', root])).stdout);
    expect(after.ok).toBe(true);
    expect(after.result.snapshots.map((s: { message: string }) => s.message)).toContain('write_file: f1.txt');
  });
});
