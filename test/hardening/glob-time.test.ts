import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { FULL, replayHint } from './sizes.js';

// A backtracking matcher takes about 8x longer per extra `*a` on a name of `a`s: 7 of them took
// 50-70 s on the old picomatch RegExp (12 would take days), so a bound of seconds separates them.
const NAME_LENGTH = FULL ? 200 : 60;
const STARS = FULL ? 12 : 7;
/** The longest the event loop may stall during one call: far under the naive matcher's tens of seconds. */
const LOOP_STALL_BOUND_MS = 3000;

/** Run `work` while a 5 ms ticker measures the longest stretch the event loop could not run it. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number; ticks: number }> {
  let last = performance.now();
  let stallMs = 0;
  let ticks = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
    ticks++;
  }, 5);
  try {
    const result = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { result, stallMs, ticks };
  } finally {
    clearInterval(ticker);
  }
}

describe(`hardening: globs run in linear time ${replayHint('glob-time')}`, () => {
  let root: string | undefined;
  let ws: Workspace | undefined;
  afterEach(async () => {
    await ws?.close?.();
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function open(files: Record<string, string>): Workspace {
    root = mkdtempSync(join(tmpdir(), 'sandpit-glob-time-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
    ws = createWorkspace({ fs: createNodeFs(), root });
    return ws;
  }

  it(`glob and search_files' include answer promptly on ${'*a'.repeat(STARS)}*b against a name of ${NAME_LENGTH} a's`, async () => {
    const name = 'a'.repeat(NAME_LENGTH);
    const w = open({ [name]: 'needle\n', 'ab.txt': 'needle\n' });
    const hostile = `${'*a'.repeat(STARS)}*b`;
    const glob = await longestStall(() => w.call('glob', { pattern: hostile }));
    expect(glob.result).toMatchObject({ ok: true, result: { matches: [], truncated: false } });
    expect(glob.stallMs, `the event loop stalled ${glob.stallMs.toFixed(0)} ms`).toBeLessThan(LOOP_STALL_BOUND_MS);
    const search = await longestStall(() => w.call('search_files', { pattern: 'needle', include: [hostile] }));
    expect(search.result).toMatchObject({ ok: true, result: { matches: [], truncated: false } });
    expect(search.stallMs, `the event loop stalled ${search.stallMs.toFixed(0)} ms`).toBeLessThan(LOOP_STALL_BOUND_MS);
    // the same kind of pattern still matches what it should
    const fits = await w.call('glob', { pattern: `${'*a'.repeat(STARS)}*` });
    expect(fits).toMatchObject({ ok: true, result: { matches: [name] } });
    const found = await w.call('search_files', { pattern: 'needle', include: [`*a*${'*a'.repeat(STARS - 1)}`] });
    expect(found.ok && found.result.matches.map((m: { path: string }) => m.path)).toEqual([name]);
  });

  it('glob ** finds a name with a line break that search_files finds', async () => {
    const w = open({ 'line\nbreak.txt': 'needle\n', 'plain.txt': 'needle\n' });
    const search = await w.call('search_files', { pattern: 'needle' });
    expect(search.ok && search.result.matches.map((m: { path: string }) => m.path)).toEqual([
      'line\nbreak.txt',
      'plain.txt',
    ]);
    expect(await w.call('glob', { pattern: '**' })).toMatchObject({
      ok: true,
      result: { matches: ['line\nbreak.txt', 'plain.txt'] },
    });
    expect(await w.call('glob', { pattern: '*.txt' })).toMatchObject({
      ok: true,
      result: { matches: ['line\nbreak.txt', 'plain.txt'] },
    });
  });
});
