import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';

/** A real memory backend whose reads (one at a time or a folder's batch) are counted and finish in a scrambled order. */
function scrambled(seed: Record<string, string>) {
  const fs = createMemoryFs(seed);
  const counter = { reads: 0 };
  const late = <T>(path: string, value: T) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value), (path.length * 7919) % 5));
  const wrapped: WorkspaceFs = {
    ...fs,
    readFile: async (path: string) => {
      counter.reads++;
      return late(path, await fs.readFile(path));
    },
    readPlainFile: async (base, rel, max) => {
      counter.reads++;
      return late(rel, await fs.readPlainFile!(base, rel, max));
    },
    readPlainFiles: async (base, names, max) => {
      counter.reads += names.length;
      return late(names.join('/'), await fs.readPlainFiles!(base, names, max));
    },
  };
  return { fs: wrapped, counter };
}

describe('search engine', () => {
  const seed: Record<string, string> = {};
  for (let d = 0; d < 20; d++) for (let f = 0; f < 25; f++) seed[`/ws/d${d}/f${f}.txt`] = `x\nhit ${d}.${f}\n`;

  it('returns matches in walk order however the reads finish', async () => {
    const { fs } = scrambled(seed);
    const ws = createWorkspace({ fs, root: '/ws' });
    const r = await ws.call('search_files', { pattern: 'hit', max_matches: 1000 });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const paths = (r.result as { matches: Array<{ path: string }> }).matches.map((m) => m.path);
    expect(paths).toHaveLength(500);
    const names = (p: string) => p.split('/');
    expect([...paths].sort((a, b) => (names(a).join('\0') < names(b).join('\0') ? -1 : 1))).toEqual(paths);
  });

  it('stops reading soon after the page is full, and still knows there is more', async () => {
    const { fs, counter } = scrambled(seed);
    const ws = createWorkspace({ fs, root: '/ws' });
    const r = await ws.call('search_files', { pattern: 'hit', max_matches: 5 });
    expect(r.ok && (r.result as { truncated: boolean; count: number })).toMatchObject({ truncated: true, count: 5 });
    expect(counter.reads).toBeLessThan(60);
  });

  it('pages through a cursor reading little past each page', async () => {
    const { fs, counter } = scrambled(seed);
    const ws = createWorkspace({ fs, root: '/ws' });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await ws.call('search_files', { pattern: 'hit', max_matches: 30, ...(cursor ? { cursor } : {}) });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      const page = r.result as { matches: Array<{ content: string }>; next_cursor: string | null };
      seen.push(...page.matches.map((m) => m.content));
      cursor = page.next_cursor;
    } while (cursor);
    // every match once, in path order (no name here sorts differently by component)
    const inOrder = Object.keys(seed).sort();
    expect(seen).toEqual(inOrder.map((path) => seed[path]!.slice(2, -1)));
    // 17 pages over 500 files: with three folders read past each page's end it took about 1,500 reads (now about 1,040)
    expect(counter.reads).toBeLessThan(1200);
  });
});
