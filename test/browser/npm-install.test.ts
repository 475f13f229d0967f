import { afterEach, describe, expect, inject, it } from 'vitest';
import { commands } from 'vitest/browser';
import type { RemoteWorkspace } from '../../web/client.js';
import type { BackendKind } from '../../web/protocol.js';
import { FIXTURE_PROJECT } from '../packages/fixture-tree.js';
import { connect, uniqueName } from './connect.js';

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});
type Run = { exit_code: number; stdout: string; stderr: string };
async function run(
  ws: RemoteWorkspace,
  command: string,
  onProgress?: (done: number, total?: number, message?: string) => void,
): Promise<Run> {
  const r = await ws.call('run_command', { command, timeout_seconds: 120 }, onProgress ? { onProgress } : {});
  if (!r.ok) throw new Error(`run_command failed: ${JSON.stringify(r.error)}`);
  return r.result as Run;
}
async function read(ws: RemoteWorkspace, path: string): Promise<string | null> {
  const r = await ws.call('read_file', { path });
  return r.ok ? (r.result as { content: string }).content : null;
}

/** What the lock says of each package, as the npm CLI's lock is compared (paths, versions, where from, flags). */
const treeOf = (lock: { packages: Record<string, Record<string, unknown>> }) =>
  Object.fromEntries(
    Object.entries(lock.packages).map(([path, e]) => [
      path,
      {
        version: e.version,
        resolved: e.resolved,
        integrity: e.integrity,
        dev: e.dev,
        optional: e.optional,
        peer: e.peer,
      },
    ]),
  );
/** The real npm CLI's lock for the fixture project on the same registry, resolved once for both backends. */
let npmCliLock: ReturnType<typeof commands.npmCliLock> | undefined;

describe.each<BackendKind>(['opfs', 'indexeddb'])('npm install in the shell of a Chromium worker on %s', (backend) => {
  it('installs the 22-package fixture tree from the local registry as the npm CLI locks it: nested conflict, scoped, peer, .bin; refuses an integrity mismatch; undo and redo of the install carry node_modules', async () => {
    const { url } = inject('npmRegistry');
    // The registry as the workspace's option (no .npmrc): the worker's shell passes it to npm.
    const ws = await connect({ backend, name: uniqueName(`npm-${backend}`), npmRegistry: url });
    open.push(ws);
    await ws.call('write_file', { path: 'package.json', content: JSON.stringify(FIXTURE_PROJECT, null, 2) });
    // The page hears the install's progress across the worker, every report before the envelope.
    const heard: string[] = [];
    const installed = await run(ws, 'npm install', (_done, _total, message) => heard.push(message ?? ''));
    heard.push('envelope');
    expect(installed).toMatchObject({ exit_code: 0, stderr: '' });
    expect(heard).toContainEqual(expect.stringMatching(/^resolving \d+\/\d+ packages/));
    expect(heard.at(-2)).toMatch(/^fetching 22\/22 packages, \d+ bytes$/);
    expect(installed.stdout).toMatch(/added 22 packages/);
    const lock = JSON.parse((await read(ws, 'package-lock.json'))!);
    expect(lock.lockfileVersion).toBe(3);
    expect(lock.packages['node_modules/b/node_modules/shared'].version).toBe('2.0.0');
    expect(lock.packages['node_modules/shared'].version).toBe('1.2.0');
    expect(lock.packages['node_modules/host']).toMatchObject({ version: '2.0.0', peer: true });
    // The same tree as the npm CLI resolves against the same registry.
    npmCliLock ??= commands.npmCliLock(url, FIXTURE_PROJECT);
    expect(treeOf(lock)).toEqual(treeOf(await npmCliLock));
    // fsnative is for another OS: locked as optional, not unpacked (the browser is its own platform)
    expect(lock.packages['node_modules/fsnative']).toMatchObject({ optional: true });
    expect(await read(ws, 'node_modules/fsnative/package.json')).toBeNull();
    expect(await read(ws, 'node_modules/@scope/c/index.js')).toContain('@scope/c@1.2.0');
    expect(await read(ws, 'node_modules/b/node_modules/shared/index.js')).toContain('shared@2.0.0');
    expect(await read(ws, 'node_modules/.bin/tool')).toContain('../tool/cli.js');
    expect((await run(ws, 'npm ls')).stdout).toContain('├── b@1.0.0\n');

    // A tarball that is not what its integrity says: refused, naming it, and nothing written.
    const before = { pkg: await read(ws, 'package.json'), lock: await read(ws, 'package-lock.json') };
    const refused = await run(ws, 'npm install tampered');
    expect(refused.exit_code).toBe(1);
    expect(refused.stderr).toMatch(/tampered@1\.0\.0.*integrity/);
    expect({ pkg: await read(ws, 'package.json'), lock: await read(ws, 'package-lock.json') }).toEqual(before);
    expect(await read(ws, 'node_modules/tampered/package.json')).toBeNull();

    const added = await run(ws, 'npm install l1@^1');
    expect(added).toMatchObject({ exit_code: 0, stderr: '' });
    expect(JSON.parse((await read(ws, 'package.json'))!).dependencies.l1).toBe('^1.0.0');
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(JSON.parse((await read(ws, 'package.json'))!).dependencies.l1).toBeUndefined();

    // Undo of the whole install: snapshots leave node_modules out, so it goes with the lock in the
    // same call; the redo brings it back from the lock and the tarballs this browser cached.
    const undone = await ws.call('undo', {});
    expect(undone.ok && undone.result).toMatchObject({
      packages: expect.stringMatching(/^node_modules: removed \d+ \(from the lock and the tarball cache\)$/),
    });
    expect(await read(ws, 'package-lock.json')).toBeNull();
    const gone = await ws.call('exists', { path: 'node_modules' });
    expect(gone.ok && gone.result.exists).toBe(false);
    const redo = await ws.call('restore_snapshot', { id: undone.ok ? undone.result.redo_with : '' });
    expect(redo.ok && redo.result).toMatchObject({ packages: expect.stringMatching(/^node_modules: added \d+ /) });
    expect(await read(ws, 'node_modules/b/node_modules/shared/index.js')).toContain('shared@2.0.0');
    expect(await read(ws, 'node_modules/.bin/tool')).toContain('../tool/cli.js');
    expect((await run(ws, 'npm ls')).stdout).toContain('├── b@1.0.0\n');

    // A new workspace reinstalls from the lock and the tarballs Cache Storage kept.
    const again = await connect({ backend, name: uniqueName(`npm-again-${backend}`) });
    open.push(again);
    for (const path of ['package.json', 'package-lock.json']) {
      await again.call('write_file', { path, content: (await read(ws, path))! });
    }
    await again.call('write_file', { path: '.npmrc', content: 'registry=http://127.0.0.1:9/\n' });
    expect(await run(again, 'npm ci')).toMatchObject({ exit_code: 0, stderr: '' });
    expect(await read(again, 'node_modules/a/package.json')).toContain('"version": "1.1.0"');
    // Two installs and a clean install of 22 packages on a shared, loaded machine: time is not what this test checks.
  }, 240_000);
});
