import { Superblock } from '@jsonjoy.com/fs-core';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/fs/memory.js';
import { fsCodeOf } from '../../src/fs/errors.js';
import type { WorkspaceFs } from '../../src/fs/types.js';
import { createRng } from '../hardening/rng.js';

/** memfs itself, with the same owner as the backend, answering in the backend's terms. */
function plainMemfs(): (op: string, ...args: string[]) => Promise<unknown> {
  const owner = { cwd: () => '/', platform: 'linux', env: {}, emitWarning: () => {}, getuid: () => 0, getgid: () => 0 };
  const p = new Volume(new Superblock({ process: owner } as ConstructorParameters<typeof Superblock>[0])).promises;
  return async (op, ...args) => {
    switch (op) {
      case 'readFile':
        return new TextDecoder().decode((await p.readFile(args[0]!)) as Uint8Array);
      case 'writeFile':
        return p.writeFile(args[0]!, args[1]!).then(() => undefined);
      case 'readdir':
        return ((await p.readdir(args[0]!)) as string[]).map(String);
      case 'stat':
      case 'lstat': {
        const s = await p[op](args[0]!);
        return [s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'file', Number(s.size), Number(s.nlink)];
      }
      case 'mkdir':
        return p.mkdir(args[0]!).then(() => undefined);
      case 'mkdirp':
        return p.mkdir(args[0]!, { recursive: true }).then(() => undefined);
      case 'rmdir':
        return p.rmdir(args[0]!).then(() => undefined);
      case 'unlink':
        return p.unlink(args[0]!).then(() => undefined);
      case 'rename':
        return p.rename(args[0]!, args[1]!).then(() => undefined);
      case 'symlink':
        return p.symlink(args[0]!, args[1]!).then(() => undefined);
      default:
        throw new Error(op);
    }
  };
}

function backend(fs: WorkspaceFs): (op: string, ...args: string[]) => Promise<unknown> {
  return async (op, ...args) => {
    switch (op) {
      case 'readFile':
        return new TextDecoder().decode(await fs.readFile(args[0]!));
      case 'writeFile':
        return fs.writeFile(args[0]!, args[1]!);
      case 'readdir':
        return fs.readdir(args[0]!);
      case 'stat':
      case 'lstat': {
        const s = await fs[op](args[0]!);
        return [s.type, s.size, s.nlink];
      }
      case 'mkdir':
        return fs.mkdir(args[0]!);
      case 'mkdirp':
        return fs.mkdir(args[0]!, { recursive: true });
      case 'rmdir':
        return fs.rmdir(args[0]!);
      case 'unlink':
        return fs.unlink(args[0]!);
      case 'rename':
        return fs.rename(args[0]!, args[1]!);
      case 'symlink':
        return fs.symlink(args[0]!, args[1]!);
      default:
        throw new Error(op);
    }
  };
}

const outcome = (run: Promise<unknown>) =>
  run.then(
    (value) => ({ value }),
    (error) => ({ error: fsCodeOf(error) }),
  );

describe('the memory backend answering plain paths from its folder index', () => {
  it.each([0x1d3e, 7, 99, 2024])(
    'answers every operation as memfs does, through renames, removals, links and odd spellings (seed %i)',
    async (seed) => {
      const rng = createRng(seed);
      const random = rng.next;
      const pick = rng.pick;
      const names = ['a', 'b', 'c'];
      const path = () => {
        const depth = 1 + Math.floor(random() * 4);
        const parts = Array.from({ length: depth }, () => pick(names));
        const joined = `/${parts.join('/')}`;
        // spellings the index must leave to memfs
        return pick([
          joined,
          joined,
          joined,
          joined,
          `${joined}/`,
          joined.replace('/', '//'),
          `${joined}/.`,
          `/a/..${joined}`,
        ]);
      };
      const ops = [
        'readFile',
        'writeFile',
        'readdir',
        'stat',
        'lstat',
        'mkdir',
        'mkdirp',
        'mkdirp',
        'rmdir',
        'unlink',
        'rename',
        'symlink',
      ] as const;
      const ours = backend(createMemoryFs());
      const theirs = plainMemfs();
      for (let step = 0; step < 3000; step++) {
        const op = pick(ops);
        const args =
          op === 'writeFile'
            ? [path(), `v${step}`]
            : op === 'rename'
              ? [path(), path()]
              : op === 'symlink'
                ? [pick(['/a', '/b/c', 'c', '../a', '/missing']), path()]
                : [path()];
        // memfs moves a link's target on rename; the backend moves the link (see createMemoryFs)
        if (
          op === 'rename' &&
          ((await outcome(theirs('lstat', args[0]!))) as { value?: unknown[] }).value?.[0] === 'symlink'
        )
          continue;
        const expected = await outcome(theirs(op, ...args));
        const actual = await outcome(ours(op, ...args));
        expect(actual, `step ${step}: ${op} ${args.join(' ')}`).toEqual(expected);
      }
    },
  );

  it('sees a folder renamed, removed or replaced after it was looked up', async () => {
    const fs = createMemoryFs({ 'x/y/z/f.txt': 'f' });
    expect((await fs.lstat('/x/y/z/f.txt')).type).toBe('file');
    await fs.rename('/x/y', '/x/w');
    await expect(fs.lstat('/x/y/z/f.txt')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(new TextDecoder().decode(await fs.readFile('/x/w/z/f.txt'))).toBe('f');
    await fs.unlink('/x/w/z/f.txt');
    await fs.rmdir('/x/w/z');
    await fs.writeFile('/x/w/z', 'now a file');
    await expect(fs.readdir('/x/w/z')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(fs.mkdir('/x/w/z/deeper', { recursive: true })).rejects.toMatchObject({ code: 'ENOTDIR' });
    await fs.symlink('/x', '/x/w/link');
    expect((await fs.stat('/x/w/link/w/z')).type).toBe('file');
    expect(await fs.readdir('/x/w/link/w')).toEqual(['link', 'z']);
  });
});
