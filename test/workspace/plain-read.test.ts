import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';
import { PathResolver } from '../../src/workspace/paths.js';

const scratch = mkdtempSync(join(tmpdir(), 'sandpit-plain-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Backend {
  name: string;
  fs: WorkspaceFs;
  base: string;
}

async function world(name: 'node' | 'memory'): Promise<Backend> {
  const fs = name === 'node' ? createNodeFs() : createMemoryFs();
  const base = name === 'node' ? mkdtempSync(join(scratch, 'ws-')) : '/ws';
  const outside = name === 'node' ? mkdtempSync(join(scratch, 'out-')) : '/out';
  for (const dir of [base, outside, `${base}/src`, `${base}/src/deep`]) await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(`${base}/src/a.txt`, new TextEncoder().encode('hello\n'));
  await fs.writeFile(`${base}/src/deep/b.txt`, new TextEncoder().encode('deep\n'));
  await fs.writeFile(`${outside}/secret.txt`, new TextEncoder().encode('secret\n'));
  await fs.symlink(`${base}/src`, `${base}/alias`);
  await fs.symlink(`${base}/src/a.txt`, `${base}/link.txt`);
  await fs.symlink(outside, `${base}/out`);
  return { name, fs, base };
}

describe.each(['node', 'memory'] as const)('readPlainFile on %s', (name) => {
  it('reads a file reached through real folders, with the lstat the slow path would see', async () => {
    const { fs, base } = await world(name);
    const plain = await fs.readPlainFile!(base, 'src/deep/b.txt', 1024);
    expect(new TextDecoder().decode(plain!.bytes!)).toBe('deep\n');
    const lstat = await fs.lstat(`${base}/src/deep/b.txt`);
    const { isFile, isDirectory, isSymbolicLink, ...fields } = plain!.stat;
    const { isFile: f2, isDirectory: d2, isSymbolicLink: s2, ...expected } = lstat;
    expect(fields).toEqual(expected);
    expect(isFile()).toBe(true);
  });

  it('answers null for a link anywhere on the way, a folder or a missing name, so the full walk decides', async () => {
    const { fs, base } = await world(name);
    for (const rel of ['alias/a.txt', 'link.txt', 'out/secret.txt', 'src', 'src/missing.txt', 'src/a.txt/x']) {
      expect(await fs.readPlainFile!(base, rel, 1024), rel).toBeNull();
    }
  });

  it('gives the stat without the bytes past the size asked for', async () => {
    const { fs, base } = await world(name);
    const plain = await fs.readPlainFile!(base, 'src/a.txt', 3);
    expect(plain!.bytes).toBeNull();
    expect(plain!.stat.size).toBe(6);
  });
});

describe.each(['node', 'memory'] as const)('readPlainFile agrees with the full walk on %s', (name) => {
  it('answers for exactly the paths the walk reaches through no link, with the same bytes', async () => {
    const { fs, base } = await world(name);
    await fs.mkdir(`${base}/src/deep/deeper`);
    await fs.writeFile(`${base}/src/deep/deeper/c.txt`, new TextEncoder().encode('c\n'));
    await fs.symlink('deep', `${base}/src/rel-dir`);
    await fs.symlink('../src/a.txt', `${base}/src/deep/up.txt`);
    await fs.symlink(`${base}/missing`, `${base}/dangling`);
    const resolver = new PathResolver(fs, base);
    const names = [
      'src',
      'deep',
      'deeper',
      'a.txt',
      'b.txt',
      'c.txt',
      'alias',
      'link.txt',
      'out',
      'secret.txt',
      'rel-dir',
      'up.txt',
      'dangling',
      'none',
    ];
    let plainHits = 0;
    for (const a of names)
      for (const b of ['', ...names])
        for (const c of ['', ...names]) {
          const rel = [a, b, c].filter(Boolean).join('/');
          const plain = await fs.readPlainFile!(base, rel, 1 << 20);
          const walked = await resolver.resolveRel(rel, 'read').catch(() => null);
          const noLinkFile = walked !== null && walked.realRel === rel && walked.stat?.type === 'file';
          expect(plain !== null, rel).toBe(noLinkFile);
          if (plain) {
            plainHits++;
            expect(plain.bytes, rel).toEqual(await fs.readFile(walked!.abs));
          }
        }
    expect(plainHits).toBeGreaterThanOrEqual(3);
  });
});

describe.each(['node', 'node below its root', 'memory'] as const)('readPlainFiles on %s', (name) => {
  it('answers for each name of a folder as readPlainFile does, in order', async () => {
    const made = await world(name === 'memory' ? 'memory' : 'node');
    const fs = name === 'node below its root' ? createNodeFs({ root: made.base }) : made.fs;
    const { base } = made;
    if (name !== 'memory') execFileSync('mkfifo', [join(base, 'src', 'pipe')]);
    const names = ['a.txt', 'deep', 'missing.txt', 'pipe', 'a.txt', '..', 'deep/b.txt', '', 'link.txt', 'alias', 'out'];
    for (const folder of [base, `${base}/src`, `${base}/src/deep`, `${base}/alias`, `${base}/none`]) {
      const batch = await fs.readPlainFiles!(folder, names, 1 << 20);
      const single = await Promise.all(
        names.map((n) => (n === '' || n === '..' || n.includes('/') ? null : fs.readPlainFile!(folder, n, 1 << 20))),
      );
      const shape = (files: typeof batch) =>
        files.map(
          (f) => f && { bytes: f.bytes && new TextDecoder().decode(f.bytes), size: f.stat.size, ino: f.stat.ino },
        );
      expect(shape(batch), folder).toEqual(shape(single));
    }
    const small = await fs.readPlainFiles!(`${base}/src`, ['a.txt', 'deep'], 3);
    expect(small.map((f) => f && [f.bytes, f.stat.size])).toEqual([[null, 6], null]);
  });
});

describe('node adapter: reads and in-place writes that never follow links', () => {
  it('turns a FIFO away without waiting for a writer', async () => {
    const { fs, base } = await world('node');
    execFileSync('mkfifo', [join(base, 'src', 'pipe')]);
    expect(await fs.readPlainFile!(base, 'src/pipe', 1024)).toBeNull();
  });

  it('writes in place only over a regular file of the stated size, keeping its inode', async () => {
    const { fs, base } = await world('node');
    const file = `${base}/src/a.txt`;
    const inode = statSync(file).ino;
    expect(await fs.writeInPlace!(file, new TextEncoder().encode('HELLO\n'), 6)).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile(file))).toBe('HELLO\n');
    expect(statSync(file).ino).toBe(inode);
    expect(await fs.writeInPlace!(file, new TextEncoder().encode('other size\n'), 11)).toBe(false);
    expect(await fs.writeInPlace!(`${base}/link.txt`, new TextEncoder().encode('LINKED\n'), 6)).toBe(false);
    expect(await fs.writeInPlace!(`${base}/src/none.txt`, new TextEncoder().encode('x'), 0)).toBe(false);
    expect(new TextDecoder().decode(await fs.readFile(file))).toBe('HELLO\n');
  });
});
