import { describe, expect, it } from 'vitest';
import { encodeHeader, Op } from '../../src/fs/pack/pack-log.js';
import { openPackStore, type PackedFs } from '../../src/fs/pack/pack-store.js';
import type { WorkspaceFs } from '../../src/fs/types.js';
import { MemoryPackFolder } from './memory-pack-folder.js';

const text = new TextDecoder();

/** Every folder and file below `/`, files with their text: what a reopened store must match. */
async function dump(fs: WorkspaceFs, dir = '/'): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdirTypes!(dir)) {
    const path = `${dir === '/' ? '' : dir}/${entry.name}`;
    if (entry.type === 'dir') Object.assign(out, { [`${path}/`]: '' }, await dump(fs, path));
    else out[path] = text.decode(await fs.readFile(path));
  }
  return out;
}

/** The folder's bytes as they would be on disk after a crash: a copy, nothing held open. */
function copyOf(folder: MemoryPackFolder, cut?: { name: string; length: number }): MemoryPackFolder {
  const copy = new MemoryPackFolder();
  for (const [name, bytes] of folder.files)
    copy.files.set(name, bytes.slice(0, cut?.name === name ? cut.length : bytes.length));
  return copy;
}

/** A closed packed store holding `files`. */
async function folderWith(files: Record<string, string>): Promise<MemoryPackFolder> {
  const folder = new MemoryPackFolder();
  const fs = await openPackStore(folder);
  for (const [path, content] of Object.entries(files)) await fs.writeFile(path, content);
  await fs.close();
  return folder;
}

const usedLength = (bytes: Uint8Array) => {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return end;
};

