import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isAbsent,
  lstatOrNull,
  mkdirp,
  readdirOrNull,
  readFileOrNull,
  removeIfPresent,
  removeTree,
  statOrNull,
} from '../../src/fs/helpers.js';
import { createMemoryFs } from '../../src/fs/memory.js';
import { createNodeFs } from '../../src/fs/node.js';
import type { WorkspaceFs } from '../../src/fs/types.js';
import { faultyFs, type FsOp } from '../support/faulty-fs.js';

interface Made {
  fs: WorkspaceFs;
  root: string;
  cleanup(): Promise<void>;
}

const backends: Record<string, () => Promise<Made>> = {
  memory: async () => {
    const fs = createMemoryFs();
    await fs.mkdir('/ws');
    return { fs, root: '/ws', cleanup: async () => {} };
  },
  node: async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandpit-helpers-'));
    return { fs: createNodeFs(), root, cleanup: () => rm(root, { recursive: true, force: true }) };
  },
};

/** The backend with the first call of `op` failing with EIO. */
const failing = (fs: WorkspaceFs, op: FsOp): WorkspaceFs => faultyFs(fs, { ops: [op], failAt: 1 });

for (const [name, make] of Object.entries(backends)) {
  describe(`fs helpers on ${name}`, () => {
    let made: Made;
    afterEach(async () => {
      await made?.cleanup();
    });
    const at = (rel: string) => `${made.root}/${rel}`;

    it('answers null for an absent path and for a path below a file', async () => {
      made = await make();
      await made.fs.writeFile(at('file.txt'), 'x');
      expect(await lstatOrNull(made.fs, at('missing'))).toBeNull();
      expect(await lstatOrNull(made.fs, at('file.txt/below'))).toBeNull();
      expect(await statOrNull(made.fs, at('missing'))).toBeNull();
      expect(await readdirOrNull(made.fs, at('missing'))).toBeNull();
      expect(await readFileOrNull(made.fs, at('missing'))).toBeNull();
      expect((await lstatOrNull(made.fs, at('file.txt')))?.type).toBe('file');
      expect(await readdirOrNull(made.fs, made.root)).toEqual(['file.txt']);
      expect(new TextDecoder().decode((await readFileOrNull(made.fs, at('file.txt')))!)).toBe('x');
    });

    it('passes on every failure that is not absence', async () => {
      made = await make();
      await made.fs.writeFile(at('file.txt'), 'x');
      await expect(lstatOrNull(failing(made.fs, 'lstat'), at('file.txt'))).rejects.toMatchObject({ code: 'EIO' });
      await expect(statOrNull(failing(made.fs, 'stat'), at('file.txt'))).rejects.toMatchObject({ code: 'EIO' });
      await expect(readdirOrNull(failing(made.fs, 'readdir'), made.root)).rejects.toMatchObject({ code: 'EIO' });
      await expect(readFileOrNull(failing(made.fs, 'readFile'), at('file.txt'))).rejects.toMatchObject({ code: 'EIO' });
      await expect(readFileOrNull(made.fs, made.root)).rejects.toMatchObject({ code: 'EISDIR' });
    });

    it('mkdirp makes every missing level and accepts an existing folder', async () => {
      made = await make();
      await mkdirp(made.fs, at('a/b/c'));
      await mkdirp(made.fs, at('a/b/c'));
      await mkdirp(made.fs, at('a'));
      expect((await made.fs.lstat(at('a/b/c'))).type).toBe('dir');
    });

    it('mkdirp refuses a file where a folder must go and changes nothing', async () => {
      made = await make();
      await made.fs.writeFile(at('f'), 'x');
      await expect(mkdirp(made.fs, at('f'))).rejects.toMatchObject({ code: 'EEXIST' });
      await expect(mkdirp(made.fs, at('f/g/h'))).rejects.toHaveProperty(
        'code',
        expect.stringMatching(/^(ENOTDIR|EEXIST)$/),
      );
      expect((await made.fs.lstat(at('f'))).type).toBe('file');
      await expect(mkdirp(failing(made.fs, 'mkdir'), at('n/m'))).rejects.toMatchObject({ code: 'EIO' });
      expect(await lstatOrNull(made.fs, at('n'))).toBeNull();
    });

    it('removeIfPresent removes a file, a link or an empty folder, and is quiet when absent', async () => {
      made = await make();
      await made.fs.writeFile(at('f'), 'x');
      await made.fs.mkdir(at('d'));
      await made.fs.symlink('f', at('l'));
      expect(await removeIfPresent(made.fs, at('l'))).toBe(true);
      expect((await made.fs.lstat(at('f'))).type).toBe('file');
      expect(await removeIfPresent(made.fs, at('f'))).toBe(true);
      expect(await removeIfPresent(made.fs, at('d'))).toBe(true);
      expect(await removeIfPresent(made.fs, at('d'))).toBe(false);
      expect(await readdirOrNull(made.fs, made.root)).toEqual([]);
    });

    it('removeIfPresent reports a folder that is not empty and an I/O failure', async () => {
      made = await make();
      await made.fs.mkdir(at('d'));
      await made.fs.writeFile(at('d/f'), 'x');
      await expect(removeIfPresent(made.fs, at('d'))).rejects.toMatchObject({ code: 'ENOTEMPTY' });
      await expect(removeIfPresent(failing(made.fs, 'unlink'), at('d/f'))).rejects.toMatchObject({ code: 'EIO' });
      expect(await readdirOrNull(made.fs, at('d'))).toEqual(['f']);
    });

    it('removeTree removes a whole tree without following links out of it', async () => {
      made = await make();
      await mkdirp(made.fs, at('keep'));
      await made.fs.writeFile(at('keep/kept.txt'), 'kept');
      await mkdirp(made.fs, at('t/a/b'));
      await made.fs.writeFile(at('t/a/b/f'), 'x');
      await made.fs.writeFile(at('t/g'), 'y');
      await made.fs.symlink(at('keep'), at('t/link'));
      expect(await removeTree(made.fs, at('t'))).toBe(true);
      expect(await lstatOrNull(made.fs, at('t'))).toBeNull();
      expect(await readdirOrNull(made.fs, at('keep'))).toEqual(['kept.txt']);
      expect(await removeTree(made.fs, at('t'))).toBe(false);
      await made.fs.writeFile(at('single'), 'z');
      expect(await removeTree(made.fs, at('single'))).toBe(true);
    });

    it('removeTree stops at an I/O failure instead of claiming success', async () => {
      made = await make();
      await mkdirp(made.fs, at('t/a'));
      await made.fs.writeFile(at('t/a/f'), 'x');
      await expect(removeTree(failing(made.fs, 'unlink'), at('t'))).rejects.toMatchObject({ code: 'EIO' });
      await expect(removeTree(failing(made.fs, 'readdir'), at('t'))).rejects.toMatchObject({ code: 'EIO' });
      expect(await readdirOrNull(made.fs, at('t/a'))).toEqual(['f']);
    });
  });
}

describe('isAbsent', () => {
  it('is true only for ENOENT and ENOTDIR', () => {
    expect(isAbsent(Object.assign(new Error(), { code: 'ENOENT' }))).toBe(true);
    expect(isAbsent(Object.assign(new Error(), { code: 'ENOTDIR' }))).toBe(true);
    for (const code of ['EIO', 'EACCES', 'ENOSPC', 'EEXIST', undefined])
      expect(isAbsent(Object.assign(new Error(), { code }))).toBe(false);
    expect(isAbsent(null)).toBe(false);
  });
});
