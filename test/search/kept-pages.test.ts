import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { watchedFs } from '../support/watched-fs.js';

interface Page {
  matches: Array<{ path: string; line: number; content: string }>;
  count: number;
  truncated: boolean;
  next_cursor: string | null;
  skipped?: Array<{ path: string; reason: string }>;
}

type Search = (args: Record<string, unknown>) => Promise<Page>;

/** search_files on a workspace, failing the test on an error envelope. */
function searchOn(ws: ReturnType<typeof createWorkspace>): Search {
  return async (args) => {
    const r = await ws.call('search_files', args);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return r.result as Page;
  };
}

/** Every page of a query, `between` called after each page but the last. */
async function allPages(search: Search, args: Record<string, unknown>, between?: (page: Page) => Promise<void>) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = await search({ ...args, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.next_cursor;
    if (cursor && between) await between(page);
  } while (cursor);
  return pages;
}

/** A real memory backend whose file reads are counted and finish in a scrambled order. */
function scrambled(seed: Record<string, string>) {
  const counter = { reads: 0 };
  const fs: WorkspaceFs = watchedFs(
    createMemoryFs(seed),
    (operation, args) => {
      counter.reads += operation === 'readPlainFiles' ? (args[1] as string[]).length : 1;
      const key = String(operation === 'readPlainFiles' ? (args[1] as string[]).join('/') : (args[1] ?? args[0]));
      return new Promise((resolve) => setTimeout(resolve, (key.length * 7919) % 5));
    },
    new Set(['readFile', 'readPlainFile', 'readPlainFiles']),
  );
  return { fs, counter };
}

const seed: Record<string, string> = {};
for (let d = 0; d < 20; d++) for (let f = 0; f < 25; f++) seed[`/ws/d${d}/f${f}.txt`] = `x\nhit ${d}.${f}\n`;

describe('search_files pages going on from the page before', () => {
  it('gives every page exactly as a page walked afresh from its cursor, reading each file about once', async () => {
    for (const size of [7, 30, 499, 500]) {
      const kept = scrambled(seed);
      const ws = createWorkspace({ fs: kept.fs, root: '/ws', snapshots: false });
      const going = await allPages(searchOn(ws), { pattern: 'hit', max_matches: size });
      // a workspace of its own for each page: nothing of the page before is there
      const fresh = scrambled(seed);
      const afresh = await allPages(
        (args) => searchOn(createWorkspace({ fs: fresh.fs, root: '/ws', snapshots: false }))(args),
        { pattern: 'hit', max_matches: size },
      );
      expect(going).toEqual(afresh);
      expect(going.flatMap((p) => p.matches).map((m) => m.content)).toEqual(
        Object.keys(seed)
          .sort()
          .map((path) => seed[path]!.slice(2, -1)),
      );
      // 500 files: walked afresh, pages of 30 read about 1,040
      if (size >= 7) expect(kept.counter.reads, `pages of ${size}`).toBeLessThan(600);
    }
  });

  it('sees changes made through the workspace between pages, in files already read ahead and in folders already listed', async () => {
    const { fs } = scrambled(seed);
    const ws = createWorkspace({ fs, root: '/ws', snapshots: false });
    const search = searchOn(ws);
    let changed = false;
    const going = await allPages(search, { pattern: 'hit', max_matches: 30 }, async (page) => {
      if (changed) return;
      changed = true;
      // the first page ends early in d1: these come after its cursor
      expect(page.matches.at(-1)!.path).toMatch(/^d1\/f1/);
      expect((await ws.call('read_file', { path: 'd1/f8.txt' })).ok).toBe(true);
      expect((await ws.call('write_file', { path: 'd1/f8.txt', content: 'hit one\nx\nhit two\n' })).ok).toBe(true);
      expect((await ws.call('write_file', { path: 'd1/f95.txt', content: 'hit new\n' })).ok).toBe(true);
    });
    const whole = await searchOn(createWorkspace({ fs, root: '/ws', snapshots: false }))({
      pattern: 'hit',
      max_matches: 1000,
    });
    expect(whole.truncated).toBe(false);
    const strip = (m: Page['matches'][number]) => [m.path, m.line, m.content];
    expect(going.flatMap((p) => p.matches).map(strip)).toEqual(whole.matches.map(strip));
    expect(whole.matches.filter((m) => m.path === 'd1/f8.txt' || m.path === 'd1/f95.txt')).toHaveLength(3);
  });

  it('keeps nothing from a page that a change through the workspace happened during', async () => {
    // d1's batch read is held until a file is written into d1 (whose listing the walk already has)
    let asked!: () => void;
    const readAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fs = watchedFs(
      createMemoryFs(seed),
      (_operation, args) => {
        if (args[0] !== '/ws/d1') return;
        asked();
        return released;
      },
      new Set(['readPlainFiles']),
    );
    const ws = createWorkspace({ fs, root: '/ws', snapshots: false });
    const search = searchOn(ws);
    const first = search({ pattern: 'hit', max_matches: 30 });
    await readAsked;
    expect((await ws.call('write_file', { path: 'd1/f95.txt', content: 'hit new\n' })).ok).toBe(true);
    release();
    const pages = [await first];
    let cursor = pages[0]!.next_cursor;
    while (cursor) {
      const page = await search({ pattern: 'hit', max_matches: 30, cursor });
      pages.push(page);
      cursor = page.next_cursor;
    }
    const whole = await searchOn(createWorkspace({ fs, root: '/ws', snapshots: false }))({
      pattern: 'hit',
      max_matches: 1000,
    });
    const strip = (m: Page['matches'][number]) => [m.path, m.line, m.content];
    expect(pages.flatMap((p) => p.matches).map(strip)).toEqual(whole.matches.map(strip));
    expect(whole.matches.some((m) => m.path === 'd1/f95.txt')).toBe(true);
  });

  it('answers a cursor used again, an older one and one whose file is gone as a fresh walk from it does', async () => {
    const { fs } = scrambled(seed);
    const ws = createWorkspace({ fs, root: '/ws', snapshots: false });
    const search = searchOn(ws);
    const afresh = (cursor: string) =>
      searchOn(createWorkspace({ fs, root: '/ws', snapshots: false }))({ pattern: 'hit', max_matches: 20, cursor });
    const first = await search({ pattern: 'hit', max_matches: 20 });
    const second = await search({ pattern: 'hit', max_matches: 20, cursor: first.next_cursor });
    const third = await search({ pattern: 'hit', max_matches: 20, cursor: second.next_cursor });
    expect(await search({ pattern: 'hit', max_matches: 20, cursor: first.next_cursor })).toEqual(second);
    expect(await search({ pattern: 'hit', max_matches: 20, cursor: second.next_cursor })).toEqual(third);
    expect(await afresh(second.next_cursor!)).toEqual(third);
    // the file of the cursor's last match deleted: the next page starts where it was
    const gone = third.matches.at(-1)!.path;
    const fourth = await search({ pattern: 'hit', max_matches: 20, cursor: third.next_cursor });
    expect((await ws.call('delete_path', { path: gone })).ok).toBe(true);
    expect(await search({ pattern: 'hit', max_matches: 20, cursor: third.next_cursor })).toEqual(fourth);
    expect(await afresh(third.next_cursor!)).toEqual(fourth);
  });

  it('pages two searches side by side, each from its own pages, and a page size may change on the way', async () => {
    const { fs } = scrambled(seed);
    const ws = createWorkspace({ fs, root: '/ws', snapshots: false });
    const search = searchOn(ws);
    const fresh = (args: Record<string, unknown>) =>
      searchOn(createWorkspace({ fs, root: '/ws', snapshots: false }))(args);
    const cursors: Record<string, string | null | undefined> = { hit: undefined, x: undefined };
    const seen: Record<string, number> = { hit: 0, x: 0 };
    for (let round = 0; cursors.hit !== null || cursors.x !== null; round++) {
      for (const pattern of ['hit', 'x']) {
        const cursor = cursors[pattern];
        if (cursor === null) continue;
        const args = { pattern, max_matches: 40 + (round % 3) * 13, ...(cursor ? { cursor } : {}) };
        const page = await search(args);
        expect(page).toEqual(await fresh(args));
        seen[pattern]! += page.count;
        cursors[pattern] = page.next_cursor;
      }
    }
    expect(seen).toEqual({ hit: 500, x: 500 });
  });
});

