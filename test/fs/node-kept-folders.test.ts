import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeFs } from '../../src/fs/node.js';
import { BENEATH_SUPPORTED } from '../../src/fs/node-beneath.js';

// The node backend keeps the descriptors of folders it walked to; these tests change the folders
// under it between calls, the way a user's shell or an agent's command does.
let base: string;
let root: string;
let outside: string;
const text = new TextEncoder();
const openFds = () => readdirSync('/proc/self/fd').length;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sandpit-kept-'));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.runIf(BENEATH_SUPPORTED)('node backend: folders kept open between calls', () => {
  it('writes into the folder now at the path, not one renamed away since', async () => {
    const fs = createNodeFs({ root });
    await fs.writeFile(join(root, 'a/b/first.txt'), text.encode('1'));
    renameSync(join(root, 'a/b'), join(root, 'a/old'));
    mkdirSync(join(root, 'a/b'));
    await fs.writeFile(join(root, 'a/b/second.txt'), text.encode('2'));
    expect(readdirSync(join(root, 'a/b'))).toEqual(['second.txt']);
    expect(readdirSync(join(root, 'a/old'))).toEqual(['first.txt']);
    expect(await fs.readdir(join(root, 'a/old'))).toEqual(['first.txt']);
    await fs.close?.();
  });

  it('refuses a folder swapped for a link outside after it was kept, and leaves outside untouched', async () => {
    const fs = createNodeFs({ root });
    await fs.writeFile(join(root, 'a/b/in.txt'), text.encode('in'));
    renameSync(join(root, 'a/b'), join(root, 'parked'));
    symlinkSync(outside, join(root, 'a/b'));
    await expect(fs.writeFile(join(root, 'a/b/leak.txt'), text.encode('x'))).rejects.toThrow();
    await expect(fs.readFile(join(root, 'a/b/in.txt'))).rejects.toThrow();
    await expect(fs.readdir(join(root, 'a/b'))).rejects.toThrow();
    expect(readdirSync(outside)).toEqual([]);
    await fs.close?.();
  });

  it('never writes into a kept folder that was deleted, even one named like a deleted folder', async () => {
    const fs = createNodeFs({ root });
    await fs.writeFile(join(root, 'a/b/f.txt'), text.encode('old'));
    rmSync(join(root, 'a/b'), { recursive: true });
    mkdirSync(join(root, 'a/b'));
    await fs.writeFile(join(root, 'a/b/g.txt'), text.encode('new'));
    expect(readdirSync(join(root, 'a/b'))).toEqual(['g.txt']);
    // the kernel names a deleted folder "<its last path> (deleted)": renamed to `c` and then
    // deleted, a folder kept as `c (deleted)` would read as still in place
    const named = join(root, 'a/c (deleted)');
    mkdirSync(named);
    await fs.writeFile(join(named, 'f.txt'), text.encode('old'));
    renameSync(named, join(root, 'a/c'));
    rmSync(join(root, 'a/c'), { recursive: true });
    mkdirSync(named);
    await fs.writeFile(join(named, 'g.txt'), text.encode('new'));
    expect(readdirSync(named)).toEqual(['g.txt']);
    await fs.close?.();
  });

  it('renames between more folders than it keeps, each file landing where it was sent', async () => {
    const fs = createNodeFs({ root });
    const folders = Array.from({ length: 80 }, (_, i) => `a/b/d${i}`);
    for (const f of folders) {
      await fs.mkdir(join(root, f), { recursive: true });
      await fs.writeFile(join(root, f, 'x.txt'), text.encode(f));
    }
    for (let i = 0; i < folders.length; i++) {
      const to = folders[(i * 7 + 3) % folders.length]!;
      await fs.rename(join(root, folders[i]!, 'x.txt'), join(root, to, `from-d${i}.txt`));
    }
    for (let i = 0; i < folders.length; i++) {
      const to = folders[(i * 7 + 3) % folders.length]!;
      expect(readFileSync(join(root, to, `from-d${i}.txt`), 'utf8')).toBe(folders[i]);
      expect(existsSync(join(root, folders[i]!, 'x.txt'))).toBe(false);
    }
    await fs.close?.();
  });

  it('holds a bounded number of descriptors and lets them go on close', async () => {
    const before = openFds();
    const fs = createNodeFs({ root });
    for (let i = 0; i < 100; i++) await fs.mkdir(join(root, `a/b/e${i}/f`), { recursive: true });
    for (let i = 0; i < 100; i++) await fs.writeFile(join(root, `a/b/e${i}/f/x.txt`), text.encode('x'));
    const held = openFds() - before;
    expect(held).toBeGreaterThan(1);
    expect(held).toBeLessThanOrEqual(40);
    await fs.close?.();
    expect(openFds() - before).toBeLessThanOrEqual(1); // the root's own descriptor stays
    await fs.writeFile(join(root, 'a/b/e1/f/y.txt'), text.encode('y'));
    expect(readFileSync(join(root, 'a/b/e1/f/y.txt'), 'utf8')).toBe('y');
    await fs.close?.();
  });

  it('keeps the folder the workspace was opened on when the root itself is renamed', async () => {
    const fs = createNodeFs({ root });
    await fs.writeFile(join(root, 'a/b/one.txt'), text.encode('1'));
    renameSync(root, join(base, 'moved'));
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    await fs.writeFile(join(root, 'a/b/two.txt'), text.encode('2'));
    expect(readdirSync(join(base, 'moved', 'a', 'b')).sort()).toEqual(['one.txt', 'two.txt']);
    expect(readdirSync(join(root, 'a', 'b'))).toEqual([]);
    await fs.close?.();
  });
});
