import { afterEach, describe, expect, it } from 'vitest';
import { connectWorkspace, type RemoteWorkspace } from '../../web/client.js';
import type { BackendKind, ChangeNotice } from '../../web/protocol.js';
import { connect, uniqueName } from './connect.js';

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});
const track = (ws: RemoteWorkspace) => (open.push(ws), ws);

// The browser's stores. The memory backend is the same code in Node, where the contract suite runs
// every tool on it; the worker's memory workspaces are below (cowork, same names, a gone worker)
// and in background-tasks, review-worker and node-packages.
describe.each<BackendKind>(['indexeddb', 'opfs'])('the workspace in a worker: %s', (backend) => {
  it('runs tools, reports changes with their paths, and keeps the diff for a reviewer', async () => {
    const ws = track(await connect({ backend, name: uniqueName('client') }));
    const events: ChangeNotice[] = [];
    ws.onChange((e) => events.push(e));
    const written = await ws.call('write_file', { path: 'src/a.ts', content: 'export const a = 1;\n' });
    expect(written).toMatchObject({ ok: true, tool: 'write_file', result: { path: 'src/a.ts', created: true } });
    const read = await ws.call('read_file', { path: 'src/a.ts' });
    expect(read).toMatchObject({ ok: true, result: { content: 'export const a = 1;\n', eol: 'lf', total_lines: 1 } });
    const edited = await ws.call('edit_file', { path: 'src/a.ts', old_text: '= 1', new_text: '= 2' });
    expect(edited.ok).toBe(true);
    // Change events cross on their own channel; the default second of polling runs out on a busy machine.
    await expect.poll(() => events.length, { timeout: 30_000 }).toBe(2);
    const ids = [written, edited].map((e) => (e as unknown as { result: { change_id: string } }).result.change_id);
    expect(events).toEqual([
      { change_id: ids[0], tool: 'write_file', paths: ['src/a.ts'] },
      { change_id: ids[1], tool: 'edit_file', paths: ['src/a.ts'] },
    ]);
    expect((await ws.changes()).map((c) => c.id)).toEqual(ids);
    const detail = await ws.change(ids[1]!);
    expect(detail?.unified_diff).toContain('-export const a = 1;\n+export const a = 2;');
    expect(await ws.change('chg_none')).toBeNull();
  });

  it('delivers every failure as an envelope with its code, across the boundary', async () => {
    const ws = track(await connect({ backend, name: uniqueName('errors') }));
    expect(await ws.call('read_file', { path: 'missing.txt' })).toMatchObject({
      ok: false,
      tool: 'read_file',
      error: { code: 'NOT_FOUND' },
    });
    expect(await ws.call('read_file', { path: '../outside' })).toMatchObject({
      ok: false,
      error: { code: 'OUTSIDE_WORKSPACE' },
    });
    expect(await ws.call('no_such_tool', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
    const invalid = await ws.call('read_file', { path: 'a', start_line: 'x', bogus: 1 });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    if (invalid.ok) throw new Error('unreachable');
    expect(invalid.error.problems?.map((p) => p.path).sort()).toEqual(['/bogus', '/start_line']);
    await ws.call('write_file', { path: 'd/f.txt', content: 'x' });
    expect(await ws.call('delete_path', { path: 'd' })).toMatchObject({
      ok: false,
      error: { code: 'DIRECTORY_NOT_EMPTY' },
    });
  });

  it('imports and exports exact bytes across the boundary, with progress, as one change', async () => {
    const ws = track(await connect({ backend, name: uniqueName('bytes') }));
    const events: ChangeNotice[] = [];
    ws.onChange((e) => events.push(e));
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0x80, 0x0d, 0x0a]);
    const big = new Uint8Array(200_000).map((_, i) => (i * 7) & 0xff);
    const progress: number[] = [];
    const imported = await ws.importFiles(
      [
        { path: 'img/a.png', bytes: png },
        { path: 'big.bin', bytes: big },
        { path: '../out.bin', bytes: png },
      ],
      (done) => progress.push(done),
    );
    expect(imported).toMatchObject({
      ok: true,
      tool: 'import_files',
      result: {
        files: [
          { path: 'img/a.png', bytes: 10, created: true },
          { path: 'big.bin', bytes: 200_000 },
        ],
        skipped: [{ path: '../out.bin', code: 'OUTSIDE_WORKSPACE' }],
      },
    });
    // Every progress event reaches the page before the envelope does.
    expect(progress.at(-1)).toBe(3);
    await expect.poll(() => events.length, { timeout: 30_000 }).toBe(1);
    expect(events[0]).toMatchObject({ tool: 'import_files', paths: ['img/a.png', 'big.bin'] });
    const exported = await ws.exportFiles();
    expect(exported.files.map((f) => f.path)).toEqual(['big.bin', 'img/a.png']);
    // Bytes cross by structured clone, as bytes: no base64 text on the wire.
    for (const file of exported.files) expect(file.bytes).toBeInstanceOf(Uint8Array);
    expect([...exported.files[1]!.bytes]).toEqual([...png]);
    expect(exported.files[0]!.bytes.every((b, i) => b === ((i * 7) & 0xff))).toBe(true);
  });

  it('takes snapshots with isomorphic-git on the same backend, and undoes', async () => {
    const ws = track(await connect({ backend, name: uniqueName('snap') }));
    await ws.call('write_file', { path: 'n.txt', content: 'one\n' });
    await ws.call('write_file', { path: 'n.txt', content: 'two\n' });
    const list = await ws.call('list_snapshots', {});
    expect(list.ok).toBe(true);
    const snaps = (list as unknown as { result: { snapshots: Array<{ id: string; files_changed: number }> } }).result
      .snapshots;
    expect(snaps.length).toBeGreaterThanOrEqual(2);
    expect(await ws.call('undo', {})).toMatchObject({ ok: true });
    expect(await ws.call('read_file', { path: 'n.txt' })).toMatchObject({ ok: true, result: { content: 'one\n' } });
  });

  it('asks the page to confirm a delete, and refuses when the page says no', async () => {
    const asked: string[][] = [];
    const ws = track(
      await connect({
        backend,
        name: uniqueName('confirm'),
        policy: { confirm: (paths) => (asked.push(paths), false) },
      }),
    );
    await ws.call('write_file', { path: 'keep.txt', content: 'k' });
    expect(await ws.call('delete_path', { path: 'keep.txt' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_DENIED' },
    });
    expect(asked).toEqual([['keep.txt']]);
    expect(await ws.call('exists', { path: 'keep.txt' })).toMatchObject({ ok: true, result: { exists: true } });
  });

  it('lists the canonical tools with their schemas', async () => {
    const ws = track(await connect({ backend, name: uniqueName('tools') }));
    const tools = await ws.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'edit_file', 'apply_patch', 'undo']),
    );
    expect(tools.find((t) => t.name === 'read_file')?.input_schema).toMatchObject({
      type: 'object',
      required: ['path'],
    });
  });
});

