import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { readHelperCount } from '../../src/fs/node-direct.js';
import { UNDECODABLE_WITH_LITERAL } from '../../src/search/search.js';

type Page = {
  matches: Array<{ path: string }>;
  skipped?: Array<{ path: string; reason: string }>;
  next_cursor: string | null;
};

const latin1 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));

/**
 * grep finds a literal in any file's bytes; search_files searches text. Every file grep finds it in
 * must then be matched or listed in `skipped`: an agent told nothing takes a Latin-1 file for one
 * without the text it looks for.
 */
describe('a file holding the literal that is not UTF-8', () => {
  const base = mkdtempSync(join(tmpdir(), 'sandpit-undecodable-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const files: Record<string, Uint8Array | string> = {
    'a/caf\u00e9-latin1.c': latin1('/* r\u00e9sum\u00e9 */\nint TODO_fix = 1;\n'),
    'a/latin1-without.c': latin1('/* r\u00e9sum\u00e9 */\nint x;\n'),
    'a/utf8.c': 'int TODO_fix = 2; // r\u00e9sum\u00e9\n',
    'b/cp1252.txt': Uint8Array.from([0x93, ...new TextEncoder().encode('TODO_fix'), 0x94, 10]),
    'b/truncated-utf8.txt': Uint8Array.from([...new TextEncoder().encode('TODO_fix '), 0xe2, 0x82, 10]),
    'b/binary.bin': Uint8Array.from([...new TextEncoder().encode('TODO_fix'), 0, 1, 2]),
  };
  // enough files for the node backend's read helper to take part (it starts after 256 files)
  for (let i = 0; i < 400; i++)
    files[`c/f${String(i).padStart(3, '0')}.txt`] =
      i % 50 === 7 ? latin1(`caf\u00e9 TODO_fix ${i}\n`) : i % 3 === 0 ? `TODO_fix ${i}\n` : `nothing ${i}\n`;
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(base, path, '..'), { recursive: true });
    writeFileSync(join(base, path), content);
  }
  const memoryFiles = Object.fromEntries(Object.entries(files).map(([p, c]) => [`/ws/${p}`, c]));

  const workspaces = () => ({
    memory: createWorkspace({ fs: createMemoryFs(memoryFiles), root: '/ws' }),
    node: createWorkspace({ fs: createNodeFs(), root: base }),
    'node on its root': createWorkspace({ fs: createNodeFs({ root: base }), root: base }),
  });

  async function allPages(ws: ReturnType<typeof createWorkspace>, args: Record<string, unknown>) {
    const matched = new Set<string>();
    const skipped = new Map<string, string>();
    let cursor: string | null = null;
    do {
      const pageArgs: Record<string, unknown> = cursor ? { ...args, cursor } : args;
      const env = await ws.call<Page>('search_files', pageArgs);
      if (!env.ok) throw new Error(JSON.stringify(env.error));
      for (const m of env.result.matches) matched.add(m.path);
      for (const s of env.result.skipped ?? []) skipped.set(s.path, s.reason);
      cursor = env.result.next_cursor;
    } while (cursor);
    return { matched, skipped };
  }

  it('is listed in skipped, so every file grep finds it in is matched or listed', async () => {
    // grep -I leaves binary files out, as search_files does
    const grep = execFileSync('grep', ['-rlIF', 'TODO_fix', '.'], { cwd: base, env: { LC_ALL: 'C' } })
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((p) => p.replace(/^\.\//, ''))
      .sort();
    expect(grep).toContain('a/caf\u00e9-latin1.c');
    for (const [name, ws] of Object.entries(workspaces())) {
      for (const pageSize of [100_000, 7]) {
        const { matched, skipped } = await allPages(ws, { pattern: 'TODO_fix', max_matches: pageSize });
        const undecodable = grep.filter((p) => !matched.has(p)).sort();
        expect(undecodable, `${name}, pages of ${pageSize}`).toEqual([
          'a/caf\u00e9-latin1.c',
          'b/cp1252.txt',
          'b/truncated-utf8.txt',
          ...Array.from({ length: 8 }, (_, k) => `c/f${String(k * 50 + 7).padStart(3, '0')}.txt`),
        ]);
        for (const path of undecodable) expect(skipped.get(path), `${name}: ${path}`).toBe(UNDECODABLE_WITH_LITERAL);
        // a file without the literal is not worth a note, nor a binary one (grep -I leaves it out too)
        expect(skipped.has('a/latin1-without.c')).toBe(false);
        expect(skipped.has('b/binary.bin')).toBe(false);
        expect(matched.has('a/utf8.c')).toBe(true);
      }
    }
    expect(readHelperCount()).toBeGreaterThan(0);
  });

  it('is not listed by a regex or case-insensitive search, which cannot tell without decoding', async () => {
    for (const [name, ws] of Object.entries(workspaces())) {
      for (const args of [{ is_regex: true }, { case_sensitive: false }]) {
        const { matched, skipped } = await allPages(ws, { pattern: 'TODO_fix', max_matches: 100_000, ...args });
        expect(matched.has('a/utf8.c'), name).toBe(true);
        expect([...skipped.keys()], `${name} ${JSON.stringify(args)}`).toEqual([]);
      }
    }
  });

  it('named alone is still a DECODE_ERROR', async () => {
    for (const ws of Object.values(workspaces())) {
      const env = await ws.call('search_files', { pattern: 'TODO_fix', path: 'b/cp1252.txt' });
      expect(env.ok).toBe(false);
      if (!env.ok) expect(env.error.code).toBe('DECODE_ERROR');
    }
  });
});
