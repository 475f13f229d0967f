import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPage, type PageFixture } from './fixture.js';

let fx: PageFixture;
beforeAll(async () => {
  fx = await startPage();
});
afterAll(async () => fx?.stop());

type Backend = 'opfs' | 'indexeddb' | 'memory';

/** Connect in the page, run the calls, close, and hand back the envelopes. */
async function session(page: Page, backend: Backend, name: string, calls: Array<[string, unknown]>): Promise<any[]> {
  await page.waitForFunction(() => (window as any).sandpit);
  return page.evaluate(
    async ({ backend, name, calls }) => {
      const ws = await (window as any).sandpit.connectWorkspace({ backend, name });
      const out = [];
      for (const [tool, args] of calls) out.push(await ws.call(tool, args));
      // No close(): a reload must keep what a call already reported as done.
      return out;
    },
    { backend, name, calls },
  );
}

describe('a page reload', () => {
  it.each<Backend>(['opfs', 'indexeddb'])('%s keeps files and snapshots, and undo still works', async (backend) => {
    const context = await fx.browser.newContext();
    const page = await context.newPage();
    await page.goto(fx.server.url);
    const name = `reload-${backend}`;
    const before = await session(page, backend, name, [
      ['write_file', { path: 'src/app.ts', content: 'export const v = 1;\n' }],
      ['edit_file', { path: 'src/app.ts', old_text: 'v = 1', new_text: 'v = 2' }],
      ['write_file', { path: 'notes/todo.md', content: '# todo\r\n- one\r\n' }],
      ['list_snapshots', {}],
    ]);
    expect(
      before.every((e) => e.ok),
      JSON.stringify(before),
    ).toBe(true);
    const snapshotsBefore = before[3].result.snapshots.map((s: { id: string }) => s.id);
    expect(snapshotsBefore.length).toBeGreaterThanOrEqual(3);

    await page.reload();
    const after = await session(page, backend, name, [
      ['read_file', { path: 'src/app.ts' }],
      ['read_file', { path: 'notes/todo.md' }],
      ['list_snapshots', {}],
      ['undo', {}],
      ['exists', { path: 'notes/todo.md' }],
      ['read_file', { path: 'src/app.ts' }],
    ]);
    expect(after[0]).toMatchObject({ ok: true, result: { content: 'export const v = 2;\n' } });
    expect(after[1]).toMatchObject({ ok: true, result: { content: '# todo\n- one\n', eol: 'crlf' } });
    expect(after[2].result.snapshots.map((s: { id: string }) => s.id)).toEqual(snapshotsBefore);
    expect(after[3]).toMatchObject({ ok: true });
    expect(after[4]).toMatchObject({ ok: true, result: { exists: false } });
    expect(after[5]).toMatchObject({ ok: true, result: { content: 'export const v = 2;\n' } });
    await context.close();
  });

  it('memory forgets everything, by design', async () => {
    const context = await fx.browser.newContext();
    const page = await context.newPage();
    await page.goto(fx.server.url);
    const [written] = await session(page, 'memory', 'reload-memory', [['write_file', { path: 'a.txt', content: 'x' }]]);
    expect(written.ok).toBe(true);
    await page.reload();
    const [read] = await session(page, 'memory', 'reload-memory', [['read_file', { path: 'a.txt' }]]);
    expect(read).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    await context.close();
  });
});

describe('two tabs on one workspace', () => {
  it.each<Backend>(['opfs', 'indexeddb'])(
    '%s: the second tab gets IO_ERROR while the first is open, and takes over when it closes',
    async (backend) => {
      const context = await fx.browser.newContext();
      const first = await context.newPage();
      const second = await context.newPage();
      await Promise.all([first.goto(fx.server.url), second.goto(fx.server.url)]);
      const name = `tabs-${backend}`;
      const [w1] = await session(first, backend, name, [['write_file', { path: 'shared.txt', content: 'first\n' }]]);
      expect(w1.ok).toBe(true);
      const [refused, stillFirst] = await session(second, backend, name, [
        ['write_file', { path: 'shared.txt', content: 'second\n' }],
        ['read_file', { path: 'shared.txt' }],
      ]);
      expect(refused).toMatchObject({ ok: false, error: { code: 'IO_ERROR' } });
      expect(refused.error.message).toMatch(/another tab/);
      expect(stillFirst).toMatchObject({ ok: false, error: { code: 'IO_ERROR' } });
      // Closing the first tab frees its lock without any call from the page.
      await first.close();
      const afterClose = await second.evaluate(
        async ({ backend, name }) => {
          const ws = await (window as any).sandpit.connectWorkspace({ backend, name });
          for (let i = 0; i < 50; i++) {
            const read = await ws.call('read_file', { path: 'shared.txt' });
            if (read.ok) return [read, await ws.call('write_file', { path: 'shared.txt', content: 'second\n' })];
            await new Promise((r) => setTimeout(r, 100));
          }
          return null;
        },
        { backend, name },
      );
      expect(afterClose?.[0]).toMatchObject({ ok: true, result: { content: 'first\n' } });
      expect(afterClose?.[1]).toMatchObject({ ok: true });
      await context.close();
    },
  );
});
