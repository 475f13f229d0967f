import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { enc, openRootOnly, type Harness } from '../harness.js';

const codeOf = async (work: Promise<unknown>): Promise<string | null> =>
  work.then(
    () => null,
    (error: unknown) => String((error as { code?: unknown })?.code ?? 'no code'),
  );

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The backend itself, below the tools: the promises of `WorkspaceFs` a tool relies on without
 * checking them again. Each case is a bug a plausible backend has had.
 */
export function backendFsContract(backend: BackendUnderTest) {
  describe('WorkspaceFs itself', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('rmdir refuses a folder that still holds entries with ENOTEMPTY and removes nothing', async () => {
      h = await openRootOnly(backend, { 'd/f.txt': 'kept\n', 'd/e/g.txt': 'kept too\n' });
      expect(await codeOf(h.fs.rmdir(h.abs('d'))), 'rmdir of a non-empty folder').toBe('ENOTEMPTY');
      expect(await codeOf(h.fs.rmdir(h.abs('d/e'))), 'rmdir of a non-empty subfolder').toBe('ENOTEMPTY');
      expect(await h.text('d/f.txt')).toBe('kept\n');
      expect(await h.text('d/e/g.txt')).toBe('kept too\n');
      await h.fs.unlink(h.abs('d/e/g.txt'));
      await h.fs.rmdir(h.abs('d/e'));
      expect((await h.fs.readdir(h.abs('d'))).sort()).toEqual(['f.txt']);
    });

    it('writeFile into a folder that does not exist fails with ENOENT and creates nothing', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'a\n' });
      expect(await codeOf(h.fs.writeFile(h.abs('missing/b.txt'), enc('b\n'))), 'writeFile below a missing folder').toBe(
        'ENOENT',
      );
      expect(
        await codeOf(h.fs.writeFile(h.abs('missing/deeper/c.txt'), 'c\n')),
        'writeFile two levels below a missing folder',
      ).toBe('ENOENT');
      expect(await codeOf(h.fs.lstat(h.abs('missing'))), 'the missing folder afterwards').toBe('ENOENT');
      expect((await h.fs.readdir(h.root)).filter((n) => n !== '.sandpit').sort()).toEqual(['a.txt']);
    });

    it('readFile gives a copy, and writeFile keeps one: changing those bytes later changes no file', async () => {
      h = await openRootOnly(backend, { 'a.bin': new Uint8Array([1, 2, 3]) });
      const read = await h.fs.readFile(h.abs('a.bin'));
      read.fill(9);
      expect([...(await h.bytes('a.bin'))!], 'after changing the bytes readFile returned').toEqual([1, 2, 3]);
      const written = new Uint8Array([4, 5, 6]);
      await h.fs.writeFile(h.abs('b.bin'), written);
      written.fill(0);
      expect([...(await h.bytes('b.bin'))!], 'after changing the bytes given to writeFile').toEqual([4, 5, 6]);
    });

    it('stat gives all nine FsStat fields, and mtimeMs moves on every write', async () => {
      h = await openRootOnly(backend, { 'dir/a.txt': 'hello' });
      const file = await h.fs.stat(h.abs('dir/a.txt'));
      const dir = await h.fs.stat(h.abs('dir'));
      for (const key of ['mode', 'size', 'ino', 'mtimeMs', 'ctimeMs', 'uid', 'gid', 'dev']) {
        expect(typeof (file as unknown as Record<string, unknown>)[key], `FsStat.${key} of a file`).toBe('number');
        expect(typeof (dir as unknown as Record<string, unknown>)[key], `FsStat.${key} of a folder`).toBe('number');
      }
      expect([file.type, file.isFile(), file.isDirectory(), file.isSymbolicLink()]).toEqual([
        'file',
        true,
        false,
        false,
      ]);
      expect([dir.type, dir.isFile(), dir.isDirectory(), dir.isSymbolicLink()]).toEqual(['dir', false, true, false]);
      expect(file.size, 'FsStat.size is the byte length').toBe(5);
      const times = [file.mtimeMs];
      for (const content of ['hello!', 'hello']) {
        // A real disk's clock may tick coarsely; a rescan needs a change between writes this far apart.
        await pause(25);
        await h.fs.writeFile(h.abs('dir/a.txt'), content);
        times.push((await h.fs.stat(h.abs('dir/a.txt'))).mtimeMs);
      }
      expect(times[1]! > times[0]! && times[2]! > times[1]!, `mtimeMs after each write: ${times.join(', ')}`).toBe(
        true,
      );
    });

    it('a backend that says clockMtimes stamps every write with Date.now(), which a rescan trusts after 5 ms', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'a' });
      if (h.fs.capabilities?.clockMtimes !== true) return;
      for (const content of ['b', 'cc', 'dd']) {
        const before = Date.now();
        await h.fs.writeFile(h.abs('a.txt'), content);
        const after = Date.now();
        const { mtimeMs } = await h.fs.lstat(h.abs('a.txt'));
        expect(
          mtimeMs >= before && mtimeMs <= after,
          `mtimeMs ${mtimeMs} of a write between ${before} and ${after}`,
        ).toBe(true);
      }
    });

    it('readdirStats, where offered, lists what readdir lists, each with the lstat lstat gives', async () => {
      h = await openRootOnly(backend, { 'd/a.txt': 'aaa', 'd/sub/b.txt': 'b' });
      if (!h.fs.readdirStats) return;
      if (backend.symlinks) await h.fs.symlink('a.txt', h.abs('d/link'));
      const listed = await h.fs.readdirStats(h.abs('d'));
      expect(listed.map((e) => e.name).sort()).toEqual((await h.fs.readdir(h.abs('d'))).sort());
      for (const { name, stat } of listed) {
        const own = await h.fs.lstat(h.abs(`d/${name}`));
        expect(stat, name).not.toBeNull();
        const fields = (s: typeof own) => [s.type, s.size, s.mtimeMs, s.ino, s.mode, s.isSymbolicLink()];
        expect(fields(stat!), name).toEqual(fields(own));
      }
      expect(await codeOf(h.fs.readdirStats(h.abs('missing'))), 'a folder that is not there').toBe('ENOENT');
      expect(await codeOf(h.fs.readdirStats(h.abs('d/a.txt'))), 'a file').toBe('ENOTDIR');
    });
  });
}
