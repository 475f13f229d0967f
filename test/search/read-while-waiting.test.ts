import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { createNodeFs } from '../../src/fs/node.js';
import type { WorkspaceFs } from '../../src/fs/types.js';

// A page whose oldest read is still out on a helper thread reads the walk's next batches itself
// (read-window.ts, readWhileWaiting). Here the helper's answers come late on purpose, so batches
// read later on the page's own thread are back first: the matches must still come in walk order,
// each exactly once, on one page and across cursor pages.
const base = mkdtempSync(join(tmpdir(), 'sandpit-read-waiting-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const folders = Array.from({ length: 24 }, (_, f) => `d${String(f).padStart(2, '0')}`);
const names = Array.from({ length: 25 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);
for (const [f, folder] of folders.entries()) {
  mkdirSync(join(base, folder));
  for (const [i, name] of names.entries()) {
    const lines = Array.from({ length: 6 }, (_, l) =>
      (f + i + l) % 4 === 0 ? `needle ${folder}/${name} ${l}` : `hay ${l}`,
    );
    writeFileSync(join(base, folder, name), `${lines.join('\n')}\n`);
  }
}

/** Every match, found by reading the files in sorted order. */
function expected(): Array<{ path: string; line: number }> {
  const out: Array<{ path: string; line: number }> = [];
  for (const folder of folders)
    for (const name of names) {
      const lines = readFileSync(join(base, folder, name), 'utf8').split('\n');
      for (const [l, text] of lines.entries())
        if (text.includes('needle')) out.push({ path: `${folder}/${name}`, line: l + 1 });
    }
  return out;
}

/** The node backend, its helper-thread reads answered 15 ms late; reads asked for here are counted. */
function slowHelper(): { fs: WorkspaceFs; readHere: () => number } {
  const inner = createNodeFs();
  let here = 0;
  const fs: WorkspaceFs = {
    ...inner,
    readPlainFiles: async (dir, batch, maxBytes, options) => {
      if (options?.here) here += batch.length;
      const files = await inner.readPlainFiles!(dir, batch, maxBytes, options);
      if (!options?.here) await new Promise((resolve) => setTimeout(resolve, 15));
      return files;
    },
  };
  return { fs, readHere: () => here };
}

describe('search: batches read on the page thread while a helper read is out', () => {
  it('keeps walk order in one page, with batches read here coming back first', async () => {
    const { fs, readHere } = slowHelper();
    const ws = createWorkspace({ fs, root: base });
    const env = await ws.call<{ matches: Array<{ path: string; line: number }>; truncated: boolean }>('search_files', {
      pattern: 'needle',
      max_matches: 100_000,
    });
    expect(env.ok).toBe(true);
    if (!env.ok) return;
    expect(env.result.matches.map(({ path, line }) => ({ path, line }))).toEqual(expected());
    expect(env.result.truncated).toBe(false);
    // files were read on this thread while a helper read was out, so some came back
    // before reads still out on the helper: the order above was put to the test
    expect(readHere()).toBeGreaterThan(0);
  });

  it('pages through the same matches with cursors, none twice and none left out', async () => {
    const { fs, readHere } = slowHelper();
    const ws = createWorkspace({ fs, root: base });
    const seen: Array<{ path: string; line: number }> = [];
    let cursor: string | null = null;
    do {
      const args: Record<string, unknown> = { pattern: 'needle', max_matches: 137 };
      if (cursor) args.cursor = cursor;
      const env = await ws.call<{ matches: Array<{ path: string; line: number }>; next_cursor: string | null }>(
        'search_files',
        args,
      );
      if (!env.ok) throw new Error(JSON.stringify(env.error));
      seen.push(...env.result.matches.map(({ path, line }) => ({ path, line })));
      cursor = env.result.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected());
    expect(readHere()).toBeGreaterThan(0);
  });
});
