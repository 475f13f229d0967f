import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { NodeWorkspaceOptions } from '../../src/node/index.js';
import { bwrapProblem } from '../../src/node/process/sandbox.js';
import { eventually, node, tempWorkspace, type TempWorkspace } from './support.js';

let t: TempWorkspace;
afterEach(async () => {
  await t?.cleanup();
});

type Envelope = { ok: boolean; result?: Record<string, any>; error?: { code: string; message: string; hint?: string } };

async function open(options: NodeWorkspaceOptions = {}): Promise<TempWorkspace> {
  return (t = await tempWorkspace({ sandbox: 'os', snapshots: false, ...options }));
}
async function run(args: Record<string, unknown>): Promise<Record<string, any>> {
  const env = (await t.ws.call('run_command', args)) as Envelope;
  if (!env.ok) throw new Error(`run_command failed: ${JSON.stringify(env.error)}`);
  return env.result!;
}

// Host processes whose command line holds `marker` (a pid inside the sandbox means nothing out here).
async function hostProcessesWith(marker: string): Promise<number> {
  let count = 0;
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(marker)) count++;
  }
  return count;
}
const uniqueSleep = () => `${1000 + Math.floor(Math.random() * 1e6)}.5`;

// Linux is where the OS sandbox exists; there, bubblewrap must work (CI installs it), so a broken one fails loudly.
describe.skipIf(process.platform !== 'linux')('run_command in the OS sandbox', () => {
  it('bubblewrap works on this machine', async () => {
    expect(await bwrapProblem()).toBeNull();
  });

  it('shows the workspace as /workspace: pwd, PWD and cwd hold no host path', async () => {
    await open();
    await mkdir(join(t.root, 'sub'));
    const top = await run({ command: ['sh', '-c', 'pwd; echo "$PWD"; echo "$HOME"'] });
    expect(top.stdout).toBe('/workspace\n/workspace\n/tmp/home\n');
    const sub = await run({ command: [node, '-e', 'console.log(process.cwd())'], cwd: 'sub' });
    expect(sub.stdout).toBe('/workspace/sub\n');
    expect(JSON.stringify([top, sub])).not.toContain(t.base);
  });

  it("keeps the parent's secrets unreachable: /proc shows no parent and the environment is allow-listed", async () => {
    await open({
      baseEnv: {
        PATH: process.env.PATH,
        LANG: 'C.UTF-8',
        MY_SERVICE_TOKEN: 'tok-123-secret',
        PLAIN_SETTING: 'plain-456-value',
      },
      sandboxPolicy: { env: ['LANG'] },
    });
    const script =
      'cat /proc/$PPID/environ; echo; cat /proc/1/environ; echo; for p in /proc/[0-9]*; do echo "pid ${p#/proc/}"; done; env';
    const result = await run({ command: ['sh', '-c', script], env: { CALL_ADDED: 'yes' } });
    expect(result.exit_code).toBe(0);
    expect(result.stdout).not.toContain('tok-123-secret');
    expect(result.stdout).not.toContain('plain-456-value');
    expect(result.stdout).toContain('CALL_ADDED=yes');
    expect(result.stdout).toContain('LANG=C.UTF-8');
    // Only the sandbox's own processes exist: its init, the shell and what the shell runs; the host's pid is not among them.
    const pids = [...result.stdout.matchAll(/^pid (\d+)$/gm)].map((m) => Number(m[1]));
    expect(pids.length).toBeLessThan(6);
    expect(pids).not.toContain(process.pid);
    expect(Math.max(...pids)).toBeLessThan(10);
  });

  it('kills a setsid grandchild at the timeout, and a background task on task_kill', async () => {
    await open();
    const marker = uniqueSleep();
    const started = Date.now();
    const result = await run({ command: ['sh', '-c', `setsid sleep ${marker} & sleep 100`], timeout_seconds: 1 });
    expect(result).toMatchObject({ timed_out: true, exit_code: -1 });
    // The command sleeps 100 s: an answer well before that is the 1 s timeout at work, however
    // slow the machine; the bound is loose so that a loaded machine does not fail it.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await eventually(async () => (await hostProcessesWith(marker)) === 0)).toBe(true);

    const other = uniqueSleep();
    const task = (await t.ws.call('run_command', {
      command: ['sh', '-c', `setsid sleep ${other} & echo up; wait`],
      background: true,
    })) as Envelope;
    expect(await eventually(async () => (await hostProcessesWith(other)) === 1)).toBe(true);
    expect((await t.ws.call('task_kill', { task_id: task.result!.task_id })).ok).toBe(true);
    expect(await eventually(async () => (await hostProcessesWith(other)) === 0)).toBe(true);
  });

  it('refuses a TCP connect to 127.0.0.1 with the network off, and allows it when the policy turns it on', async () => {
    const server: Server = createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const connect = [
      node,
      '-e',
      `require('net').connect(${port}, '127.0.0.1').on('data', (d) => { console.log('got ' + d); process.exit(0); })
      .on('error', (e) => { console.log(e.code); process.exit(1); })`,
    ];
    try {
      await open();
      const off = await run({ command: connect, timeout_seconds: 120 });
      expect(off).toMatchObject({ exit_code: 1, stdout: 'ECONNREFUSED\n' });
      await t.cleanup();
      await open({ sandboxPolicy: { network: true } });
      const on = await run({ command: connect, timeout_seconds: 120 });
      expect(on).toMatchObject({ exit_code: 0, stdout: 'got hello\n' });
    } finally {
      server.close();
    }
  });

  it('lets writes land only in /workspace; the rest is read-only, absent, or a private /tmp', async () => {
    await open();
    const outside = join(t.base, 'outside', 'escaped.txt');
    const inHome = join(homedir(), `sandpit-escape-${process.pid}.txt`);
    const tmpName = `/tmp/sandpit-private-${process.pid}.txt`;
    const script = (path: string) => `echo x > '${path}' && echo wrote || echo refused`;
    for (const path of [outside, inHome, '/etc/sandpit-escape.txt', join(process.cwd(), 'escape.txt')]) {
      const result = await run({ command: ['sh', '-c', script(path)] });
      expect(result.stdout, path).toBe('refused\n');
      expect(existsSync(path), path).toBe(false);
    }
    expect((await run({ command: ['sh', '-c', script(tmpName)] })).stdout).toBe('wrote\n');
    expect(existsSync(tmpName)).toBe(false);
    expect((await run({ command: ['sh', '-c', script('/workspace/kept.txt')] })).stdout).toBe('wrote\n');
    expect(await readFile(join(t.root, 'kept.txt'), 'utf8')).toBe('x\n');
  });

  it("keeps the workspace's .git and .sandpit read-only, so a command cannot plant a hook; other files stay writable", async () => {
    await open();
    await mkdir(join(t.root, '.git', 'hooks'), { recursive: true });
    await writeFile(join(t.root, '.git', 'config'), '[core]\n');
    await mkdir(join(t.root, '.sandpit'), { recursive: true });
    const hook = await run({ command: 'sh -c "echo x > .git/hooks/pre-commit && echo wrote || echo refused"' });
    expect(hook.stdout).toBe('refused\n');
    expect(existsSync(join(t.root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    for (const script of ['echo y >> .git/config', 'rm .git/config', 'mv .git gone', 'echo z > .sandpit/planted']) {
      expect((await run({ command: ['sh', '-c', `${script} && echo wrote || echo refused`] })).stdout, script).toBe(
        'refused\n',
      );
    }
    expect(await readFile(join(t.root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(t.root, '.sandpit', 'planted'))).toBe(false);
    expect((await run({ command: ['sh', '-c', 'echo x > normal.txt && echo wrote || echo refused'] })).stdout).toBe(
      'wrote\n',
    );
    expect(await readFile(join(t.root, 'normal.txt'), 'utf8')).toBe('x\n');
  });

  it('leaves .git writable inside the sandbox when the policy allows .git writes', async () => {
    await open({ policy: { allowGitWrites: true } });
    await mkdir(join(t.root, '.git', 'hooks'), { recursive: true });
    expect(
      (await run({ command: ['sh', '-c', 'echo x > .git/hooks/pre-commit && echo wrote || echo refused'] })).stdout,
    ).toBe('wrote\n');
    expect(existsSync(join(t.root, '.git', 'hooks', 'pre-commit'))).toBe(true);
  });

  it('hides the paths the policy names: a folder shows empty, a file cannot be read', async () => {
    // Paths every Linux has, outside /tmp: the sandbox's /tmp is its own, so a checkout under /tmp is not there to hide.
    const secretFile = '/etc/passwd';
    await open({ sandboxPolicy: { hide: [secretFile] } });
    const hidden = await run({ command: ['cat', secretFile] });
    expect(hidden.exit_code).not.toBe(0);
    expect(hidden.stdout).toBe('');
    const folder = '/usr/share';
    await t.cleanup();
    await open({ sandboxPolicy: { hide: [folder] } });
    expect(await run({ command: ['ls', '-A', folder] })).toMatchObject({ exit_code: 0, stdout: '' });
    await t.cleanup();
    await open();
    expect((await run({ command: ['cat', secretFile] })).stdout).toContain('root:');
    expect((await run({ command: ['ls', '-A', folder] })).stdout).not.toBe('');
  });

  it('asked for where bubblewrap is missing: NOT_SUPPORTED with a hint, never a silent fallback; the default falls back', async () => {
    await open({ sandboxPolicy: { bwrap: join(t?.base ?? '/nonexistent', 'no-bwrap-here') } });
    const refused = (await t.ws.call('run_command', { command: 'pwd' })) as Envelope;
    expect(refused.ok).toBe(false);
    expect(refused.error!.code).toBe('NOT_SUPPORTED');
    expect(refused.error!.hint).toMatch(/bubblewrap/);
    expect(refused.error!.hint).toMatch(/sandbox: 'none'/);
    expect(JSON.stringify(refused)).not.toContain(t.base);
    await t.cleanup();
    t = await tempWorkspace({ snapshots: false, sandboxPolicy: { bwrap: '/nonexistent/bwrap' } });
    expect((await run({ command: 'pwd' })).stdout).toBe(`${t.root}\n`);
  });

  it('runs manifest tools the same way, their tool folder mounted read-only', async () => {
    const base = await mkdtemp(join(tmpdir(), 'sandpit-sandbox-tools-'));
    onTestFinished(() => rm(base, { recursive: true, force: true }));
    const toolsDir = join(base, 'tools');
    const dir = join(toolsDir, 'probe');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'probe.json'),
      JSON.stringify({ description: 'Where am I?', command: ['sh', 'probe.sh'] }),
    );
    await writeFile(
      join(dir, 'probe.sh'),
      `pwd; echo "$SANDPIT_WORKSPACE"; (echo x > "$SANDPIT_TOOL_DIR/written" && echo tool-writable) 2>/dev/null || echo tool-read-only
      cat /proc/$PPID/environ | tr '\\0' '\\n' | grep -c TOK_SECRET_VALUE; echo out > "$SANDPIT_OUTPUT_DIR/o.txt" && echo out-ok\n`,
    );
    await open({ toolsDir, baseEnv: { PATH: process.env.PATH, MY_TOKEN: 'TOK_SECRET_VALUE' } });
    const env = (await t.ws.call('probe', {})) as Envelope;
    expect(env.ok).toBe(true);
    expect(env.result!.output).toBe('/workspace\n/workspace\ntool-read-only\n0\nout-ok\n');
    expect(existsSync(join(dir, 'written'))).toBe(false);
  });
});
