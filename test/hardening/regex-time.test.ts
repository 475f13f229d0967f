import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { FULL } from './sizes.js';

type Page = {
  matches: Array<{ path: string; line: number }>;
  count: number;
  truncated: boolean;
  next_cursor: string | null;
  stopped?: string;
};

async function ok(ws: ReturnType<typeof createWorkspace>, tool: string, args: unknown): Promise<Page> {
  const r = await ws.call(tool, args);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.result as Page;
}

/** A memory backend whose reads take a little while, so a call's budget runs out mid-walk. */
function slowReads(seed: Record<string, string>, delayMs: number): WorkspaceFs {
  const fs = createMemoryFs(seed);
  const readFile = fs.readFile.bind(fs) as (path: string) => Promise<Uint8Array>;
  const readdirTypes = fs.readdirTypes?.bind(fs);
  const readPlainFile = fs.readPlainFile?.bind(fs);
  const readPlainFiles = fs.readPlainFiles?.bind(fs);
  const later = () => new Promise((r) => setTimeout(r, delayMs));
  return {
    ...fs,
    // search reads through the plain-file path where the backend has one (it gives the link count too)
    ...(readPlainFile
      ? {
          readPlainFile: (async (base: string, rel: string, max: number) => {
            await later();
            return readPlainFile(base, rel, max);
          }) as WorkspaceFs['readPlainFile'],
        }
      : {}),
    // and through the batched read of a folder's files, each file as slow as alone
    ...(readPlainFiles
      ? {
          readPlainFiles: (async (base: string, names: readonly string[], max: number) => {
            for (const _ of names) await later();
            return readPlainFiles(base, names, max);
          }) as WorkspaceFs['readPlainFiles'],
        }
      : {}),
    readFile: (async (path: string) => {
      await new Promise((r) => setTimeout(r, delayMs));
      return readFile(path);
    }) as WorkspaceFs['readFile'],
    ...(readdirTypes
      ? {
          readdirTypes: async (p: string) => {
            await new Promise((r) => setTimeout(r, delayMs));
            return readdirTypes(p);
          },
        }
      : {}),
  };
}

describe('regex search in linear time', () => {
  it('answers a catastrophic-backtracking pattern at once, and other calls keep answering', async () => {
    const ws = createWorkspace({
      fs: createMemoryFs({ '/ws/a.txt': `${'a'.repeat(34)}!\n`, '/ws/b.txt': 'aaa\n' }),
      root: '/ws',
    });
    // CPU time, not wall time: backtracking would burn seconds of CPU, which a loaded machine's wall
    // clock cannot tell from waiting for a core.
    const started = process.cpuUsage();
    const [search, other] = await Promise.all([
      ok(ws, 'search_files', { pattern: '(a+)+$', is_regex: true }),
      ok(ws, 'search_files', { pattern: 'aaa' }),
    ]);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
    expect(search.matches.map((m) => m.path)).toEqual(['b.txt']);
    expect(other.count).toBe(2);
  });

  it('runs the OWASP ReDoS patterns on a long line to the end', async () => {
    // At full size the longest line a regex reads whole: 1 Mi characters with the '!' (a longer line
    // is searched in its first 1 Mi and listed as partly searched, tested in huge-lines).
    const size = FULL ? 1024 * 1024 - 1 : 100_000;
    const ws = createWorkspace({
      fs: createMemoryFs({ '/ws/long.txt': `${'a'.repeat(size)}!\n`, '/ws/x.txt': `${'x'.repeat(size)}\n` }),
      root: '/ws',
      policy: { limits: { searchBudgetMs: 600_000 } },
    });
    const figures: string[] = [];
    for (const pattern of ['(a+)+$', '([a-zA-Z]+)*$', '(a|aa)+$', '(a|a?)+$', '(.*a){12}$', '(x+x+)+y']) {
      const started = Date.now();
      const r = await ok(ws, 'search_files', { pattern, is_regex: true });
      figures.push(`${pattern} ${Date.now() - started} ms`);
      // the whole search ran: no budget cut it short, and the answers are RE2's
      expect(r.truncated, pattern).toBe(false);
      expect(r.stopped).toBeUndefined();
    }
    console.log(`[hardening regex] ${size}-char lines: ${figures.join(', ')} (loaded machine)`);
  });

  it('refuses backreferences and lookaround by name, and keeps JavaScript escapes working', async () => {
    const ws = createWorkspace({ fs: createMemoryFs({ '/ws/a.txt': 'A1 and b2\n' }), root: '/ws' });
    for (const [pattern, says] of [
      ['(a)\\1', 'backreferences'],
      ['a(?=b)', 'lookahead'],
      ['(?<!a)b', 'lookahead'],
      ['foo(', 'not a valid'],
    ] as const) {
      const r = await ws.call('search_files', { pattern, is_regex: true });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('INVALID_ARGUMENTS');
        expect(r.error.message).toContain(says);
        expect(r.error.problems?.[0]?.path).toBe('/pattern');
      }
    }
    expect((await ok(ws, 'search_files', { pattern: '\\u0041\\d', is_regex: true })).count).toBe(1);
    expect((await ok(ws, 'search_files', { pattern: '(?<n>b)\\d', is_regex: true })).count).toBe(1);
    expect((await ok(ws, 'search_files', { pattern: 'AND', is_regex: true, case_sensitive: false })).count).toBe(1);
  });
});

