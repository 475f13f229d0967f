import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, toolset, type ToolDefinition } from '../../src/index.js';
import { importFilesTool } from '../../src/tools/import-files.js';
import { callChecked, expectResultMatches } from '../support/result-check.js';

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/a.ts',
  '@@',
  '-export const a = 1;',
  '+export const a = 2;',
  '*** Add File: notes/new.md',
  '+# new',
  '*** End Patch',
].join('\n');

function open(tools: ToolDefinition[], files: Record<string, string> = {}, confirm = true) {
  const fs = createMemoryFs({
    '/ws/src/a.ts': 'export const a = 1;\n',
    '/ws/src/b.ts': 'import { a } from "./a";\nconsole.log(a);\n',
    '/ws/crlf.txt': 'one\r\ntwo\r\n',
    '/ws/empty.txt': '',
    '/ws/.hidden': 'x',
    '/ws/docs/readme.md': '# docs\nline a\nline b\n',
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`/ws/${k}`, v])),
  });
  const ws = createWorkspace({ fs, root: '/ws', tools, policy: { confirm: () => confirm } });
  return { ws, call: (name: string, args: unknown) => callChecked(ws, tools, name, args) };
}

describe('every successful result matches the schema its tool declares (own checker and ajv)', () => {
  it('canonical: reads, lists, searches and checks bytes in every shape', async () => {
    const { tools } = toolset('canonical');
    const { call } = open(tools);
    await call('read_file', { path: 'src/a.ts' });
    await call('read_file', { path: 'crlf.txt', start_line: 2, line_numbers: true });
    await call('read_file', { path: 'empty.txt' });
    await call('read_file', { path: 'docs/readme.md', max_chars: 5 });
    await call('exists', { path: 'src' });
    await call('exists', { path: 'nowhere' });
    await call('list_directory', { path: '.', recursive: true, include_hidden: true });
    await call('list_directory', { max_entries: 1 });
    await call('glob', { pattern: '*.ts' });
    await call('glob', { pattern: 'src/', max_results: 1 });
    const page = await call('search_files', { pattern: 'line', max_matches: 1, context_lines: 1 });
    expect(page.next_cursor).toEqual(expect.any(String));
    await call('search_files', { pattern: 'line', max_matches: 1, cursor: page.next_cursor });
    await call('search_files', { pattern: 'nothing at all' });
    await call('file_bytes', { path: 'src/a.ts' });
    await call('file_bytes', { path: 'crlf.txt', expected: 'one\ntwo' });
    await call('file_bytes', { path: 'src/b.ts', expected: 'console.log(a);', expect_escaped: true });
  });

  it('canonical: every change, snapshot, diff, restore and undo', async () => {
    const { tools } = toolset('canonical');
    const { call } = open(tools);
    await call('read_file', { path: 'src/a.ts' });
    await call('write_file', { path: 'src/c.ts', content: 'c\n' });
    await call('append_file', { path: 'src/c.ts', content: 'd\n' });
    await call('edit_file', { path: 'src/c.ts', old_text: 'c', new_text: 'e' });
    await call('apply_patch', { patch: PATCH, dry_run: true });
    await call('apply_patch', { patch: PATCH });
    await call('create_directory', { path: 'made/deep' });
    await call('create_directory', { path: 'made/deep' });
    await call('move_path', { from: 'src/c.ts', to: 'moved/c.ts' });
    await call('delete_path', { path: 'made', recursive: true });
    const snap = await call('snapshot', { message: 'checkpoint' });
    const listed = await call('list_snapshots', { limit: 3 });
    expect(listed.snapshots.length).toBe(3);
    await call('diff_snapshots', {});
    await call('diff_snapshots', { path: 'src' });
    await call('undo', {});
    await call('restore_snapshot', { id: snap.id });
    await call('list_snapshots', {});
    // without a host runner, run_command is the built-in shell's, its results in the same schema
    const run = await call('run_command', { command: 'echo made > made.txt; cat made.txt' });
    expect(run).toMatchObject({ exit_code: 0, stdout: 'made\n', changed_files: ['made.txt'] });
    await call('run_command', { command: 'cat nowhere', timeout_seconds: 5 });
  });

  it('file_manager, fs_process and cowork: every tool', async () => {
    const fm = toolset('file_manager').tools;
    await open(fm).call('file_manager', {
      operations: [
        { action: 'read_file', path: 'docs/readme.md', start_line: 1, end_line: 1 },
        { action: 'exists', path: 'src' },
        { action: 'list_directory', path: 'src' },
        { action: 'create_directory', path: 'out' },
        { action: 'write_file', path: 'out/a.txt', content: 'a\n' },
        { action: 'append_file', path: 'out/a.txt', content: 'b\n' },
        { action: 'edit_file', path: 'out/a.txt', old_text: 'b', new_text: 'c' },
      ],
    });
    const fp = toolset('fs_process').tools;
    const p = open(fp);
    await p.call('read_file', { file: 'src/a.ts' });
    await p.call('write_file', { path: 'src', file: 'x.ts', content: 'x x x\n' });
    await p.call('edit_file', { file: 'src/x.ts', old: 'x', new: 'y', count: 2 });
    await p.call('edit_file', { file: 'src/x.ts', old: 'x', new: 'z' });
    await p.call('search_files', { pattern: 'a', include: ['*.ts'] });
    await p.call('list_dir', { max_depth: 2 });
    await p.call('file_bytes', { file: 'src/a.ts', expected: 'const' });
    expect(await p.call('run_command', { command: 'grep -c z src/x.ts; echo w >> src/x.ts', path: '.' })).toMatchObject(
      { stdout: '1\n', exit_code: 0 },
    );
    const cw = toolset('cowork', { artifactDir: 'out' }).tools;
    const c = open(cw);
    await c.call('text_file_read', { path: 'src/a.ts' });
    await c.call('text_file_read', { path: 'docs/readme.md', offset: 2, limit: 1 });
    await c.call('apply_patch', { patch: PATCH, dry_run: true });
    await c.call('apply_patch', { patch: PATCH });
    await c.call('glob', { pattern: '**/*.md' });
    await c.call('grep', { pattern: 'export' });
    await c.call('rename_path', { from: 'notes/new.md', to: 'out/new.md' });
    await c.call('delete_path', { path: 'out/new.md' });
  });

  it('import_files answers what its schema says', async () => {
    const { ws } = open(toolset('canonical').tools);
    const out = await ws.importFiles([
      { path: 'bin/a.bin', bytes: new Uint8Array([0, 1, 2]) },
      { path: '../escape', bytes: new Uint8Array([1]) },
    ]);
    expect(expectResultMatches(importFilesTool, out)).toMatchObject({ skipped: [{ code: 'OUTSIDE_WORKSPACE' }] });
  });

  it('a result that breaks its schema fails the check, so the schemas cannot lie unnoticed', async () => {
    const { tools } = toolset('canonical');
    const read = tools.find((t) => t.name === 'read_file')!;
    const { ws } = open(tools);
    const good = await ws.call('read_file', { path: 'src/a.ts' });
    expect(() => expectResultMatches(read, good)).not.toThrow();
    if (!good.ok) throw new Error('read failed');
    const { sha256: _dropped, ...missing } = good.result as Record<string, unknown>;
    expect(() => expectResultMatches(read, { ...good, result: missing })).toThrow();
    expect(() => expectResultMatches(read, { ...good, result: { ...missing, sha256: 1 } })).toThrow();
    expect(() => expectResultMatches(read, { ...good, result: { ...(good.result as object), extra: true } })).toThrow();
  });
});
