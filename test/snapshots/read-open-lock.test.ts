import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/open.js';

type Out = Record<string, any>;
const scratch: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill();
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** Another process holding the workspace lock, through the built package, until told to let go. */
async function holdLock(root: string): Promise<{ pid: number; release: () => Promise<void> }> {
  const lockModule = resolve('dist/node/process/folder-lock.js');
  const script = `
    const { folderLock } = await import(${JSON.stringify(lockModule)});
    const release = await folderLock(${JSON.stringify(root)}).acquire();
    process.stdout.write('held\\n');
    process.stdin.once('data', async () => { await release(); process.stdout.write('released\\n'); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  const said = (word: string) =>
    new Promise<void>((done, fail) => {
      const check = () => {
        if (out.includes(`${word}\n`)) done();
      };
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        check();
      });
      child.once('exit', (code) => fail(new Error(`the lock holder exited (${code}) before saying '${word}'`)));
      check();
    });
  await said('held');
  return {
    pid: child.pid!,
    release: async () => {
      const gone = new Promise((done) => child.once('exit', done));
      child.stdin!.write('go\n');
      await said('released');
      await gone;
    },
  };
}

async function call(ws: ReturnType<typeof openNodeWorkspace>, tool: string, args: Out): Promise<Out> {
  const r = await ws.call(tool, args);
  if (!r.ok) throw new Error(`${tool}: ${JSON.stringify(r.error)}`);
  return r.result as Out;
}

describe('a read that opens the snapshot store first', () => {
  it('writes nothing while another process holds the lock, and the next change commits what it found', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandpit-read-open-'));
    scratch.push(root);
    const first = openNodeWorkspace(root);
    await call(first, 'write_file', { path: 'a.txt', content: 'a\n' });
    await first.close();
    // a change made while no Sandpit process had the folder open
    await writeFile(join(root, 'b.txt'), 'behind the back\n');

    const gitdir = join(root, '.sandpit', 'git');
    const ref = () => readFile(join(gitdir, 'refs', 'heads', 'main'), 'utf8');
    const objects = async () =>
      (
        await Promise.all(
          (
            await readdir(join(gitdir, 'objects'))
          )
            .filter((d) => d.length === 2)
            .map((d) => readdir(join(gitdir, 'objects', d))),
        )
      ).flat().length;
    const holder = await holdLock(root);
    const [refBefore, objectsBefore] = [await ref(), await objects()];

    const second = openNodeWorkspace(root);
    const listed = await call(second, 'list_snapshots', {});
    const read = await call(second, 'read_file', { path: 'b.txt' });
    expect(read.content).toBe('behind the back\n');
    // the read answered from the history on disk and moved nothing: the lock's holder owns the branch
    expect(listed.snapshots.map((s: Out) => s.message)).toEqual(['write_file: a.txt', 'Workspace opened']);
    expect(await ref()).toBe(refBefore);
    expect(await objects()).toBe(objectsBefore);
    expect(JSON.parse(await readFile(join(root, '.sandpit', 'lock'), 'utf8')).pid).toBe(holder.pid);
    await holder.release();

    // the next change holds the lock: it commits the changes found at the open first, then its own
    const wrote = await call(second, 'write_file', { path: 'c.txt', content: 'c\n' });
    expect(wrote.snapshot_error).toBeUndefined();
    const after = await call(second, 'list_snapshots', {});
    expect(after.snapshots.map((s: Out) => s.message)).toEqual([
      'write_file: c.txt',
      'Changes found when the workspace was opened',
      'write_file: a.txt',
      'Workspace opened',
    ]);
    expect(after.snapshots[1].files_changed).toBe(1);
    await second.close();
    const fsck = execFileSync(
      'git',
      [`--git-dir=${gitdir}`, 'fsck', '--full', '--no-reflogs', '--unreachable', '--no-dangling'],
      { encoding: 'utf8' },
    );
    expect(fsck.trim()).toBe('');
    expect(
      execFileSync('git', [`--git-dir=${gitdir}`, 'ls-tree', '--name-only', 'main'], { encoding: 'utf8' }).split('\n'),
    ).toEqual(expect.arrayContaining(['a.txt', 'b.txt', 'c.txt']));
  });

  it("makes a new folder's first snapshot only once the other process lets go of the lock", async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandpit-read-new-'));
    scratch.push(root);
    await writeFile(join(root, 'a.txt'), 'a\n');
    const holder = await holdLock(root);
    const ws = openNodeWorkspace(root);
    let answered = false;
    const listing = call(ws, 'list_snapshots', {}).finally(() => {
      answered = true;
    });
    await new Promise((r) => setTimeout(r, 400));
    // no repository was made while the other process held the lock
    expect(answered).toBe(false);
    await expect(readFile(join(root, '.sandpit', 'git', 'HEAD'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    await holder.release();
    expect((await listing).snapshots.map((s: Out) => s.message)).toEqual(['Workspace opened']);
    await ws.close();
  });
});
