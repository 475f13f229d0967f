import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCli, runCli } from './built-cli.js';
import { createRepo, filesOnBranch, startGitServer, type GitServer } from '../git/git-server.js';

let server: GitServer;
let base: string;
beforeAll(async () => {
  await buildCli();
  server = await startGitServer();
  base = await mkdtemp(join(tmpdir(), 'sandpit-cli-git-'));
});
afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
});

/** Run the built CLI with an environment of our choosing (the token travels only there). */
const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env: { SANDPIT_GIT_TOKEN: '', ...env } });

it('clones into a folder, pushes a folder edited by any means to a branch, and git sees it', async () => {
  createRepo(server, 'cli', { 'README.md': '# CLI\n', 'lib/x.js': 'x\n' });
  const dir = join(base, 'clone-here');
  const cloned = await run(['clone', `${server.url}/cli.git`, dir, '--progress']);
  expect(cloned.code).toBe(0);
  expect(JSON.parse(cloned.stdout)).toMatchObject({ ok: true, tool: 'git_clone', result: { files: 2, ref: 'main' } });
  expect(cloned.stderr).toContain('Writing files');
  expect(await readFile(join(dir, 'lib/x.js'), 'utf8')).toBe('x\n');
  await writeFile(join(dir, 'lib/x.js'), 'x edited in an editor\n');

  const secret = server.token;
  const pushed = await run(['push', '--root', dir, '--branch', 'agent/cli'], { SANDPIT_GIT_TOKEN: secret });
  expect(pushed.code).toBe(0);
  expect(JSON.parse(pushed.stdout)).toMatchObject({
    ok: true,
    result: { branch: 'agent/cli', url: `${server.url}/cli.git` },
  });
  expect(filesOnBranch(server, 'cli', 'agent/cli')).toEqual({
    'README.md': '# CLI\n',
    'lib/x.js': 'x edited in an editor\n',
  });
  expect(pushed.stdout + pushed.stderr).not.toContain(secret);
});

it('exits 1 with PERMISSION_DENIED for a wrong token, 2 for a usage error, and refuses a non-empty folder', async () => {
  createRepo(server, 'cli2', { 'a.txt': 'a\n' });
  const dir = join(base, 'second');
  expect((await run(['clone', `${server.url}/cli2.git`, dir])).code).toBe(0);
  await writeFile(join(dir, 'a.txt'), 'changed\n');
  const refused = await run(
    ['push', '--root', dir, '--remote', `${server.url}/cli2.git`, '--branch', 'x', '--token-env', 'MY_TOKEN'],
    { MY_TOKEN: 'bad-token-123' },
  );
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
  expect(refused.stdout + refused.stderr).not.toContain('bad-token-123');
  expect((await run(['push', '--branch', 'x'])).code).toBe(2);
  expect((await run(['clone', `${server.url}/cli2.git`, dir])).code).toBe(2);
  expect((await run(['clone', `${server.url}/cli2.git`, dir, '--token', 'x'])).code).toBe(2);
});
