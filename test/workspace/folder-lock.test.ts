import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/open.js';
import { folderLock } from '../../src/node/process/folder-lock.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sandpit-folder-lock-'));
  await mkdir(join(root, '.sandpit'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const lockBody = (pid: number) => JSON.stringify({ pid, token: `${pid}-planted`, since: new Date().toISOString() });
// Long staleness, short wait: only the owner's pid can free the lock within the wait.
const strict = () => folderLock(root, { waitMs: 1_500, staleMs: 600_000 });

/** A process that has exited but was never reaped: `sleep` inherits it and never waits. */
function zombie(): Promise<{ pid: number; end: () => void }> {
  return new Promise((resolve, reject) => {
    const keeper = spawn('sh', ['-c', 'true & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    keeper.on('error', reject);
    keeper.stdout.setEncoding('utf8').once('data', async (line: string) => {
      const pid = Number(line.trim());
      for (let i = 0; i < 100; i++) {
        const state = spawnSync('sh', ['-c', `cut -d' ' -f3 /proc/${pid}/stat`], { encoding: 'utf8' }).stdout.trim();
        if (state === 'Z') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      resolve({ pid, end: () => keeper.kill('SIGKILL') });
    });
  });
}

describe('the workspace lock on a real folder', () => {
  it('takes over at once a lock whose owner has exited', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(join(root, '.sandpit', 'lock'), lockBody(gone));
    const release = await strict().acquire();
    await release();
  });

  it.runIf(process.platform === 'linux')(
    'takes over a lock whose owner was killed and not yet reaped by its parent',
    async () => {
      const dead = await zombie();
      try {
        await writeFile(join(root, '.sandpit', 'lock'), lockBody(dead.pid));
        const release = await strict().acquire();
        await release();
      } finally {
        dead.end();
      }
    },
  );

  it('waits for a live owner with a beating heart, then says the workspace is busy', async () => {
    const owner = spawn('sleep', ['30']);
    try {
      await writeFile(join(root, '.sandpit', 'lock'), lockBody(owner.pid!));
      // Nothing frees this lock, so how long the wait lasts decides nothing but the test's length.
      await expect(folderLock(root, { waitMs: 200, staleMs: 600_000 }).acquire()).rejects.toMatchObject({
        code: 'IO_ERROR',
        message: expect.stringContaining('busy in another process'),
      });
    } finally {
      owner.kill('SIGKILL');
    }
  });

  it('never leaves its staged lock body behind, and sweeps those a killed process left', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(join(root, '.sandpit', `lock.${gone}-abcdef012345.new`), lockBody(gone));
    const lock = strict();
    for (let i = 0; i < 3; i++) {
      const release = await lock.acquire();
      expect((await readdir(join(root, '.sandpit'))).sort()).toEqual(['lock']);
      await release();
    }
    expect(await readdir(join(root, '.sandpit'))).toEqual([]);
  });

  it.runIf(process.platform === 'linux')(
    'refuses a .sandpit that is a link, and never puts a lock file outside',
    async () => {
      const outside = await mkdtemp(join(tmpdir(), 'sandpit-folder-lock-outside-'));
      try {
        await rm(join(root, '.sandpit'), { recursive: true });
        await symlink(outside, join(root, '.sandpit'));
        const refused = await strict()
          .acquire()
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(refused).toMatchObject({
          code: 'IO_ERROR',
          message: expect.stringContaining('.sandpit in the workspace is not a folder'),
        });
        expect(String((refused as Error).message)).not.toContain(root);
        expect(await readdir(outside)).toEqual([]);
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    },
  );

  it.runIf(process.platform === 'linux')(
    'keeps every lock file inside while another process swaps .sandpit for a link outside',
    async () => {
      const outside = await mkdtemp(join(tmpdir(), 'sandpit-folder-lock-outside-'));
      await rm(join(root, '.sandpit'), { recursive: true });
      await writeFile(join(root, 'a.txt'), '');
      const swapper = spawn(
        process.execPath,
        [
          '-e',
          `
      const fs = require('node:fs');
      const [link, parked, target] = process.argv.slice(1);
      for (;;) {
        try { fs.renameSync(link, parked); } catch {}
        try { fs.symlinkSync(target, link); } catch {}
        try { fs.unlinkSync(link); } catch {}
        try { fs.renameSync(parked, link); } catch {}
      }`,
          join(root, '.sandpit'),
          join(root, 'parked'),
          outside,
        ],
        { stdio: 'ignore' },
      );
      const ws = openNodeWorkspace(root, { snapshots: false });
      try {
        let ok = 0;
        for (let i = 0; i < 300; i++) if ((await ws.call('append_file', { path: 'a.txt', content: 'x' })).ok) ok++;
        expect(ok).toBeGreaterThan(0);
        expect(await readdir(outside)).toEqual([]);
      } finally {
        swapper.kill('SIGKILL');
        await ws.close();
        await rm(outside, { recursive: true, force: true });
      }
    },
  );

  it('keeps the lock through a burst of changes, taking it once, and lets go after it or on close', async () => {
    const lock = folderLock(root, { lingerMs: 300 });
    for (let i = 0; i < 20; i++) await (await lock.acquire())();
    expect(lock.takes).toBe(1);
    expect(await readdir(join(root, '.sandpit'))).toEqual(['lock']);
    await expect.poll(() => readdir(join(root, '.sandpit'))).toEqual([]);
    await (await lock.acquire())();
    expect(lock.takes).toBe(2);
    lock.close();
    expect(await readdir(join(root, '.sandpit'))).toEqual([]);
  });

  it('stops keeping the lock while another process asks for it, so that one gets it during a burst', async () => {
    const lock = folderLock(root, { lingerMs: 60_000 });
    const child = inOtherProcess(`
      const started = Date.now();
      try {
        const release = await folderLock(ROOT, { waitMs: 8_000 }).acquire();
        process.stdout.write('got ' + (Date.now() - started) + '\\n');
        await release();
      } catch (error) {
        process.stdout.write('failed ' + error.code + '\\n');
      }`);
    let holds = 0;
    // changes back to back: between them only this process's own events run
    while (child.exitCode === null) {
      const release = await lock.acquire();
      holds++;
      await release();
      await new Promise((r) => setImmediate(r));
    }
    expect(child.out()).toMatch(/^got \d+\n$/);
    expect(holds).toBeGreaterThan(1);
    expect(lock.takes).toBeGreaterThan(1);
    lock.close();
  });

  it.runIf(process.platform === 'linux')(
    'lets go of a kept lock quietly when .sandpit became a link meanwhile',
    async () => {
      const outside = await mkdtemp(join(tmpdir(), 'sandpit-folder-lock-outside-'));
      try {
        const lock = folderLock(root, { lingerMs: 50 });
        await (await lock.acquire())();
        await rename(join(root, '.sandpit'), join(root, 'parked'));
        await symlink(outside, join(root, '.sandpit'));
        await new Promise((r) => setTimeout(r, 200));
        expect(await readdir(outside)).toEqual([]);
        await expect(lock.acquire()).rejects.toMatchObject({ code: 'IO_ERROR' });
        expect(await readdir(outside)).toEqual([]);
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    },
  );

  it('lets go of a kept lock when the process exits', async () => {
    const child = inOtherProcess(`
      const lock = folderLock(ROOT, { lingerMs: 60_000 });
      await (await lock.acquire())();
      process.stdout.write(require('node:fs').readdirSync(ROOT + '/.sandpit').join(',') + '\\n');`);
    await new Promise((r) => child.once('exit', r));
    expect(child.out()).toBe('lock\n');
    expect(await readdir(join(root, '.sandpit'))).toEqual([]);
  });
});

/** A node process running `body` with `folderLock` from the built package and ROOT set. */
function inOtherProcess(body: string) {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const { folderLock } = await import(${JSON.stringify(resolve('dist/node/process/folder-lock.js'))});
    const ROOT = ${JSON.stringify(root)};
    ${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  return Object.assign(child, { out: () => out });
}