describe('the cowork toolset in a worker', () => {
  it("offers cowork's tools, sends each confirmation to the page as plain JSON, and changes nothing on a no", async () => {
    const requests: unknown[] = [];
    let answer = false;
    const ws = track(
      await connect({
        backend: 'memory',
        name: uniqueName('cowork'),
        toolset: 'cowork',
        artifactDir: 'out',
        policy: { confirm: (_paths, _action, request) => (requests.push(request), answer) },
      }),
    );
    const names = (await ws.listTools()).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['text_file_read', 'apply_patch', 'glob', 'grep', 'rename_path', 'delete_path']),
    );
    expect(names).not.toContain('write_file');
    // The page's own canonical calls still answer under cowork.
    expect(await ws.call('write_file', { path: 'a.txt', content: 'a\n' })).toMatchObject({ ok: true });
    expect(await ws.call('delete_path', { path: 'a.txt' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_DENIED' },
    });
    expect(await ws.call('rename_path', { from: 'a.txt', to: 'b.txt' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_DENIED' },
    });
    expect(requests).toEqual([
      { action: 'delete', paths: ['a.txt'], tool: 'delete_path' },
      { action: 'move', paths: ['a.txt', 'b.txt'], tool: 'rename_path' },
    ]);
    expect(await ws.call('exists', { path: 'a.txt' })).toMatchObject({ ok: true, result: { exists: true } });
    const inside = '*** Begin Patch\n*** Add File: out/n.md\n+new\n*** End Patch\n';
    expect(await ws.call('apply_patch', { patch: inside })).toMatchObject({ ok: true });
    expect(requests).toHaveLength(2);
    answer = true;
    expect(await ws.call('delete_path', { path: 'a.txt' })).toMatchObject({ ok: true });
    expect(await ws.call('exists', { path: 'a.txt' })).toMatchObject({ ok: true, result: { exists: false } });
  });

  it('refuses a toolset it does not host', async () => {
    await expect(
      connect({ backend: 'memory', name: uniqueName('bad'), toolset: 'file_manager' as never }),
    ).rejects.toThrow(/unknown toolset 'file_manager'/);
  });
});

