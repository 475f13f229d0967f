import { afterEach, describe, expect, it } from 'vitest';
import { toolset } from '../../src/index.js';
import { presentApplyPatch, presentShell } from '../../src/toolsets/index.js';
import { undoTool } from '../../src/tools/history/undo.js';
import { BACKENDS, type NativeBackend } from './backends.js';

type Row = Record<string, any>;
let open: NativeBackend | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

describe.each(Object.keys(BACKENDS) as Array<keyof typeof BACKENDS>)('openai toolset on %s', (backend) => {
  const start = (seed: Record<string, string>) => {
    open = BACKENDS[backend]('openai', seed);
    return open;
  };

  it('offers apply_patch and shell, sent to the Responses API as its own tool types', () => {
    const set = toolset('openai');
    expect(set.tools.map((t) => t.name)).toEqual(['apply_patch', 'shell']);
    expect(set.native).toBe('openai');
    expect(set.toNative?.()).toEqual([{ type: 'apply_patch' }, { type: 'shell', environment: { type: 'local' } }]);
  });

  it('creates, updates (several hunks, end of file) and deletes, each undoable', async () => {
    const { ws, text } = start({ 'src/a.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n', 'old.txt': 'bye\n' });
    const created = await ws.call('apply_patch', {
      operation: { type: 'create_file', path: 'new/b.txt', diff: '+hello\n+world\n' },
    });
    expect(presentApplyPatch(created)).toEqual({ status: 'completed', output: 'Created new/b.txt' });
    expect(await text('new/b.txt')).toBe('hello\nworld\n');
    const diff = '@@\n one\n-two\n+TWO\n three\n@@ five\n six\n-seven\n+SEVEN\n+eight\n*** End of File\n';
    const updated = await ws.call('apply_patch', { operation: { type: 'update_file', path: 'src/a.txt', diff } });
    expect(presentApplyPatch(updated)).toEqual({ status: 'completed', output: 'Updated src/a.txt (+3 -2)' });
    expect(await text('src/a.txt')).toBe('one\nTWO\nthree\nfour\nfive\nsix\nSEVEN\neight\n');
    const deleted = await ws.call('apply_patch', { operation: { type: 'delete_file', path: 'old.txt' } });
    expect(presentApplyPatch(deleted).status).toBe('completed');
    expect(await text('old.txt')).toBeNull();
    expect(ws.listTools().map((t) => t.name)).toEqual(['apply_patch', 'shell']);
  });

  it.runIf(backend === 'memory')('each operation is one snapshot the host can undo', async () => {
    const { ws, text } = (open = BACKENDS.memory('openai', { 'a.txt': 'x\n' }, { extra: [undoTool] }));
    await ws.call('apply_patch', { operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-x\n+y\n' } });
    await ws.call('apply_patch', { operation: { type: 'delete_file', path: 'a.txt' } });
    expect(await text('a.txt')).toBeNull();
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(await text('a.txt')).toBe('y\n');
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(await text('a.txt')).toBe('x\n');
  });

  it('a failing patch is answered failed and changes nothing', async () => {
    const { ws, text } = start({ 'a.txt': 'alpha\nbeta\n' });
    const e = await ws.call('apply_patch', {
      operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-gamma\n+G\n' },
    });
    expect(e.ok).toBe(false);
    const shown = presentApplyPatch(e);
    expect(shown.status).toBe('failed');
    expect(shown.output).toMatch(/^PATCH_CONFLICT: /);
    expect(await text('a.txt')).toBe('alpha\nbeta\n');
  });

  it('one operation cannot smuggle a second file section, and stays inside the workspace', async () => {
    const { ws, text } = start({ 'a.txt': 'x\n' });
    const smuggled = await ws.call('apply_patch', {
      operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-x\n+y\n*** Add File: b.txt\n+evil\n' },
    });
    expect(smuggled.ok ? null : smuggled.error.code).toBe('PATCH_PARSE_ERROR');
    expect(smuggled.ok ? '' : smuggled.error.message).toMatch(/^diff line 4: /);
    const outside = await ws.call('apply_patch', {
      operation: { type: 'create_file', path: '../x.txt', diff: '+x\n' },
    });
    expect(outside.ok ? null : outside.error.code).toBe('OUTSIDE_WORKSPACE');
    expect(await text('a.txt')).toBe('x\n');
    expect(await text('b.txt')).toBeNull();
  });

  it('shell runs each command with its outcome: a non-zero exit, a timeout, max_output_length', async () => {
    const { ws, text } = start({ 'a.txt': 'hi\n' });
    const e = await ws.call('shell', {
      action: {
        commands: ['cat a.txt', 'echo oops >&2; exit 3', 'echo 0123456789'],
        max_output_length: 4,
        timeout_ms: 20_000,
      },
    });
    const r = presentShell(e);
    // max_output_length keeps the head and the tail of each stream
    expect(r.output).toEqual([
      { stdout: 'hi\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
      { stdout: '', stderr: 'oos\n', outcome: { type: 'exit', exit_code: 3 } },
      { stdout: '019\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
    ]);
    expect(r.max_output_length).toBe(4);
    const slow = presentShell(await ws.call('shell', { action: { commands: ['sleep 5'], timeout_ms: 300 } }));
    expect(slow.output[0]!.outcome).toEqual({ type: 'timeout' });
    const wrote = await ws.call('shell', { action: { commands: ['echo made > made.txt'] } });
    expect((wrote as Row).result.change_ids.length).toBe(1);
    expect(await text('made.txt')).toBe('made\n');
  });
});
