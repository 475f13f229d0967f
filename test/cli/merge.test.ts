import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/index.js';
import { buildCli, runCli } from './built-cli.js';

let dir: string;
beforeAll(async () => {
  await buildCli();
  dir = await mkdtemp(join(tmpdir(), 'sandpit-cli-merge-'));
  await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\nfour\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each CLI run starts a Node process; on a loaded machine a few of them take more than the default 30 s.
it('merges a fork made by another process, forks and drops from the CLI, and refuses an unknown fork', async () => {
  // a host process forks the folder's workspace and an agent works in the fork
  const ws = openNodeWorkspace(dir);
  const fork = await ws.fork({ name: 'agent' });
  await fork.call('read_file', { path: 'a.txt' });
  expect((await fork.call('write_file', { path: 'a.txt', content: 'ONE\ntwo\nthree\nfour\n' })).ok).toBe(true);
  expect((await fork.call('write_file', { path: 'b.txt', content: 'new\n' })).ok).toBe(true);
  await ws.close();

  const listed = await runCli(['merge', '--root', dir, '--list']);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).result.forks.map((f: { name: string }) => f.name)).toEqual(['agent']);
  const dry = await runCli(['merge', '--root', dir, 'agent', '--dry-run']);
  expect(JSON.parse(dry.stdout)).toMatchObject({
    ok: true,
    tool: 'merge_workspace',
    result: { dry_run: true, clean: true },
  });
  expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\nfour\n');
  const merged = await runCli(['merge', '--root', dir, 'agent']);
  expect(merged.code).toBe(0);
  expect(JSON.parse(merged.stdout).result.files.map((f: { path: string }) => f.path)).toEqual(['a.txt', 'b.txt']);
  expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('ONE\ntwo\nthree\nfour\n');
  expect(await readFile(join(dir, 'b.txt'), 'utf8')).toBe('new\n');

  // a fork made by the CLI is listed to a host, and dropped by the CLI
  expect((await runCli(['fork', '--root', dir, 'second'])).code).toBe(0);
  const again = openNodeWorkspace(dir);
  const second = (await again.forks()).find((f) => f.name === 'second');
  expect(second?.forked_from).toEqual(expect.any(String));
  // and this process reopens it by name, reads through to the parent and works in it
  const reopened = await again.openFork('second');
  expect(reopened.forkInfo.id).toBe(second?.id);
  const through = await reopened.call('read_file', { path: 'b.txt' });
  expect(through.ok && through.result.content).toBe('new\n');
  expect((await reopened.call('write_file', { path: 'c/d.txt', content: 'from the reopened fork\n' })).ok).toBe(true);
  await again.close();
  const wouldMerge = await runCli(['merge', '--root', dir, 'second', '--dry-run']);
  expect(JSON.parse(wouldMerge.stdout).result.files).toEqual([{ path: 'c/d.txt', action: 'added' }]);
  const noFork = await runCli(['merge', '--root', dir, 'nope']);
  expect(noFork.code).toBe(1);
  expect(JSON.parse(noFork.stdout).error.code).toBe('NOT_FOUND');
  const dropped = await runCli(['merge', '--root', dir, '--drop', 'second']);
  expect(JSON.parse(dropped.stdout)).toMatchObject({ ok: true, tool: 'drop_fork', result: { dropped: 'second' } });
  // the reopened fork's snapshot objects went with it, and the store is whole
  expect(JSON.parse(dropped.stdout).result.freed_objects).toBeGreaterThan(0);
  const fsck = spawnSync('git', [`--git-dir=${join(dir, '.sandpit', 'git')}`, 'fsck', '--full', '--no-dangling'], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
  });
  expect(fsck.status).toBe(0);
  expect(fsck.stdout + fsck.stderr).not.toMatch(/missing|broken|error/i);
  const usage = await runCli(['merge', '--root', dir]);
  expect(usage.code).toBe(2);
});