describe.skipIf(process.platform === 'win32')('search_files pages going on, on the node backend', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  it('pages a tree with a FIFO, a non-UTF-8 name and a .gitignore as walking afresh does', async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-kept-pages-'));
    for (let d = 0; d < 6; d++) {
      mkdirSync(join(root, `d${d}`));
      for (let f = 0; f < 12; f++) writeFileSync(join(root, `d${d}`, `f${f}.txt`), `hit ${d}.${f}\nx\nhit again\n`);
    }
    writeFileSync(
      Buffer.concat([Buffer.from(join(root, 'd3', 'caf')), Buffer.from([0xe9]), Buffer.from('.txt')]),
      'hit latin1\n',
    );
    writeFileSync(join(root, '.gitignore'), 'ignored.txt\n');
    writeFileSync(join(root, 'd4', 'ignored.txt'), 'hit ignored\n');
    execFileSync('mkfifo', [join(root, 'd5', 'pipe')]);
    for (const rooted of [false, true]) {
      const fs = createNodeFs(rooted ? { root } : {});
      const ws = createWorkspace({ fs, root, snapshots: false });
      const going = await allPages(searchOn(ws), { pattern: 'hit', max_matches: 5 });
      const afresh = await allPages((args) => searchOn(createWorkspace({ fs, root: root!, snapshots: false }))(args), {
        pattern: 'hit',
        max_matches: 5,
      });
      // what a page reports skipped past its last match depends on how far its walk ran ahead, so
      // only the last page's list is fixed: everything its walk from the cursor meets
      const withoutSkipped = (pages: Page[]) => pages.map(({ skipped: _, ...page }) => page);
      expect(withoutSkipped(going)).toEqual(withoutSkipped(afresh));
      expect(going.at(-1)).toEqual(afresh.at(-1));
      const matches = going.flatMap((p) => p.matches);
      expect(matches).toHaveLength(6 * 12 * 2 + 1);
      expect(matches.some((m) => m.content === 'hit latin1')).toBe(true);
      expect(matches.some((m) => m.content === 'hit ignored')).toBe(false);
      expect(going.at(-1)!.skipped?.map((s) => s.path)).toEqual(['d5/pipe']);
      await ws.close?.();
    }
  });
});
