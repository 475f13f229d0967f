import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, eventually, node, tempWorkspace, type TempWorkspace } from './support.js';

let t: TempWorkspace;
afterEach(async () => {
  await t?.cleanup();
});

type Ok = { ok: true; result: Record<string, any> };
type Fail = { ok: false; error: { code: string; message: string; hint?: string; problems?: unknown[] } };

async function run(args: Record<string, unknown>) {
  return (await t.ws.call('run_command', args)) as Ok | Fail;
}
function ok(env: Ok | Fail): Record<string, any> {
  if (!env.ok) throw new Error(`expected success, got ${JSON.stringify(env.error)}`);
  return env.result;
}
function fail(env: Ok | Fail): Fail['error'] {
  if (env.ok) throw new Error(`expected failure, got ${JSON.stringify(env.result)}`);
  return env.error;
}

describe('run_command on real processes', () => {
  it('reports exit codes and both streams; a nonzero exit is a successful call', async () => {
    t = await tempWorkspace();
    const good = ok(await run({ command: [node, '-e', 'console.log("out"); console.error("err")'] }));
    expect(good).toMatchObject({ exit_code: 0, stdout: 'out\n', stderr: 'err\n', timed_out: false, truncated: false });
    expect(good.duration_ms).toBeGreaterThanOrEqual(0);
    const bad = ok(await run({ command: [node, '-e', 'process.stderr.write("nope"); process.exit(3)'] }));
    expect(bad).toMatchObject({ exit_code: 3, stderr: 'nope', timed_out: false });
  });

  it('answers a missing executable with NOT_FOUND and no host path', async () => {
    t = await tempWorkspace();
    const error = fail(await run({ command: 'no-such-program-xyz --flag' }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('no-such-program-xyz');
    expect(JSON.stringify(error)).not.toContain(t.root);
  });

  it('caps a 100 MB stream to head and tail without buffering it', async () => {
    t = await tempWorkspace();
    const script =
      'const mb = (c) => Buffer.alloc(1 << 20, c);' +
      'process.stdout.write(mb(97));' +
      'let i = 0; (function next() { while (i < 98) { i++; if (!process.stdout.write(mb(98))) return process.stdout.once("drain", next); }' +
      'process.stdout.write(mb(122)); process.stderr.write("e".repeat(24576)); })();';
    const started = Date.now();
    const result = ok(await run({ command: [node, '-e', script], timeout_seconds: 60 }));
    // Well inside the call's own 60 s limit: not killed at it, however loaded the machine.
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(result.exit_code).toBe(0);
    expect(result.truncated).toBe(true);
    expect(result.stdout.length).toBeLessThan(16 * 1024 + 200);
    expect(result.stdout.startsWith('a'.repeat(8192))).toBe(true);
    expect(result.stdout.endsWith('z'.repeat(8192))).toBe(true);
    expect(
      result.stdout.includes(
        `[... ${100 * 1024 * 1024 - 16 * 1024} bytes cut: the stream was ${100 * 1024 * 1024} bytes`,
      ),
    ).toBe(true);
    expect(result.stderr.includes('8192 bytes cut')).toBe(true);
    expect(result.stderr.length).toBeLessThan(16 * 1024 + 200);
  });

  it('kills the whole process group on timeout, grandchildren included (without the OS sandbox)', async () => {
    t = await tempWorkspace({ sandbox: 'none' });
    const started = Date.now();
    const result = ok(await run({ command: ['sh', '-c', 'sleep 60 & echo $!; wait'], timeout_seconds: 1 }));
    expect(result).toMatchObject({ timed_out: true, exit_code: -1 });
    // The command sleeps 60 s: an answer well before that is the 1 s timeout at work; the bound is
    // loose so that a loaded machine does not fail it.
    expect(Date.now() - started).toBeLessThan(30_000);
    const grandchild = Number(result.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await alive(grandchild)).toBe(false);
  });

  it('kills a setsid grandchild at the timeout without the OS sandbox too, while its parent still runs', async () => {
    t = await tempWorkspace({ sandbox: 'none' });
    const result = ok(
      await run({ command: ['sh', '-c', 'setsid sleep 1000 & echo $!; sleep 100'], timeout_seconds: 1 }),
    );
    expect(result).toMatchObject({ timed_out: true, exit_code: -1 });
    const grandchild = Number(result.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await eventually(async () => !(await alive(grandchild)))).toBe(true);
  });

  it('runs no shell: variables, pipes, redirections and globs are literal words', async () => {
    t = await tempWorkspace();
    await writeFile(join(t.root, 'a.ts'), '');
    const result = ok(await run({ command: `echo $HOME \${USER}x "a  b" 'c $d' a | b > out.txt *.ts && c; # hi` }));
    expect(result.stdout).toBe('$HOME ${USER}x a  b c $d a | b > out.txt *.ts && c ; # hi\n');
    expect(existsSync(join(t.root, 'out.txt'))).toBe(false);
    const argv = ok(await run({ command: ['printf', '%s|', 'a b', '$HOME', '*'] }));
    expect(argv.stdout).toBe('a b|$HOME|*|');
  });

  it('confines cwd to the workspace (host paths without the OS sandbox)', async () => {
    t = await tempWorkspace({ sandbox: 'none' });
    await mkdir(join(t.root, 'sub'));
    await symlink(join(t.base, 'outside'), join(t.root, 'escape'));
    const inSub = ok(await run({ command: [node, '-e', 'console.log(process.cwd())'], cwd: 'sub' }));
    expect(inSub.stdout.trim()).toBe(join(t.root, 'sub'));
    for (const cwd of ['../outside', '/tmp', 'escape', 'sub/../../outside']) {
      const error = fail(await run({ command: 'pwd', cwd }));
      expect(error.code, cwd).toBe('OUTSIDE_WORKSPACE');
      expect(JSON.stringify(error)).not.toContain(t.base);
    }
    expect(fail(await run({ command: 'pwd', cwd: 'missing' })).code).toBe('NOT_FOUND');
    await writeFile(join(t.root, 'file.txt'), 'x');
    expect(fail(await run({ command: 'pwd', cwd: 'file.txt' })).code).toBe('NOT_A_DIRECTORY');
  });

  it('withholds credential-like variables and adds the call env (without the OS sandbox)', async () => {
    t = await tempWorkspace({
      sandbox: 'none',
      baseEnv: {
        PATH: process.env.PATH,
        MY_API_KEY: 'k',
        GITHUB_TOKEN: 't',
        DB_PASSWORD: 'p',
        AWS_SECRET: 's',
        CORP_THING: 'c',
        ZAGENT_OLD: 'z',
        SAFE_VALUE: 'ok',
        DATABASE_URL: 'postgres://app:hunter2@db.internal:5432/app',
        NPM_CONFIG__AUTH: 'dXNlcjpwYXNz',
        SSH_AUTH_SOCK: '/run/agent.sock',
        ALERTS: 'https://hooks.slack.com/services/T000/B000/XXXX',
        GIT_AUTHOR_NAME: 'Ada',
        PLAIN_URL: 'https://example.org/a:b',
      },
      scrubEnv: ['CORP_*'],
    });
    const result = ok(
      await run({ command: [node, '-e', 'console.log(JSON.stringify(process.env))'], env: { EXTRA: '1' } }),
    );
    const env = JSON.parse(result.stdout) as Record<string, string>;
    expect(env.SAFE_VALUE).toBe('ok');
    expect(env.EXTRA).toBe('1');
    expect(env.GIT_AUTHOR_NAME).toBe('Ada');
    expect(env.PLAIN_URL).toBe('https://example.org/a:b');
    const withheld = [
      'MY_API_KEY',
      'GITHUB_TOKEN',
      'DB_PASSWORD',
      'AWS_SECRET',
      'CORP_THING',
      'ZAGENT_OLD',
      'DATABASE_URL',
      'NPM_CONFIG__AUTH',
      'SSH_AUTH_SOCK',
      'ALERTS',
    ];
    for (const name of withheld) expect(env[name], name).toBeUndefined();
  });

  it('checks its arguments against the schema', async () => {
    t = await tempWorkspace();
    const error = fail(await run({ command: 'echo', timeout_seconds: 0, shell: true }));
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.problems).toEqual(
      expect.arrayContaining([
        { path: '/timeout_seconds', message: 'must be > 0' },
        { path: '/shell', message: 'is not a known argument' },
      ]),
    );
    expect(fail(await run({ command: '   ' })).code).toBe('INVALID_ARGUMENTS');
  });

  it('rescans after a command, so its changes are snapshotted and stale reads are caught', async () => {
    t = await tempWorkspace();
    await writeFile(join(t.root, 'notes.txt'), 'one\n');
    expect((await t.ws.call('read_file', { path: 'notes.txt' })).ok).toBe(true);
    const result = ok(
      await run({
        command: [
          node,
          '-e',
          'const fs = require("fs"); fs.writeFileSync("notes.txt", "two\\n"); fs.writeFileSync("new.txt", "x")',
        ],
      }),
    );
    expect(result.changed_files).toEqual(['new.txt', 'notes.txt']);
    expect(t.ws.changes.get(result.change_id)).toMatchObject({
      tool: 'run_command',
      files: [{ path: 'new.txt' }, { path: 'notes.txt' }],
    });
    const snapshots = (await t.ws.call('list_snapshots', {})) as Ok;
    expect(snapshots.ok).toBe(true);
    expect(JSON.stringify(snapshots.result)).toContain('rescan');
    const quiet = ok(await run({ command: [node, '-e', '0'] }));
    expect(quiet.changed_files).toBeUndefined();
    const edit = fail(
      (await t.ws.call('edit_file', { path: 'notes.txt', old_text: 'one', new_text: 'three' })) as Ok | Fail,
    );
    expect(['STALE_FILE', 'NO_MATCH']).toContain(edit.code);
    expect(edit.code).toBe('STALE_FILE');
  });
});