describe('a worker that does not load', () => {
  it('rejects with a clear message when the script is missing, instead of hanging', async () => {
    const started = performance.now();
    await expect(
      connectWorkspace({ backend: 'memory', worker: new URL('/no-such-sandpit-worker.js', location.href) }),
    ).rejects.toThrow(/Sandpit worker failed/);
    // A hang would be the test's own limit; this bound only says the rejection came on its own.
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('rejects when the worker module throws while loading', async () => {
    await expect(
      connectWorkspace({
        backend: 'memory',
        worker: new Worker(new URL('./fixtures/broken-worker.ts', import.meta.url), { type: 'module' }),
      }),
    ).rejects.toThrow(/Sandpit worker failed/);
  });

  it('rejects calls made after the worker is gone', async () => {
    const ws = await connect({ backend: 'memory', name: uniqueName('gone') });
    await ws.close();
    await expect(ws.call('read_file', { path: 'a' })).rejects.toThrow();
  });

  it('rejects a call still on its way when the workspace closes, instead of leaving it unanswered', async () => {
    // A delete waiting for the page's confirmation is a call the worker has not answered; the
    // close ends that worker. Unanswered, such a call kept the playground's coalesced redraws
    // waiting for good after a switch: its next workspace never showed as open.
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const ws = await connect({
      backend: 'memory',
      name: uniqueName('closing'),
      policy: { confirm: () => (asked(), new Promise<boolean>(() => {})), alwaysConfirmDeletes: true },
    });
    await ws.call('write_file', { path: 'a.txt', content: 'a' });
    const pending = ws.call('delete_path', { path: 'a.txt' });
    await waiting;
    await ws.close();
    await expect(pending).rejects.toThrow(/closed/);
  });
});

describe('two tabs on one workspace', () => {
  it.each<BackendKind>(['indexeddb', 'opfs'])(
    '%s: the second gets IO_ERROR until the first closes, then sees its files',
    async (backend) => {
      const name = uniqueName('tabs');
      const first = track(await connect({ backend, name }));
      await first.call('write_file', { path: 'shared.txt', content: 'from the first tab\n' });
      const second = track(await connect({ backend, name }));
      expect(second.locked).toBe(true);
      const refused = await second.call('write_file', { path: 'shared.txt', content: 'clobber\n' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'IO_ERROR' } });
      expect(JSON.stringify(refused)).toMatch(/another tab/);
      expect(await first.call('read_file', { path: 'shared.txt' })).toMatchObject({
        ok: true,
        result: { content: 'from the first tab\n' },
      });
      await first.close();
      // Calls that arrive together once the first tab let go: one opening serves them all, so
      // none finds the lock held by its own worker.
      const together = await Promise.all([
        second.call('read_file', { path: 'shared.txt' }),
        second.call('exists', { path: 'shared.txt' }),
        second.call('list_directory', { path: '.' }),
      ]);
      expect(together.map((envelope) => envelope.ok)).toEqual([true, true, true]);
      expect(await second.call('read_file', { path: 'shared.txt' })).toMatchObject({
        ok: true,
        result: { content: 'from the first tab\n' },
      });
      expect(await second.call('write_file', { path: 'shared.txt', content: 'now the second\n' })).toMatchObject({
        ok: true,
      });
    },
  );

  it('memory workspaces of the same name are separate and never locked', async () => {
    const name = uniqueName('mem');
    const a = track(await connect({ backend: 'memory', name }));
    const b = track(await connect({ backend: 'memory', name }));
    expect(b.locked).toBe(false);
    await a.call('write_file', { path: 'x.txt', content: 'a' });
    expect(await b.call('exists', { path: 'x.txt' })).toMatchObject({ ok: true, result: { exists: false } });
  });
});
