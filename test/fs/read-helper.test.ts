import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHelperCount } from '../../src/fs/node-direct.js';
import { createNodeFs } from '../../src/fs/node.js';

// The node backend reads a folder's files on up to two helper threads (src/fs/node-direct.ts):
// answers must come back to the call that asked, whichever thread read them.
describe('read helper threads', () => {
  const base = mkdtempSync(join(tmpdir(), 'sandpit-read-helper-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
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
});