describe('the packed OPFS layout: one log, replayed on open', () => {
  it('reopens with every file, folder, rename and removal in place', async () => {
    const folder = new MemoryPackFolder();
    const fs = await openPackStore(folder);
    await fs.mkdir('/src/lib', { recursive: true });
    await fs.writeFile('/src/lib/a.ts', 'one');
    await fs.writeFile('/src/lib/a.ts', 'two');
    await fs.writeFile('/src/b.ts', 'be', { mode: 0o755 });
    await fs.writeFile('/src/b.ts', 'bee');
    await fs.rename('/src/lib', '/src/core');
    await fs.mkdir('/gone');
    await fs.rmdir('/gone');
    await fs.writeFile('/tmp.txt', 'x');
    await fs.unlink('/tmp.txt');
    const before = await dump(fs);
    await fs.close();
    expect(before).toEqual({ '/src/': '', '/src/core/': '', '/src/core/a.ts': 'two', '/src/b.ts': 'bee' });
    expect([...folder.files.keys()]).toEqual(['sandpit.pack.1']);

    const again = await openPackStore(folder);
    expect(await dump(again)).toEqual(before);
    expect((await again.stat('/src/core/a.ts')).size).toBe(3);
    expect((await again.stat('/src/b.ts')).mode).toBe(0o100755);
    expect((await again.stat('/src/core/a.ts')).mode).toBe(0o100644);
    await again.close();
  });

  it('after a crash at any byte, opens to the state after some whole operation, never a later one', async () => {
    const folder = new MemoryPackFolder();
    const fs = await openPackStore(folder);
    const states = [await dump(fs)];
    const steps: Array<() => Promise<void>> = [
      () => fs.mkdir('/d'),
      () => fs.writeFile('/d/a.txt', 'alpha'),
      () => fs.writeFile('/d/b.txt', 'beta'.repeat(20)),
      () => fs.rename('/d/a.txt', '/a.txt'),
      () => fs.writeFile('/a.txt', 'alpha 2'),
      () => fs.unlink('/d/b.txt'),
      () => fs.rename('/d', '/e'),
    ];
    for (const step of steps) {
      await step();
      states.push(await dump(fs));
    }
    const log = folder.files.get('sandpit.pack.1')!;
    const length = usedLength(log);
    let last = 0;
    for (let cut = 0; cut <= length; cut++) {
      const reopened = await openPackStore(copyOf(folder, { name: 'sandpit.pack.1', length: cut }));
      const state = await dump(reopened);
      const index = states.findIndex((s) => JSON.stringify(s) === JSON.stringify(state));
      expect(index, `cut at byte ${cut}`).toBeGreaterThanOrEqual(last);
      last = index;
      // A write after the crash lands where the torn record was, and survives the next open.
      await reopened.writeFile('/after.txt', 'after');
      await reopened.close();
    }
    expect(last).toBe(states.length - 1);
    await fs.close();
  });

  it('rewrites a wasteful log into the next generation, and the old log goes', async () => {
    const folder = new MemoryPackFolder();
    const fs = await openPackStore(folder);
    await fs.writeFile('/small.txt', 'kept');
    const big = new Uint8Array(1 << 20).fill(7);
    await fs.writeFile('/big.bin', big, { mode: 0o755 });
    for (let round = 0; round < 10; round++) {
      big[0] = round;
      await fs.writeFile('/big.bin', big);
    }
    expect([...folder.files.keys()]).toEqual(['sandpit.pack.2']);
    expect(usedLength(folder.files.get('sandpit.pack.2')!)).toBeLessThan(5 << 20);
    expect((await fs.readFile('/big.bin'))[0]).toBe(9);
    expect((await fs.stat('/big.bin')).mode).toBe(0o100755);
    expect(text.decode(await fs.readFile('/small.txt'))).toBe('kept');
    await fs.writeFile('/later.txt', 'appended after the rewrite');
    const before = await dump(fs);
    await fs.close();
    const again = await openPackStore(folder);
    expect(await dump(again)).toEqual(before);
    await again.close();
  });

  it('ignores and removes a rewrite that never reached its checkpoint', async () => {
    const folder = await folderWith({ '/a.txt': 'a' });
    folder.files.set('sandpit.pack.2', encodeHeader(Op.Mkdir, Date.now(), 'half-copied'));
    const again = await openPackStore(folder);
    expect(await dump(again)).toEqual({ '/a.txt': 'a' });
    expect([...folder.files.keys()]).toEqual(['sandpit.pack.1']);
    await again.close();
  });

  it('takes the newest finished generation and removes the one it replaced', async () => {
    const folder = await folderWith({ '/a.txt': 'old' });
    const older = folder.files.get('sandpit.pack.1')!;
    const newer = encodeHeader(Op.Write, Date.now(), 'a.txt', '', new TextEncoder().encode('new'));
    const next = new Uint8Array(usedLength(older) + newer.length + 3);
    next.set(older.subarray(0, usedLength(older)));
    next.set(newer, usedLength(older));
    next.set(new TextEncoder().encode('new'), usedLength(older) + newer.length);
    folder.files.set('sandpit.pack.2', next);
    const again = await openPackStore(folder);
    expect(await dump(again)).toEqual({ '/a.txt': 'new' });
    expect([...folder.files.keys()]).toEqual(['sandpit.pack.2']);
    await again.close();
  });

  it('refuses a damaged log with EIO and keeps it, rather than starting over', async () => {
    const folder = new MemoryPackFolder();
    folder.files.set('sandpit.pack.3', encodeHeader(Op.Mkdir, Date.now(), 'no-checkpoint'));
    await expect(openPackStore(folder)).rejects.toMatchObject({ code: 'EIO' });
    expect([...folder.files.keys()]).toEqual(['sandpit.pack.3']);
  });

  it('a full quota is ENOSPC, and the old bytes and the tree stay as they were', async () => {
    const folder = new MemoryPackFolder(64 * 1024);
    const fs = await openPackStore(folder);
    await fs.writeFile('/keep.txt', 'small and safe');
    const big = new Uint8Array(100 * 1024);
    await expect(fs.writeFile('/big.bin', big)).rejects.toMatchObject({ code: 'ENOSPC' });
    await expect(fs.writeFile('/keep.txt', big)).rejects.toMatchObject({ code: 'ENOSPC' });
    await expect(fs.stat('/big.bin')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(text.decode(await fs.readFile('/keep.txt'))).toBe('small and safe');
    // Removing still works at the limit, and so does writing once there is room.
    await fs.unlink('/keep.txt');
    folder.capacity = Infinity;
    await fs.writeFile('/big.bin', big);
    await fs.close();
    const again = await openPackStore(folder);
    expect(Object.keys(await dump(again))).toEqual(['/big.bin']);
    await again.close();
  });

  it('holds its log exclusively until closed, and refuses calls after', async () => {
    const folder = new MemoryPackFolder();
    const fs: PackedFs = await openPackStore(folder);
    await expect(openPackStore(folder)).rejects.toMatchObject({ name: 'NoModificationAllowedError' });
    await fs.close();
    await expect(fs.readdir('/')).rejects.toMatchObject({ code: 'EIO' });
    const again = await openPackStore(folder);
    await again.close();
  });

  it('writes the records of one turn with one call, and each change resolves only once its record is in the file', async () => {
    const folder = new MemoryPackFolder();
    const fs = await openPackStore(folder);
    const log = () => folder.files.get('sandpit.pack.1')!;
    await fs.mkdir('/d');
    const writes = countWrites(folder);
    const before = usedLength(log());
    const done = Array.from({ length: 20 }, (_, i) => fs.writeFile(`/d/f${i}.txt`, `file ${i}\n`));
    // the tree has them at once; the file gets them at the turn's end, in one write
    expect((await fs.readdir('/d')).length).toBe(20);
    expect(usedLength(log())).toBe(before);
    await Promise.all(done);
    expect(usedLength(log())).toBeGreaterThan(before);
    expect(writes()).toBe(1);
    // a read of a file whose record waits writes the batch first
    const more = fs.writeFile('/d/late.txt', 'late\n');
    expect(text.decode(await fs.readFile('/d/late.txt'))).toBe('late\n');
    await more;
    await fs.close();
    const again = await openPackStore(folder);
    expect(Object.keys(await dump(again)).length).toBe(22);
    await again.close();
  });

  it("lists a folder with each entry's stat in one call, as lstat gives it", async () => {
    const fs = await openPackStore(new MemoryPackFolder());
    await fs.mkdir('/dir/sub', { recursive: true });
    await fs.writeFile('/dir/a.txt', 'abc');
    await fs.writeFile('/dir/run.sh', '#!/bin/sh\n', { mode: 0o755 });
    const listed = await fs.readdirStats!('/dir');
    expect(listed.map((e) => e.name).sort()).toEqual(['a.txt', 'run.sh', 'sub']);
    for (const { name, stat } of listed) expect(stat).toEqual(await fs.lstat(`/dir/${name}`));
    await expect(fs.readdirStats!('/dir/a.txt')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(fs.readdirStats!('/none')).rejects.toMatchObject({ code: 'ENOENT' });
    await fs.close();
  });

  it('a batch whose write fails refuses every change in it, and the store goes on as its log reads', async () => {
    const folder = new MemoryPackFolder();
    const fs = await openPackStore(folder);
    await fs.writeFile('/kept.txt', 'kept');
    const batch = [fs.writeFile('/a.txt', 'a'), fs.mkdir('/dir'), fs.writeFile('/kept.txt', 'changed')];
    // the batch's write throws, as a sync access handle does on an I/O error
    folder.failWrites = 1;
    for (const change of batch) await expect(change).rejects.toMatchObject({ code: 'EIO' });
    expect(await fs.readdir('/')).toEqual(['kept.txt']);
    expect(text.decode(await fs.readFile('/kept.txt'))).toBe('kept');
    await fs.writeFile('/after.txt', 'after');
    await fs.close();
    const again = await openPackStore(folder);
    expect(await dump(again)).toEqual({ '/kept.txt': 'kept', '/after.txt': 'after' });
    await again.close();
  });

  it('reads back a small file it wrote or read without reading the log, and a lost batch is not read back', async () => {
    const folder = new MemoryPackFolder();
    const fs = await openPackStore(folder);
    let reads = 0;
    folder.onRead = () => {
      reads++;
    };
    await fs.writeFile('/a.txt', 'one');
    await fs.writeFile('/b.txt', 'bee');
    expect(text.decode(await fs.readFile('/a.txt'))).toBe('one');
    expect(text.decode(await fs.readFile('/b.txt'))).toBe('bee');
    expect(reads).toBe(0);
    // a lost batch's place in the log is written again: by a record of the same header length,
    // with bytes too big to be kept, which must be read from the log, not from the lost record
    folder.failWrites = 1;
    await expect(fs.writeFile('/a.txt', 'two')).rejects.toMatchObject({ code: 'EIO' });
    const big = new Uint8Array(300 * 1024).fill(9);
    await fs.writeFile('/c.txt', big);
    expect(text.decode(await fs.readFile('/a.txt'))).toBe('one');
    expect(await fs.readFile('/c.txt')).toEqual(big);
    await fs.close();
    const again = await openPackStore(folder);
    expect(text.decode(await again.readFile('/a.txt'))).toBe('one');
    expect((await again.readFile('/c.txt')).length).toBe(big.length);
    await again.close();
  });
});

/** Count the logs' write calls from now on (a sync-handle call is the cost batching saves). */
function countWrites(folder: MemoryPackFolder): () => number {
  let calls = 0;
  folder.onWrite = () => {
    calls++;
  };
  return () => calls;
}
