import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeWorkspaceOptions } from '../../src/node/index.js';
import { bwrapProblem } from '../../src/node/process/sandbox.js';
import { node, tempWorkspace, type TempWorkspace } from './support.js';

let t: TempWorkspace;
afterEach(async () => {
  await t?.cleanup();
});

type Envelope = { ok: boolean; result?: Record<string, any>; error?: { code: string; message: string } };

const bwrapMissing = process.platform !== 'linux' || (await bwrapProblem()) !== null;

async function open(options: NodeWorkspaceOptions): Promise<TempWorkspace> {
  return (t = await tempWorkspace({ snapshots: false, ...options }));
}
async function call(args: Record<string, unknown>): Promise<Envelope> {
  return (await t.ws.call('run_command', args)) as Envelope;
}

describe.skipIf(bwrapMissing)('no host path inside the OS sandbox', () => {
  it("neither bubblewrap's command line, the environment nor the mount table names the workspace's host folder", async () => {
    // PATH as a developer's often is: tools under the home folder and the project's node_modules/.bin first.
    const home = homedir();
    await open({
      sandbox: 'os',
      baseEnv: { ...process.env, PATH: `${home}/.local/bin:${process.cwd()}/node_modules/.bin:/usr/bin:/bin` },
    });
    const script =
      'tr "\\0" " " < /proc/1/cmdline; echo; cat /proc/1/environ; echo; env; ls -l /proc/self/fd /proc/1/fd';
    const env = await call({ command: ['sh', '-c', script] });
    expect(env.ok).toBe(true);
    const seen = `${env.result!.stdout}${env.result!.stderr}`;
    expect(seen).toContain('HOME=/tmp/home');
    // The workspace's folder, the folder above it (a unique temp name) and the home folder appear nowhere.
    for (const name of [t.root, t.base, basename(t.base), home, process.cwd()]) expect(seen).not.toContain(name);
    // PATH keeps the system folders, so ordinary programs are still found.
    expect(seen).toMatch(/^PATH=.*\/usr\/bin/m);
    expect((await call({ command: ['sh', '-c', 'command -v git'] })).result!.stdout).toMatch(/git\n$/);
    expect((await call({ command: [node, '-e', 'console.log(1)'] })).result!.stdout).toBe('1\n');
  });

  it("/proc/self/mountinfo names the workspace's folder on the /workspace line only (the kernel's, documented)", async () => {
    await open({ sandbox: 'os' });
    const env = await call({ command: ['sh', '-c', 'cat /proc/self/mountinfo; cat /proc/self/mounts'] });
    expect(env.ok).toBe(true);
    const lines = env.result!.stdout.split('\n');
    // The field the kernel fills with the bind's source folder; every other line is free of it.
    const leaking = lines.filter((line: string) => line.includes(basename(t.base)));
    expect(leaking.length).toBeGreaterThan(0);
    for (const line of leaking) expect(line.split(' ')[4]).toMatch(/^\/workspace(\/|$)/);
  });
});

// A folder whose name starts with two dots is an ordinary folder inside the root.
describe.each([
  { sandbox: 'none' as const, skip: false },
  { sandbox: 'os' as const, skip: bwrapMissing },
])('cwd by path components (sandbox $sandbox)', ({ sandbox, skip }) => {
  it.skipIf(skip)("runs in a folder named '..x' and refuses '..' and '../x'", async () => {
    await open({ sandbox });
    await mkdir(join(t.root, '..x'));
    await mkdir(join(t.root, '..x', '..y'));
    await mkdir(join(t.base, 'x'));
    const inside = sandbox === 'os' ? '/workspace' : t.root;
    for (const [cwd, expected] of [
      ['..x', `${inside}/..x`],
      ['..x/..y', `${inside}/..x/..y`],
    ] as const) {
      const env = await call({ command: [node, '-e', 'console.log(process.cwd())'], cwd });
      expect(env.ok, cwd).toBe(true);
      expect(env.result!.stdout, cwd).toBe(`${expected}\n`);
    }
    // a write from '..x' lands inside the workspace
    const write = await call({ command: ['sh', '-c', 'echo hi > note.txt && cat note.txt'], cwd: '..x' });
    expect(write.result!.stdout).toBe('hi\n');
    for (const cwd of ['..', '../x', '../ws/..x', '..x/../..']) {
      const env = await call({ command: 'pwd', cwd });
      expect(env.ok, cwd).toBe(false);
      expect(env.error!.code, cwd).toBe('OUTSIDE_WORKSPACE');
    }
  });
});
