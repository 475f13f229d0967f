import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';
import { TreeCache } from '../../src/snapshots/tree.js';

// The rescan trusts what has not moved: a file's size, mtime, inode and mode (its stat cache), and
// on the node backend a folder's names while the folder keeps its mtime. These are the changes
// those shortcuts must still see, on a tree aged past the one-second racy window so every
// shortcut is taken.

let root: string | null = null;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

/** Every file and folder below `dir` (and `dir`) gets an mtime `seconds` in the past. */
function age(dir: string, seconds = 30): void {
  const at = new Date(Date.now() - seconds * 1000);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.sandpit') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) age(p, seconds);
    if (!e.isSymbolicLink()) utimesSync(p, at, at);
  }
  utimesSync(dir, at, at);
}

async function held(ws: ReturnType<typeof createWorkspace>): Promise<string[]> {
  const store = ws.snapshots!;
  const files = await new TreeCache(store.access, store.history.head!.tree).files('');
  return [...files.keys()].sort();
}

async function blobOf(ws: ReturnType<typeof createWorkspace>, rel: string): Promise<string> {
  const store = ws.snapshots!;
  const leaf = (await new TreeCache(store.access, store.history.head!.tree).files(rel)).get(rel)!;
  return new TextDecoder().decode(await store.readBlob(leaf.oid));
}

it('a rescan on node, with every folder listing and file stat trusted, still sees edits in place, kinds swapped, links and folders gone', async () => {
  root = mkdtempSync(join(tmpdir(), 'sandpit-rescan-shortcuts-'));
  const at = root;
  const put = (rel: string, text: string) => {
    mkdirSync(join(at, rel, '..'), { recursive: true });
    writeFileSync(join(at, rel), text);
  };
  put('src/same.txt', 'one\n');
  put('src/kind', 'a file\n');
  put('src/linked.txt', 'target\n');
  put('src/other.txt', 'other\n');
  put('gone/deep/x.txt', 'x\n');
  put('swap/a.txt', 'a\n');
  put('swap2/b.txt', 'b\n');
  symlinkSync('linked.txt', join(at, 'src/link'));
  age(at);
  const ws = createWorkspace({ fs: createNodeFs({ root: at }), root: at });
  await ws.snapshots!.open();
  expect(await ws.rescan()).toMatchObject({ snapshot: null, changed: [] });

  // In place, same size, an mtime in the same second as before: the folder's mtime does not move.
  const src = statSync(join(at, 'src'));
  const before = statSync(join(at, 'src/same.txt'));
  writeFileSync(join(at, 'src/same.txt'), 'two\n');
  const sameSecond = new Date(Math.floor(before.mtimeMs / 1000) * 1000 + (((before.mtimeMs % 1000) + 300) % 1000));
  utimesSync(join(at, 'src/same.txt'), sameSecond, sameSecond);
  expect(statSync(join(at, 'src/same.txt')).ino).toBe(before.ino);
  expect(statSync(join(at, 'src')).mtimeMs).toBe(src.mtimeMs);
  expect((await ws.rescan())?.changed).toEqual(['src/same.txt']);
  expect(await blobOf(ws, 'src/same.txt')).toBe('two\n');

  // A file replaced by a folder of the same name, a link retargeted, a folder tree removed, a
  // folder replaced by another one moved over it.
  rmSync(join(at, 'src/kind'));
  put('src/kind/inner.txt', 'inner\n');
  rmSync(join(at, 'src/link'));
  symlinkSync('other.txt', join(at, 'src/link'));
  rmSync(join(at, 'gone'), { recursive: true });
  rmSync(join(at, 'swap'), { recursive: true });
  renameSync(join(at, 'swap2'), join(at, 'swap'));
  expect((await ws.rescan())?.changed).toEqual([
    'gone/deep/x.txt',
    'src/kind',
    'src/kind/inner.txt',
    'src/link',
    'swap/a.txt',
    'swap/b.txt',
    'swap2/b.txt',
  ]);
  expect(await held(ws)).toEqual([
    'src/kind/inner.txt',
    'src/link',
    'src/linked.txt',
    'src/other.txt',
    'src/same.txt',
    'swap/b.txt',
  ]);
  expect(await blobOf(ws, 'src/link')).toBe('other.txt');

  // A folder back to a file, and a file that became a link.
  rmSync(join(at, 'src/kind'), { recursive: true });
  put('src/kind', 'a file again\n');
  rmSync(join(at, 'src/other.txt'));
  symlinkSync('kind', join(at, 'src/other.txt'));
  expect((await ws.rescan())?.changed).toEqual(['src/kind', 'src/kind/inner.txt', 'src/other.txt']);
  expect(await ws.rescan()).toMatchObject({ snapshot: null, changed: [] });
  await ws.close();
});

it('on memory, whose mtimes are the clock itself, a rescan right after a snapshot re-reads nothing, and a same-size edit still shows', async () => {
  const inner = createMemoryFs({ '/ws/a.txt': 'one\n', '/ws/d/b.txt': 'bee\n' });
  let reads = 0;
  const fs: WorkspaceFs = {
    ...inner,
    readFile: (path) => {
      if (!path.startsWith('/ws/.sandpit/')) reads++;
      return inner.readFile(path);
    },
  };
  expect(fs.capabilities?.clockMtimes).toBe(true);
  const ws = createWorkspace({ fs, root: '/ws' });
  // the first snapshot stats the files a few milliseconds after they were written, at the least
  const written = Date.now();
  while (Date.now() - written < 10) await new Promise((resolve) => setTimeout(resolve, 2));
  await ws.snapshots!.open();
  reads = 0;
  expect(await ws.rescan()).toMatchObject({ snapshot: null, changed: [] });
  expect(reads, 'files read by a rescan that found nothing changed').toBe(0);

  // written right after the snapshot read it (perhaps in the same millisecond): same size, seen
  await fs.writeFile('/ws/a.txt', 'two\n');
  await ws.snapshots!.commitPending({ message: 'edit' }, ['a.txt']);
  await fs.writeFile('/ws/a.txt', 'six\n');
  expect((await ws.rescan())?.changed).toEqual(['a.txt']);
  expect(await blobOf(ws, 'a.txt')).toBe('six\n');
  await ws.close();
});
