import '../../web/polyfills.js';
import { wrap } from 'comlink';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpfsFs } from '../../src/fs/opfs.js';

interface LayoutWorker {
  folderNames(name: string): Promise<string[]>;
  session(
    name: string,
    layout: 'auto' | 'packed' | 'tree' | undefined,
    files: Record<string, string>,
    read: string[],
    keep?: boolean,
  ): Promise<{ got?: Record<string, string>; names?: string[]; code?: string }>;
  churn(name: string): Promise<{ names: string[]; first: number; size: number; small: string }>;
}

const spawn = () => {
  const worker = new Worker(new URL('./fixtures/opfs-layout-worker.ts', import.meta.url), { type: 'module' });
  return { worker, api: wrap<LayoutWorker>(worker) };
};
const unique = (what: string) =>
  `sandpit-layout-${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
const made: string[] = [];
const fresh = (what: string) => {
  const name = unique(what);
  made.push(name);
  return name;
};

afterAll(async () => {
  const root = await navigator.storage.getDirectory();
  for (const name of made) await root.removeEntry(name, { recursive: true }).catch(() => {});
});

describe('OPFS layouts: packed in a worker, a tree elsewhere, and each workspace keeps its own', () => {
  it('a new workspace in a worker is one log file, and reopens with its files', async () => {
    const { worker, api } = spawn();
    const name = fresh('packed');
    const first = await api.session(name, undefined, { '/a.txt': 'alpha' }, ['/a.txt']);
    expect(first).toEqual({ got: { '/a.txt': 'alpha' }, names: ['sandpit.pack.1'] });
    expect(await api.session(name, undefined, {}, ['/a.txt'])).toMatchObject({ got: { '/a.txt': 'alpha' } });
    worker.terminate();
  });

  it('a workspace stored as a tree stays a tree when a worker opens it', async () => {
    const name = fresh('tree');
    const page = await createOpfsFs({ name });
    await page.writeFile('/made-on-the-page.txt', 'tree');
    // A file that only looks like a log does not make a tree packed.
    await page.writeFile('/sandpit.pack.1', 'not a log');
    const { worker, api } = spawn();
    const opened = await api.session(name, undefined, { '/b.txt': 'bee' }, [
      '/made-on-the-page.txt',
      '/sandpit.pack.1',
    ]);
    expect(opened).toEqual({
      got: { '/made-on-the-page.txt': 'tree', '/sandpit.pack.1': 'not a log' },
      names: ['b.txt', 'made-on-the-page.txt', 'sandpit.pack.1'],
    });
    expect(await api.session(name, 'packed', {}, [])).toEqual({ code: 'EEXIST' });
    worker.terminate();
  });

  it('the page is refused a packed workspace with EACCES, since it has no sync access handles', async () => {
    const { worker, api } = spawn();
    const name = fresh('refused');
    await api.session(name, undefined, { '/a.txt': 'alpha' }, []);
    await expect(createOpfsFs({ name })).rejects.toMatchObject({
      code: 'EACCES',
      message: expect.stringContaining('dedicated worker'),
    });
    await expect(createOpfsFs({ name, layout: 'tree' })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await api.folderNames(name)).toEqual(['sandpit.pack.1']);
    worker.terminate();
  });

  it('rewrites a wasteful log on real OPFS, and the next open reads the rewrite', async () => {
    const { worker, api } = spawn();
    const result = await api.churn(fresh('churn'));
    expect(result).toEqual({ names: ['sandpit.pack.2'], first: 9, size: 1 << 20, small: 'kept' });
    worker.terminate();
  });

  it('a worker killed with its log open loses no finished write, and the next worker waits for the handle', async () => {
    const name = fresh('killed');
    const a = spawn();
    const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`/f${i}.txt`, `file ${i}`]));
    await a.api.session(name, undefined, files, [], true);
    a.worker.terminate();
    const b = spawn();
    const reopened = await b.api.session(name, undefined, {}, Object.keys(files));
    expect(reopened.got).toEqual(files);
    b.worker.terminate();
  });
});
