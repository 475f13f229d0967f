import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { watchedFs } from '../support/watched-fs.js';
import { FULL } from './sizes.js';

const LEVELS = FULL ? 5000 : 2500;
type Out = Record<string, any>;

/** The memory backend with a count of the calls made on it: what bounds each tool call, without timing it. */
function counted(fs: WorkspaceFs): { fs: WorkspaceFs; calls: () => number } {
  let calls = 0;
  const wrapped = watchedFs(fs, () => {
    calls++;
  });
  return { fs: wrapped, calls: () => calls };
}

describe(`a ${LEVELS}-level folder on the memory backend`, () => {
  it('is walked, snapshotted and undone, every call in a bounded number of backend calls', async () => {
    const memory = createMemoryFs();
    const deep = `/${'a/'.repeat(LEVELS)}`;
    await memory.mkdir(deep, { recursive: true });
    await memory.writeFile(`${deep}f.txt`, 'deep\n');
    await memory.writeFile('/top.txt', 'top deep\n');
    const { fs, calls } = counted(memory);
    const ws = createWorkspace({ fs });
    const costs: Record<string, { calls: number; ms: number }> = {};
    const call = async (tool: string, args: Out, label = tool, on = ws): Promise<Out> => {
      const [before, started] = [calls(), Date.now()];
      const r = await on.call(tool, args);
      costs[label] = { calls: calls() - before, ms: Date.now() - started };
      if (!r.ok) throw new Error(`${tool}: ${JSON.stringify(r.error).slice(0, 500)}`);
      return r.result as Out;
    };
    const rel = `${'a/'.repeat(LEVELS)}f.txt`;
    // memory has no PATH_MAX, so the deep file is there to find; a call that runs out of its time
    // budget says so (truncated, next_cursor) and the next page goes on: never silent zeros
    const pages = async (
      tool: string,
      args: Out,
      pick: (r: Out) => string[],
    ): Promise<{ found: string[]; pages: number; skipped?: Out[] }> => {
      const found: string[] = [];
      let cursor: string | undefined;
      for (let page = 1; page <= 50; page++) {
        const r = await call(tool, { ...args, ...(cursor ? { cursor } : {}) });
        found.push(...pick(r));
        if (r.count === 0)
          expect(r.truncated, `${tool} page ${page} found nothing and said it was complete`).toBe(
            r.next_cursor === undefined ? false : true,
          );
        if (!r.truncated) return { found: found.sort(), pages: page };
        expect(
          r.next_cursor ?? r.skipped,
          `${tool} page ${page}: truncated without a cursor or skipped list`,
        ).toBeDefined();
        if (!r.next_cursor) return { found: found.sort(), pages: page, skipped: r.skipped };
        cursor = r.next_cursor;
      }
      throw new Error(`${tool} did not finish in 50 pages`);
    };
    // walks stop at 1,024 levels and say so, so the deep file is found or its folder is listed as skipped
    const deepOk = (r: { found: string[]; skipped?: Out[] }) => {
      if (LEVELS < 1024) expect(r.found).toEqual([rel, 'top.txt']);
      else {
        expect(r.found).toEqual(['top.txt']);
        expect(r.skipped).toEqual([
          expect.objectContaining({ reason: expect.stringContaining('deeper than 1024 levels') }),
        ]);
      }
    };
    const glob = await pages('glob', { pattern: '**/*.txt' }, (r) => r.matches);
    deepOk(glob);
    const search = await pages('search_files', { pattern: 'deep' }, (r) => r.matches.map((m: Out) => m.path));
    deepOk(search);
    costs.glob_pages = { calls: glob.pages, ms: 0 };
    costs.search_pages = { calls: search.pages, ms: 0 };
    // the first change opens the store: a snapshot of the whole tree
    const write = await call('write_file', { path: 'new.txt', content: 'x\n' }, 'first write');
    const edit = await call('write_file', { path: rel, content: 'deeper\n' }, 'deep write');
    for (const r of [write, edit]) if (r.snapshot_error !== undefined) expect(typeof r.snapshot_error).toBe('string');
    const list = await call('list_snapshots', {});
    expect(list.snapshots.map((s: Out) => s.message).slice(0, 2)).toEqual(
      [`write_file: ${rel}`, 'write_file: new.txt'].slice(edit.snapshot_error ? 1 : 0, 2),
    );
    await call('undo', {});
    expect(new TextDecoder().decode(await memory.readFile(`${deep}f.txt`))).toBe(
      edit.snapshot_error ? 'deeper\n' : 'deep\n',
    );
    const after = await call('list_snapshots', {});
    expect(after.snapshots.length).toBe(list.snapshots.length + 1);
    // another workspace on the same files reads the history and rescans the whole tree against it
    const reopened = await call('list_snapshots', {}, 'reopen', createWorkspace({ fs }));
    expect(reopened.snapshots.map((s: Out) => s.message)).toEqual(after.snapshots.map((s: Out) => s.message));
    console.log(
      `[hardening deep memory] ${LEVELS} levels: ${Object.entries(costs)
        .map(([t, c]) => `${t} ${c.calls} fs calls ${c.ms} ms`)
        .join(', ')} (loaded machine)`,
    );
    // linear in the depth: a few backend calls per level, never one per level per level (time is not
    // asserted; the memory backend answers a plain path from its folder index, test/fs/memory-links)
    for (const [tool, cost] of Object.entries(costs)) expect(cost.calls, tool).toBeLessThan(LEVELS * 16);
  });
});
