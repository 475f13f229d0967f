import { describe, expect, it } from 'vitest';
import { openPackStore } from '../../src/fs/pack/pack-store.js';
import { createWorkspace } from '../../src/index.js';
import { MemoryPackFolder } from '../fs/memory-pack-folder.js';
import { createRepo, gitServerForFile } from './git-server.js';
import { everything } from './workspaces.js';

// A clone into the packed OPFS layout's store (its log held in memory, as in test/fs/pack-store):
// the checkout's files go to the log a batch per turn, and a batch that fails part-way through
// the checkout fails the clone and leaves nothing behind.

const server = gitServerForFile();
let counter = 0;

const FILES = 120;
const files = Object.fromEntries(
  Array.from({ length: FILES }, (_, i) => [`dir${i % 6}/file${i}.txt`, `file ${i}\n`.repeat(1 + (i % 5))]),
);

async function packed() {
  const folder = new MemoryPackFolder();
  const fs = await openPackStore(folder);
  return { folder, fs, ws: createWorkspace({ fs }) };
}

describe('git clone into a packed OPFS store', () => {
  it('writes every file, its checkout a few log writes rather than one per file', async () => {
    /** The log writes of a clone of `repo` into a new store, with the files checked. */
    const writesOf = async (repo: Record<string, string>): Promise<number> => {
      const name = `packed-${++counter}`;
      createRepo(server, name, repo);
      const { folder, fs, ws } = await packed();
      let writes = 0;
      folder.onWrite = () => {
        writes++;
      };
      const cloned = await ws.git.clone({ url: `${server.url}/${name}.git` });
      expect(cloned.ok, JSON.stringify(cloned)).toBe(true);
      if (cloned.ok) expect(cloned.result.files).toBe(Object.keys(repo).length);
      for (const [path, text] of Object.entries(repo))
        expect(new TextDecoder().decode(await fs.readFile(`/${path}`))).toBe(text);
      await ws.close();
      await fs.close();
      return writes;
    };
    const few = Object.fromEntries(Object.entries(files).slice(0, 12));
    // the same clone with 108 more files: one write per file would be 108 more writes
    expect((await writesOf(files)) - (await writesOf(few))).toBeLessThan((FILES - 12) / 4);
  });

  it('a log write failing part-way through the checkout fails the clone and leaves the store empty; a retry works', async () => {
    const name = `packed-fail-${++counter}`;
    createRepo(server, name, files);
    const { folder, fs, ws } = await packed();
    let armed = false;
    const failed = await ws.git.clone({
      url: `${server.url}/${name}.git`,
      onProgress: (event) => {
        if (event.phase === 'Writing files' && event.loaded > 0 && !armed) {
          armed = true;
          folder.failWrites = 1;
        }
      },
    });
    expect(armed).toBe(true);
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error.code).toBe('IO_ERROR');
    expect(await everything(fs, '/')).toEqual({});
    const retry = await ws.git.clone({ url: `${server.url}/${name}.git` });
    expect(retry.ok, JSON.stringify(retry)).toBe(true);
    if (retry.ok) expect(retry.result.files).toBe(FILES);
    await ws.close();
    await fs.close();
  });
});
