import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { undoTool } from '../../src/tools/history/undo.js';
import { fileManagerEnvelope, fileManagerTools } from '../../src/toolsets/file-manager.js';

type Row = Record<string, any>;

function open(seed: Record<string, string> = {}, options: { cwd?: string; extra?: boolean } = {}) {
  const fs = createMemoryFs(seed);
  const ws = createWorkspace({
    fs,
    tools: [...fileManagerTools(), ...(options.extra ? [undoTool] : [])],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const fm = async (args: unknown) => fileManagerEnvelope(await ws.call('file_manager', args)) as Row;
  const text = async (p: string) => new TextDecoder().decode(await fs.readFile(`/${p}`));
  return { ws, fs, fm, text };
}

const fixture = [
  ...Array.from({ length: 14 }, (_, i) => `head line ${i + 1} with some padding text`),
  'scoped read begins',
  'keep alpha',
  'Mode: preview',
  'keep beta',
  'scoped read ends',
  'preserve this',
  'preserve this',
  'preserve this',
  'preserve this',
  'fixture complete',
].join('\n');

describe('file_manager (seed 000)', () => {
  it('is one tool named file_manager whose schema is an operations array of the seven actions', () => {
    const { ws } = open();
    const tools = ws.listTools();
    expect(tools.map((t) => t.name)).toEqual(['file_manager']);
    const items = (tools[0]!.input_schema.properties!.operations as Row).items;
    expect(items.properties.action.enum).toEqual([
      'create_directory',
      'read_file',
      'write_file',
      'append_file',
      'edit_file',
      'list_directory',
      'exists',
    ]);
    expect(tools[0]!.description).toContain('Valid call shape is always');
  });

  it('runs the input contract in order and answers {ok, tool, results} with relative_path on every result', async () => {
    const { fm, text } = open();
    const out = await fm({
      operations: [
        { action: 'create_directory', path: './notes/research' },
        { action: 'write_file', path: './notes/research/summary.md', content: '# Summary', overwrite: true },
        { action: 'append_file', path: './notes/research/summary.md', content: '\n\nMore notes.' },
        { action: 'read_file', path: './notes/research/summary.md', start_line: 1, end_line: 80 },
        {
          action: 'edit_file',
          path: './notes/research/summary.md',
          old_text: '# Summary',
          new_text: '# Research summary',
        },
        { action: 'list_directory', path: './notes', recursive: true, max_entries: 50 },
        { action: 'exists', path: './notes/research/summary.md' },
      ],
    });
    expect(Object.keys(out)).toEqual(['ok', 'tool', 'results']);
    expect(out.ok).toBe(true);
    expect(out.tool).toBe('file_manager');
    const r = out.results as Row[];
    expect(r.map((x) => [x.ok, x.action, x.relative_path])).toEqual([
      [true, 'create_directory', 'notes/research'],
      [true, 'write_file', 'notes/research/summary.md'],
      [true, 'append_file', 'notes/research/summary.md'],
      [true, 'read_file', 'notes/research/summary.md'],
      [true, 'edit_file', 'notes/research/summary.md'],
      [true, 'list_directory', 'notes'],
      [true, 'exists', 'notes/research/summary.md'],
    ]);
    expect(r[3]!.content).toBe('# Summary\n\nMore notes.');
    expect(r[1]).toMatchObject({ added_lines: 1, removed_lines: 0, created: true });
    expect(r[2]).toMatchObject({ added_lines: 2, removed_lines: 0 });
    expect(r[4]).toMatchObject({ replacements: 1, first_line: 1, added_lines: 1, removed_lines: 1 });
    expect(r[5]!.entries.map((e: Row) => e.relative_path)).toEqual(['notes/research', 'notes/research/summary.md']);
    expect(r[6]).toMatchObject({ exists: true, type: 'file' });
    expect(await text('notes/research/summary.md')).toBe('# Research summary\n\nMore notes.');
  });

  it('reads a line window with exactly the fields of the seed example, from a bare name in the current folder', async () => {
    const dir = 'artifacts/2026-08-17/chat_89';
    const { fm } = open({ [`${dir}/partial-file-acceptance.txt`]: fixture }, { cwd: dir });
    const out = await fm({
      operations: [{ action: 'read_file', path: 'partial-file-acceptance.txt', start_line: 15 }],
    });
    const r = out.results[0] as Row;
    expect(Object.keys(r).sort()).toEqual(
      [
        'action',
        'content',
        'end_line',
        'has_more',
        'ok',
        'relative_path',
        'selected_chars',
        'start_line',
        'total_chars',
        'total_lines',
        'truncated',
      ].sort(),
    );
    expect(r).toMatchObject({
      ok: true,
      action: 'read_file',
      relative_path: `${dir}/partial-file-acceptance.txt`,
      truncated: false,
      total_chars: fixture.length,
      total_lines: 24,
      start_line: 15,
      end_line: 24,
      has_more: false,
    });
    expect(r.content).toBe(
      'scoped read begins\nkeep alpha\nMode: preview\nkeep beta\nscoped read ends\npreserve this\npreserve this\npreserve this\npreserve this\nfixture complete',
    );
    expect(r.selected_chars).toBe(143);
  });

  it('reports has_more and next_start_line when another range remains, and max_chars may stop inside a line', async () => {
    const { fm } = open({ 'big.txt': fixture });
    const [w, c] = (
      await fm({
        operations: [
          { action: 'read_file', path: 'big.txt', start_line: 1, end_line: 10 },
          { action: 'read_file', path: 'big.txt', max_chars: 5 },
        ],
      })
    ).results as Row[];
    expect(w).toMatchObject({ has_more: true, next_start_line: 11, end_line: 10, total_lines: 24 });
    expect(c).toMatchObject({ content: 'head ', truncated: true, selected_chars: 5 });
  });

  it('refuses a top-level action, path or operation, and a command string, with precise errors and nothing run', async () => {
    const { fm, fs } = open();
    for (const [key, value] of [
      ['action', 'read_file'],
      ['path', 'a.txt'],
      ['operation', 'write_file'],
    ] as const) {
      const out = await fm({ [key]: value, operations: [{ action: 'write_file', path: 'x.txt', content: 'x' }] });
      expect(out.ok).toBe(false);
      expect(out.error.code).toBe('INVALID_ARGUMENTS');
      expect(out.error.problems).toEqual([
        { path: `/${key}`, message: expect.stringContaining("inside 'operations'") },
      ]);
      expect(out.error.hint).toContain('{"operations": [{"action": "read_file"');
    }
    const cmd = await fm({ command: 'ls -la' });
    expect(cmd.error.problems[0]).toEqual({
      path: '/command',
      message: expect.stringContaining('use list_directory, read_file'),
    });
    await expect(fs.readFile('/x.txt')).rejects.toThrow();
  });

  it('refuses a dotted method name and says to call file_manager with operations', async () => {
    const { ws } = open();
    const out = await ws.call('file_manager.write_file', { path: 'a.txt', content: 'x' });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.code).toBe('UNKNOWN_TOOL');
    expect(out.error.message).toContain('dotted method name');
    expect(out.error.hint).toContain('{"operations": [{"action": "write_file"');
  });

  it('fails a write or append without content and modifies nothing, not even earlier operations', async () => {
    const { fm, text } = open({ 'keep.txt': 'original' });
    for (const action of ['write_file', 'append_file']) {
      const out = await fm({
        operations: [
          { action: 'write_file', path: 'other.txt', content: 'new' },
          { action, path: 'keep.txt' },
        ],
      });
      expect(out.ok).toBe(false);
      expect(out.error.code).toBe('INVALID_ARGUMENTS');
      expect(out.error.problems).toEqual([
        { path: '/operations/1/content', message: expect.stringContaining(`mandatory for ${action}`) },
      ]);
      expect(out.error.message).toContain('nothing was modified');
      expect(await text('keep.txt')).toBe('original');
      await expect(text('other.txt')).rejects.toThrow();
    }
    const empty = await fm({ operations: [{ action: 'write_file', path: 'keep.txt', content: '' }] });
    expect(empty.ok).toBe(true);
    expect(await text('keep.txt')).toBe('');
  });

  it('write_file creates parent directories; append_file creates a missing file; nothing deletes', async () => {
    const { ws, fm, text } = open();
    const out = await fm({
      operations: [
        { action: 'write_file', path: 'reports/2026/q1/summary.md', content: '# Q1\n' },
        { action: 'append_file', path: 'log.txt', content: 'started\n' },
      ],
    });
    expect(out.results.map((r: Row) => [r.relative_path, r.created])).toEqual([
      ['reports/2026/q1/summary.md', true],
      ['log.txt', true],
    ]);
    expect(await text('reports/2026/q1/summary.md')).toBe('# Q1\n');
    expect(await text('log.txt')).toBe('started\n');
    const del = await fm({ operations: [{ action: 'delete_path', path: 'log.txt' }] });
    expect(del.error.code).toBe('INVALID_ARGUMENTS');
    expect(ws.listTools()[0]!.description).toContain('does not delete');
  });

  it('refuses arguments that do not belong to an action', async () => {
    const { fm } = open({ 'a.txt': 'a' });
    const out = await fm({ operations: [{ action: 'read_file', path: 'a.txt', content: 'x' }] });
    expect(out.error.problems).toEqual([{ path: '/operations/0/content', message: 'is not a known argument' }]);
  });

  it('edit_file changes nothing when the old text is absent or ambiguous, and replace_all changes every match', async () => {
    const { fm, text } = open({ 'e.txt': 'a x\nb x\n' });
    const none = await fm({ operations: [{ action: 'edit_file', path: 'e.txt', old_text: 'zzz', new_text: 'y' }] });
    expect(none.error.code).toBe('NO_MATCH');
    const amb = await fm({ operations: [{ action: 'edit_file', path: 'e.txt', old_text: 'x', new_text: 'y' }] });
    expect(amb.error.code).toBe('AMBIGUOUS_MATCH');
    expect(amb.results[0]).toMatchObject({
      ok: false,
      action: 'edit_file',
      error: { code: 'AMBIGUOUS_MATCH', lines: [1, 2] },
    });
    expect(await text('e.txt')).toBe('a x\nb x\n');
    const all = await fm({
      operations: [{ action: 'edit_file', path: 'e.txt', old_text: 'x', new_text: 'y', replace_all: true }],
    });
    expect(all.results[0]).toMatchObject({ replacements: 2 });
    expect(await text('e.txt')).toBe('a y\nb y\n');
  });

  it('refuses host absolute paths, file:// URLs and escapes', async () => {
    const { fm } = open();
    for (const path of ['/etc/passwd', 'file:///etc/passwd', '../x', 'https://example.com/a']) {
      const out = await fm({ operations: [{ action: 'read_file', path }] });
      expect(out.error.code).toBe('OUTSIDE_WORKSPACE');
    }
  });

  it('a later failure stops the call without undoing earlier operations; one undo reverts the whole call', async () => {
    const { ws, fm, text } = open({ 'a.txt': 'A\n' }, { extra: true });
    await fm({ operations: [{ action: 'write_file', path: 'base.txt', content: 'base' }] });
    const out = await fm({
      operations: [
        { action: 'write_file', path: 'a.txt', content: 'A2\n' },
        { action: 'write_file', path: 'b.txt', content: 'B\n' },
        { action: 'edit_file', path: 'a.txt', old_text: 'missing', new_text: 'x' },
        { action: 'write_file', path: 'c.txt', content: 'C\n' },
      ],
    });
    expect(out.ok).toBe(false);
    expect(out.error.code).toBe('NO_MATCH');
    expect(out.error.message).toMatch(
      /operation 3 \(edit_file\) failed.*the 2 before it stay applied.*the 1 after it were not run/,
    );
    expect(out.results.map((r: Row) => r.ok)).toEqual([true, true, false]);
    expect(await text('a.txt')).toBe('A2\n');
    expect(await text('b.txt')).toBe('B\n');
    await expect(text('c.txt')).rejects.toThrow();
    // The whole call is one snapshot: one undo step takes back both writes, and only them.
    const log = await ws.snapshots!.list(10);
    expect(log.length).toBe(3); // initial state, the base write, this call
    const undo = await ws.call('undo', {});
    expect(undo.ok).toBe(true);
    expect(await text('a.txt')).toBe('A\n');
    await expect(text('b.txt')).rejects.toThrow();
    expect(await text('base.txt')).toBe('base');
  });

  it("with snapshots when:'batch', ws.batch makes several file_manager calls one undo step", async () => {
    const fs = createMemoryFs({ 'a.txt': 'A\n' });
    const ws = createWorkspace({ fs, tools: [...fileManagerTools(), undoTool], snapshots: { when: 'batch' } });
    await ws.call('file_manager', { operations: [{ action: 'write_file', path: 'first.txt', content: '1' }] });
    const before = (await ws.snapshots!.list(50)).length;
    await ws.batch(async () => {
      await ws.call('file_manager', { operations: [{ action: 'write_file', path: 'a.txt', content: 'A2\n' }] });
      await ws.call('file_manager', { operations: [{ action: 'append_file', path: 'b.txt', content: 'B' }] });
    });
    expect((await ws.snapshots!.list(50)).length).toBe(before + 1);
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile('/a.txt'))).toBe('A\n');
    await expect(fs.readFile('/b.txt')).rejects.toThrow();
    expect(new TextDecoder().decode(await fs.readFile('/first.txt'))).toBe('1');
  });
});
