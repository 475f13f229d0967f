import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeFs } from '../../src/fs/node.js';
import { BENEATH_SUPPORTED } from '../../src/fs/node-beneath.js';

// A checkout's writes say they are many in flight (`concurrent`): the node backend then makes them
// on the thread pool. They keep every guarantee of the synchronous write: exact modes, a
// temporary file renamed into place (none left behind), links replaced rather than written
// through, and below a root the folder resolved by descriptor when the call starts.
let base: string;
let root: string;
let outside: string;
const text = new TextEncoder();

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sandpit-concurrent-'));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('node backend: concurrent writes', () => {
  for (const rooted of [false, true]) {
    it(`writes many files at once with their exact modes and no temporary left (${rooted ? 'below a root' : 'plain paths'})`, async () => {
      const fs = createNodeFs(rooted ? { root } : {});
      const names = Array.from({ length: 40 }, (_, i) => `a/b/f${i}.txt`);
      await Promise.all(
        names.map((n, i) =>
          fs.writeFile(join(root, n), text.encode(`file ${i}\n`.repeat(i)), {
            mode: i % 2 ? 0o755 : 0o644,
            concurrent: true,
          }),
        ),
      );
      expect(readdirSync(join(root, 'a/b')).sort()).toEqual(names.map((n) => n.slice(4)).sort());
      names.forEach((n, i) => {
        expect(readFileSync(join(root, n), 'utf8')).toBe(`file ${i}\n`.repeat(i));
        expect(lstatSync(join(root, n)).mode & 0o777).toBe(i % 2 ? 0o755 : 0o644);
      });
      await fs.close?.();
    });
  }

  it('replaces a link at the path instead of writing through it', async () => {
    const fs = createNodeFs({ root });
    symlinkSync(join(outside, 'target.txt'), join(root, 'a/b/link.txt'));
    await fs.writeFile(join(root, 'a/b/link.txt'), text.encode('mine'), { mode: 0o644, concurrent: true });
    expect(lstatSync(join(root, 'a/b/link.txt')).isFile()).toBe(true);
    expect(readdirSync(outside)).toEqual([]);
    await fs.close?.();
  });

  it('refuses a folder at the path with EISDIR and leaves nothing behind', async () => {
    const fs = createNodeFs({ root });
    mkdirSync(join(root, 'a/b/dir'));
    await expect(
      fs.writeFile(join(root, 'a/b/dir'), text.encode('x'), { mode: 0o644, concurrent: true }),
    ).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readdirSync(join(root, 'a/b'))).toEqual(['dir']);
    await fs.close?.();
  });

  it.runIf(BENEATH_SUPPORTED)(
    'below a root, lands in the folder found when the call started, never in a link swapped in meanwhile',
    async () => {
      const fs = createNodeFs({ root });
      const writing = fs.writeFile(join(root, 'a/b/late.txt'), text.encode('late'), { mode: 0o644, concurrent: true });
      // before the write has settled, the folder moves away and a link to outside takes its place
      renameSync(join(root, 'a/b'), join(root, 'a/moved'));
      symlinkSync(outside, join(root, 'a/b'));
      await writing;
      expect(readdirSync(outside)).toEqual([]);
      expect(readFileSync(join(root, 'a/moved/late.txt'), 'utf8')).toBe('late');
      // and a write that starts now is refused: the link is not followed
      await expect(
        fs.writeFile(join(root, 'a/b/next.txt'), text.encode('x'), { mode: 0o644, concurrent: true }),
      ).rejects.toThrow();
      expect(readdirSync(outside)).toEqual([]);
      await fs.close?.();
    },
  );
});
