import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';
import { TreeCache } from '../../src/snapshots/tree.js';

let root: string | null = null;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

/** What the newest snapshot holds, read back from git (not the cache the rescan built). */
async function held(ws: ReturnType<typeof createWorkspace>): Promise<{ files: string[]; dirs: string[] }> {
  const store = ws.snapshots!;
  const dirs = new Set<string>();
  const files = await new TreeCache(store.access, store.history.head!.tree).files('', dirs);
  return { files: [...files.keys()].sort(), dirs: [...dirs].sort() };
}

const cases: Array<[string, () => { fs: WorkspaceFs; root: string }]> = [
  ['memory', () => ({ fs: createMemoryFs({ '/ws/.keep': '' }), root: '/ws' })],
  [
    'node',
    () => {
      root = mkdtempSync(join(tmpdir(), 'sandpit-rescan-kinds-'));
      return { fs: createNodeFs({ root }), root };
    },
  ],
];

it.each(cases)(
  'a rescan on %s takes a file become a folder, a folder become a file, and files and folders gone or new in one pass',
  async (_name, make) => {
    const { fs, root: at } = make();
    const put = async (rel: string, text: string) => {
      await fs.mkdir(`${at}/${rel}`.slice(0, `${at}/${rel}`.lastIndexOf('/')), { recursive: true });
      await fs.writeFile(`${at}/${rel}`, new TextEncoder().encode(text));
    };
    await put('a', 'a file\n');
    await put('b/c.txt', 'c\n');
    await put('d/e/f.txt', 'f\n');
    await put('g.txt', 'g\n');
    const ws = createWorkspace({ fs, root: at });
    await ws.snapshots!.open();
    expect((await held(ws)).files).toEqual(
      ['.keep', 'a', 'b/c.txt', 'd/e/f.txt', 'g.txt'].filter((f) => f !== '.keep' || at === '/ws'),
    );

    await fs.unlink(`${at}/a`);
    await put('a/x.txt', 'x\n');
    await fs.unlink(`${at}/b/c.txt`);
    await fs.rmdir(`${at}/b`);
    await put('b', 'now a file\n');
    await fs.unlink(`${at}/d/e/f.txt`);
    await fs.rmdir(`${at}/d/e`);
    await fs.mkdir(`${at}/empty`);
    await put('new/deep/n.txt', 'n\n');

    const found = await ws.rescan();
    expect(found?.changed).toEqual(['a', 'a/x.txt', 'b', 'b/c.txt', 'd/e/f.txt', 'new/deep/n.txt']);
    const after = await held(ws);
    expect(after.files).toEqual(
      ['a/x.txt', 'b', 'g.txt', 'new/deep/n.txt'].concat(at === '/ws' ? ['.keep'] : []).sort(),
    );
    expect(after.dirs).toEqual(['a', 'd', 'empty', 'new', 'new/deep']);
    expect(await ws.rescan()).toMatchObject({ snapshot: null, changed: [] });
    await ws.close();
  },
);

it('a rescan on node finds an edit of the same size made right after the snapshot read the file', async () => {
  root = mkdtempSync(join(tmpdir(), 'sandpit-rescan-kinds-'));
  writeFileSync(join(root, 'f.txt'), 'one\n');
  const ws = createWorkspace({ fs: createNodeFs({ root }), root });
  await ws.snapshots!.open();
  // an edit of the same size right after the snapshot read it: its stat may not have moved
  writeFileSync(join(root, 'f.txt'), 'two\n');
  const found = await ws.rescan();
  expect(found?.changed).toEqual(['f.txt']);
  await ws.close();
});
