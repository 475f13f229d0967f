import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { DEFAULT_LIMITS } from '../../src/workspace/policy.js';
import { FULL, replayHint } from './sizes.js';

// One line of 24 MiB (60 MiB at full size): the old search spent over 10 s and gigabytes on it
// (each result line became an array of its characters), and read_file returned all of it.
const LINE_BYTES = (FULL ? 60 : 24) * 1024 * 1024;
/** Far under what the old code stalled on this line, far over what a loaded machine adds. */
const LOOP_STALL_BOUND_MS = 5000;

async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs: Math.max(stallMs, performance.now() - last) };
  } finally {
    clearInterval(ticker);
  }
}

describe(`hardening: one huge line ${replayHint('huge-lines')}`, () => {
  let root: string;
  let ws: Workspace;
  const early = 1000;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-huge-line-'));
    const line = Buffer.alloc(LINE_BYTES, 'x');
    line.write('NEEDLE', early);
    line.write('NEEDLE', LINE_BYTES - 100);
    writeFileSync(join(root, 'one-line.txt'), line);
    ws = createWorkspace({ fs: createNodeFs(), root });
  });
  afterAll(async () => {
    await ws?.close?.();
    rmSync(root, { recursive: true, force: true });
  });

  it('read_file caps a window inside one line and pages on with start_char', async () => {
    const cap = DEFAULT_LIMITS.maxReadChars;
    const first = await ws.call('read_file', { path: 'one-line.txt', start_line: 1 });
    expect(first.ok, first.ok ? '' : first.error.message).toBe(true);
    if (!first.ok) return;
    expect(first.result.content.length).toBe(cap);
    expect(first.result).toMatchObject({
      truncated: true,
      has_more: true,
      next_start_line: 1,
      next_start_char: cap + 1,
      total_chars: LINE_BYTES,
    });
    let at: number | null = first.result.next_start_char;
    let seen = first.result.content.length;
    for (let page = 0; page < 10 && at !== null; page++) {
      const next = await ws.call('read_file', { path: 'one-line.txt', start_line: 1, start_char: at as number });
      expect(next.ok).toBe(true);
      if (!next.ok) return;
      expect(next.result.content.length).toBeLessThanOrEqual(cap);
      seen += next.result.content.length;
      at = next.result.next_start_char;
      if (at === null) expect(next.result.truncated).toBe(false);
    }
    expect(seen).toBe(LINE_BYTES);
    // a whole read is still refused as over the byte limit, not cut silently
    const whole = await ws.call('read_file', { path: 'one-line.txt' });
    expect(whole.ok ? 'ok' : whole.error.code).toBe('TOO_LARGE');
  });

  it('search_files finds matches in the line with small results, in budget, the event loop turning', async () => {
    const literal = await longestStall(() => ws.call('search_files', { pattern: 'NEEDLE' }));
    expect(literal.result.ok).toBe(true);
    if (!literal.result.ok) return;
    expect(literal.result.result.matches).toHaveLength(1);
    const m = literal.result.result.matches[0]!;
    expect(m).toMatchObject({ path: 'one-line.txt', line: 1, column: early + 1 });
    expect(m.content.length).toBeLessThan(700);
    expect(m.content).toContain('NEEDLE');
    expect(literal.stallMs, `stalled ${literal.stallMs.toFixed(0)} ms`).toBeLessThan(LOOP_STALL_BOUND_MS);

    const regex = await longestStall(() => ws.call('search_files', { pattern: 'NEE+DLE', is_regex: true }));
    expect(regex.result.ok).toBe(true);
    if (!regex.result.ok) return;
    expect(regex.result.result.matches.map((x: { column: number }) => x.column)).toEqual([early + 1]);
    // the line is longer than a regex looks: the answer says only its start was searched
    expect(regex.result.result.truncated).toBe(true);
    expect(regex.result.result.skipped).toEqual([
      { path: 'one-line.txt', reason: expect.stringMatching(/^line 1 .*longer than/) },
    ]);
    expect(regex.stallMs, `stalled ${regex.stallMs.toFixed(0)} ms`).toBeLessThan(LOOP_STALL_BOUND_MS);

    const insensitive = await longestStall(() =>
      ws.call('search_files', { pattern: 'needle', case_sensitive: false, context_lines: 1 }),
    );
    expect(insensitive.result.ok && insensitive.result.result.matches[0]!.content.length).toBeLessThan(700);
    expect(insensitive.stallMs, `stalled ${insensitive.stallMs.toFixed(0)} ms`).toBeLessThan(LOOP_STALL_BOUND_MS);
  });
});