describe('per-call time budget', () => {
  const seed: Record<string, string> = {};
  for (let i = 0; i < 40; i++) seed[`/ws/f${String(i).padStart(2, '0')}.txt`] = `hit ${i}\n`;

  it('ends a slow search with partial results and a cursor that pages through everything exactly once', async () => {
    const ws = createWorkspace({ fs: slowReads(seed, 15), root: '/ws', policy: { limits: { searchBudgetMs: 40 } } });
    const seen: string[] = [];
    let cursor: string | undefined;
    let stoppedPages = 0;
    for (let page = 0; page < 200; page++) {
      const r = await ok(ws, 'search_files', { pattern: 'hit', max_matches: 1000, ...(cursor ? { cursor } : {}) });
      seen.push(...r.matches.map((m) => m.path));
      if (r.stopped === 'time_budget') stoppedPages++;
      if (!r.truncated) break;
      expect(r.next_cursor).toBeTruthy();
      cursor = r.next_cursor!;
    }
    expect(stoppedPages).toBeGreaterThan(0);
    expect(seen).toEqual(
      Object.keys(seed)
        .map((p) => p.slice(4))
        .sort(),
    );
  });

  it('stops inside one big file between lines and continues after the last line it looked at', async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => (i % 1000 === 0 ? `hit ${i}` : `line ${i}`));
    const ws = createWorkspace({
      fs: createMemoryFs({ '/ws/big.txt': `${lines.join('\n')}\n` }),
      root: '/ws',
      policy: { limits: { searchBudgetMs: 1 } },
    });
    const got: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (; pages < 100; pages++) {
      const r = await ok(ws, 'search_files', {
        pattern: 'HIT',
        case_sensitive: false,
        max_matches: 1000,
        ...(cursor ? { cursor } : {}),
      });
      got.push(...r.matches.map((m) => m.line));
      if (!r.truncated) break;
      cursor = r.next_cursor!;
    }
    expect(pages).toBeGreaterThan(0);
    expect(got).toEqual(Array.from({ length: 100 }, (_, i) => i * 1000 + 1));
  });

  it('ends a slow glob with a cursor, and glob pages by max_results without repeats', async () => {
    const ws = createWorkspace({ fs: slowReads(seed, 0), root: '/ws' });
    const all: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const r = await ok(ws, 'glob', { pattern: '*.txt', max_results: 7, ...(cursor ? { cursor } : {}) });
      all.push(...(r.matches as unknown as string[]));
      if (!r.truncated) break;
      cursor = r.next_cursor!;
    }
    expect(all).toEqual(
      Object.keys(seed)
        .map((p) => p.slice(4))
        .sort(),
    );
    const deep: Record<string, string> = {};
    for (let d = 0; d < 30; d++) for (let f = 0; f < 5; f++) deep[`/ws/d${String(d).padStart(2, '0')}/f${f}.md`] = 'x';
    const slow = createWorkspace({ fs: slowReads(deep, 5), root: '/ws', policy: { limits: { searchBudgetMs: 1 } } });
    const found: string[] = [];
    let stopped = 0;
    cursor = undefined;
    for (let i = 0; i < 1000; i++) {
      const r = await ok(slow, 'glob', { pattern: '**/*.md', ...(cursor ? { cursor } : {}) });
      found.push(...(r.matches as unknown as string[]));
      if (r.stopped === 'time_budget') stopped++;
      if (!r.truncated) break;
      cursor = r.next_cursor!;
    }
    expect(stopped).toBeGreaterThan(0);
    expect(found).toEqual(
      Object.keys(deep)
        .map((p) => p.slice(4))
        .sort(),
    );
  });
});
