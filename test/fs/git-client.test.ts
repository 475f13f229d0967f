import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { createMapFs } from '../../src/conformance/example.js';
import { gitFsClient } from '../../src/fs/git-client.js';
import { createMemoryFs } from '../../src/fs/memory.js';
import type { WorkspaceFs } from '../../src/fs/types.js';

const author = { name: 'a', email: 'a@example.com', timestamp: 1_700_000_000, timezoneOffset: 0 };

/** A commit with one file, then the branch and log read back: git reads refs and config as text. */
async function commitAndLog(fs: WorkspaceFs) {
  const client = gitFsClient(fs);
  const gitdir = '/repo.git';
  await git.init({ fs: client, gitdir, bare: true, defaultBranch: 'main' });
  await git.setConfig({ fs: client, gitdir, path: 'user.name', value: 'a' });
  const blob = await git.writeBlob({ fs: client, gitdir, blob: new TextEncoder().encode('hi\n') });
  const tree = await git.writeTree({
    fs: client,
    gitdir,
    tree: [{ mode: '100644', path: 'a.txt', oid: blob, type: 'blob' }],
  });
  const oid = await git.commit({
    fs: client,
    gitdir,
    message: 'first',
    tree,
    parent: [],
    author,
    ref: 'refs/heads/main',
  });
  return {
    oid,
    head: await git.resolveRef({ fs: client, gitdir, ref: 'HEAD' }),
    name: await git.getConfig({ fs: client, gitdir, path: 'user.name' }),
    log: (await git.log({ fs: client, gitdir })).map((c) => c.commit.message),
  };
}

describe('gitFsClient', () => {
  it('lets isomorphic-git use a backend whose readFile gives only bytes', async () => {
    const out = await commitAndLog(createMapFs());
    expect(out.head).toBe(out.oid);
    expect(out.name).toBe('a');
    expect(out.log).toEqual(['first\n']);
  });

  it('gives the same repository on the built-in memory backend', async () => {
    const [map, memory] = [await commitAndLog(createMapFs()), await commitAndLog(createMemoryFs())];
    expect(memory).toEqual(map);
  });

  it('keeps the `this` of a backend written as a class, and its own bytes for binary reads', async () => {
    class Counting {
      reads = 0;
      private readonly inner = createMemoryFs({ '/f.bin': 'x' });
      readFile(path: string) {
        this.reads++;
        return this.inner.readFile(path);
      }
      writeFile(path: string, data: Uint8Array | string) {
        return this.inner.writeFile(path, data);
      }
      readdir(path: string) {
        return this.inner.readdir(path);
      }
      stat(path: string) {
        return this.inner.stat(path);
      }
      lstat(path: string) {
        return this.inner.lstat(path);
      }
      mkdir(path: string, options?: { recursive?: boolean }) {
        return this.inner.mkdir(path, options);
      }
      rmdir(path: string) {
        return this.inner.rmdir(path);
      }
      unlink(path: string) {
        return this.inner.unlink(path);
      }
      rename(from: string, to: string) {
        return this.inner.rename(from, to);
      }
      readlink(path: string) {
        return this.inner.readlink(path);
      }
      symlink(target: string, path: string) {
        return this.inner.symlink(target, path);
      }
    }
    const backend = new Counting();
    const { promises } = gitFsClient(backend);
    expect([...(await promises.readFile('/f.bin'))]).toEqual([120]);
    expect(
      await (promises.readFile as (p: string, o: unknown) => Promise<unknown>)('/f.bin', { encoding: 'utf8' }),
    ).toBe('x');
    expect(await promises.stat('/f.bin')).toMatchObject({ type: 'file', size: 1 });
    expect(backend.reads).toBe(2);
    await expect(promises.readFile('/none')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
