import { execFileSync } from 'node:child_process';
import { linkSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHelperCount, setReadHelperLimit } from '../../src/fs/node-direct.js';
import { createNodeFs } from '../../src/fs/node.js';

// The node backend reads a folder's files on up to two helper threads (src/fs/node-direct.ts):
// answers must come back to the call that asked, whichever thread read them.
describe('read helper threads', () => {
  // two even on a machine of two cores (where a search starts one), so answers do cross threads
  setReadHelperLimit(2);
  const base = mkdtempSync(join(tmpdir(), 'sandpit-read-helper-'));
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
    // the node project's files share a worker (isolate: false): later files get the machine's limit
    setReadHelperLimit(undefined);
  });
  const folders = Array.from({ length: 12 }, (_, f) => `d${f}`);
  const names = Array.from({ length: 30 }, (_, i) => `f${i}.txt`);
  for (const [f, folder] of folders.entries()) {
    mkdirSync(join(base, folder));
    // each file's bytes and size name its folder and itself, so a mixed-up answer shows
    for (const [i, name] of names.entries())
      writeFileSync(join(base, folder, name), `${folder}/${name}\n`.repeat(1 + ((f * 7 + i) % 40)));
  }

  it('answers many batches in flight at once, each to its own call, on two threads', async () => {
    for (const root of [undefined, base]) {
      const fs = createNodeFs(root === undefined ? {} : { root });
      // paths are host paths either way; with a root, below it they are read through its folder descriptors
      const at = (folder: string) => join(base, folder);
      const answers = await Promise.all(
        folders.flatMap((folder) => [
          fs.readPlainFiles!(at(folder), names, Number.MAX_SAFE_INTEGER).then((files) => ({
            folder,
            files,
            max: false,
          })),
          fs.readPlainFiles!(at(folder), names, 100).then((files) => ({ folder, files, max: true })),
        ]),
      );
      for (const { folder, files, max } of answers) {
        expect(files).toHaveLength(names.length);
        for (const [i, file] of files.entries()) {
          const path = join(base, folder, names[i]!);
          const want = readFileSync(path);
          expect(file?.stat.size).toBe(want.length);
          expect(file?.stat.ino).toBe(statSync(path).ino);
          if (max && want.length > 100) expect(file?.bytes).toBeNull();
          else expect(Buffer.from(file!.bytes!).equals(want)).toBe(true);
        }
      }
      await fs.close?.();
    }
    expect(readHelperCount()).toBe(2);
  });

  it('answers each call of one turn with its own files when they travel in one message', async () => {
    // a name that is not UTF-8 makes its call's paths an array of bytes; the others stay one string
    const odd = join(base, 'odd');
    mkdirSync(odd);
    const latin1 = Buffer.concat([Buffer.from(`${odd}/th`), Buffer.from([0xe8]), Buffer.from('se.txt')]);
    writeFileSync(latin1, 'odd file\n');
    writeFileSync(join(odd, 'plain.txt'), 'plain file\n');
    const fs = createNodeFs({ root: base });
    // issued in one turn: small calls of different size caps, the odd folder among them
    const calls = [
      fs.readPlainFiles!(join(base, 'd0'), names.slice(0, 3), Number.MAX_SAFE_INTEGER),
      fs.readPlainFiles!(odd, ['th\udce8se.txt', 'plain.txt', 'missing.txt'], Number.MAX_SAFE_INTEGER),
      fs.readPlainFiles!(join(base, 'd1'), names.slice(0, 4), 20),
      fs.readPlainFiles!(join(base, 'd2'), ['f1.txt'], Number.MAX_SAFE_INTEGER),
    ];
    const [first, oddOnes, capped, last] = await Promise.all(calls);
    expect(first!.map((f) => Buffer.from(f!.bytes!).toString())).toEqual(
      names.slice(0, 3).map((n) => readFileSync(join(base, 'd0', n), 'utf8')),
    );
    expect(oddOnes!.map((f) => (f ? Buffer.from(f.bytes!).toString() : null))).toEqual([
      'odd file\n',
      'plain file\n',
      null,
    ]);
    for (const [i, f] of capped!.entries()) {
      const want = readFileSync(join(base, 'd1', names[i]!));
      expect(f?.stat.size).toBe(want.length);
      if (want.length > 20) expect(f?.bytes).toBeNull();
      else expect(Buffer.from(f!.bytes!).equals(want)).toBe(true);
    }
    expect(Buffer.from(last![0]!.bytes!).toString()).toBe(readFileSync(join(base, 'd2', 'f1.txt'), 'utf8'));
    await fs.close?.();
  });

  it.skipIf(process.platform === 'win32')(
    "gives each file the stat Node's lstat gives, and null for a FIFO, a folder or a link",
    async () => {
      // the thread reads a file's numbers without Node's Stats object where it can: they must be the same numbers
      const mixed = join(base, 'mixed');
      mkdirSync(mixed);
      writeFileSync(join(mixed, 'a.txt'), 'some bytes\n');
      writeFileSync(join(mixed, 'empty.txt'), '');
      linkSync(join(mixed, 'a.txt'), join(mixed, 'twice.txt'));
      execFileSync('mkfifo', [join(mixed, 'pipe')]);
      mkdirSync(join(mixed, 'sub'));
      execFileSync('ln', ['-s', 'a.txt', join(mixed, 'link')]);
      const wanted = ['a.txt', 'empty.txt', 'twice.txt', 'pipe', 'sub', 'link'];
      for (const root of [undefined, base]) {
        const fs = createNodeFs(root === undefined ? {} : { root });
        const files = await fs.readPlainFiles!(mixed, wanted, Number.MAX_SAFE_INTEGER);
        for (const [i, name] of wanted.entries()) {
          if (i >= 3) {
            expect(files[i], name).toBeNull();
            continue;
          }
          const s = lstatSync(join(mixed, name));
          const { mode, size, ino, mtimeMs, ctimeMs, uid, gid, dev, nlink } = s;
          expect(files[i]?.stat, name).toMatchObject({
            type: 'file',
            mode,
            size,
            ino,
            mtimeMs,
            ctimeMs,
            uid,
            gid,
            dev,
            nlink,
          });
          expect(Buffer.from(files[i]!.bytes!).equals(readFileSync(join(mixed, name)))).toBe(true);
        }
        await fs.close?.();
      }
    },
  );

  it('reads the same files here (on the calling thread) as on the threads, in one turn with them', async () => {
    for (const root of [undefined, base]) {
      const fs = createNodeFs(root === undefined ? {} : { root });
      const odd = ['', '.', '..', 'a/b', 'missing.txt'];
      // handed to the threads and read here in the same turn, as a search's read window does
      const [there, here] = await Promise.all([
        fs.readPlainFiles!(join(base, 'd3'), [...names, ...odd], Number.MAX_SAFE_INTEGER),
        fs.readPlainFiles!(join(base, 'd3'), [...names, ...odd], Number.MAX_SAFE_INTEGER, { here: true }),
      ]);
      expect(here).toHaveLength(names.length + odd.length);
      for (const [i, file] of here!.entries()) {
        if (i >= names.length) {
          expect(file).toBeNull();
          continue;
        }
        const want = readFileSync(join(base, 'd3', names[i]!));
        expect(Buffer.from(file!.bytes!).equals(want)).toBe(true);
        expect(Buffer.from(there![i]!.bytes!).equals(want)).toBe(true);
        expect(file!.stat).toEqual(there![i]!.stat);
      }
      expect(there!.slice(names.length)).toEqual(odd.map(() => null));
      await fs.close?.();
    }
  });
});
