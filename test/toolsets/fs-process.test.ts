import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { fsProcessTools } from '../../src/toolsets/fs-process.js';

type Row = Record<string, any>;

function open(seed: Record<string, string | Uint8Array> = {}, cwd?: string) {
  const fs = createMemoryFs(seed);
  const ws = createWorkspace({ fs, tools: fsProcessTools(), ...(cwd ? { cwd } : {}) });
  const ok = async (tool: string, args: unknown): Promise<Row> => {
    const e = await ws.call(tool, args);
    if (!e.ok) throw new Error(`${tool} failed: ${JSON.stringify(e.error)}`);
    return e.result as Row;
  };
  const fail = async (tool: string, args: unknown): Promise<Row> => {
    const e = await ws.call(tool, args);
    if (e.ok) throw new Error(`${tool} succeeded: ${JSON.stringify(e.result)}`);
    return e.error;
  };
  const text = async (p: string) => new TextDecoder().decode(await fs.readFile(`/${p}`));
  return { ws, fs, ok, fail, text };
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('fs_process (seed 001)', () => {
  it('offers the seven tools with the seed argument names', () => {
    const { ws } = open();
    const tools = Object.fromEntries(ws.listTools().map((t) => [t.name, t.input_schema]));
    expect(Object.keys(tools)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'search_files',
      'list_dir',
      'file_bytes',
      'run_command',
    ]);
    expect(Object.keys(tools.read_file!.properties!)).toEqual(['path', 'file', 'start_line', 'end_line']);
    expect(tools.read_file!.required).toEqual(['file']);
    expect(Object.keys(tools.write_file!.properties!)).toEqual(['path', 'file', 'content']);
    expect(Object.keys(tools.edit_file!.properties!)).toEqual(['path', 'file', 'old', 'new', 'count']);
    expect(Object.keys(tools.search_files!.properties!)).toEqual(['path', 'pattern', 'is_regex', 'include', 'cursor']);
    expect(Object.keys(tools.list_dir!.properties!)).toEqual(['path', 'max_depth']);
    expect(Object.keys(tools.file_bytes!.properties!)).toEqual(['file', 'expected', 'expect_escaped', 'encoding']);
    expect(Object.keys(tools.run_command!.properties!)).toEqual(['command', 'path', 'cwd', 'timeout']);
  });

  it('read_file: numbered content, file, total_lines, truncated and showing; 2,000-line cap unless a range is explicit', async () => {
    const { ok } = open({ 'proj/big.txt': lines(2500), 'proj/s.txt': 'a\nb\n' });
    const small = await ok('read_file', { path: 'proj', file: 's.txt' });
    expect(small).toEqual({
      file: 's.txt',
      content: '     1\ta\n     2\tb\n',
      total_lines: 2,
      truncated: false,
      showing: { start: 1, end: 2, count: 2 },
    });
    const big = await ok('read_file', { path: 'proj', file: 'big.txt' });
    expect(big).toMatchObject({ truncated: true, total_lines: 2500, showing: { start: 1, end: 2000, count: 2000 } });
    const ranged = await ok('read_file', { path: 'proj', file: 'big.txt', start_line: 1, end_line: 2500 });
    expect(ranged).toMatchObject({ truncated: false, showing: { start: 1, end: 2500, count: 2500 } });
    expect(ranged.content.split('\n')[2499]).toBe('  2500\tline 2500');
  });

  it('read_file rejects binary files, a missing file argument, a root that is not a folder, and escapes from the root', async () => {
    const { fail } = open({ 'p/bin.dat': new Uint8Array([1, 0, 2]), 'p/f.txt': 'x', 'secret.txt': 's' });
    expect((await fail('read_file', { path: 'p', file: 'bin.dat' })).code).toBe('BINARY_FILE');
    expect((await fail('read_file', { path: 'p' })).problems).toEqual([
      { path: '/file', message: 'is required but missing' },
    ]);
    expect((await fail('read_file', { path: 'p/f.txt', file: 'x' })).code).toBe('NOT_A_DIRECTORY');
    expect((await fail('read_file', { path: 'nope', file: 'x' })).code).toBe('NOT_FOUND');
    expect((await fail('read_file', { path: 'p', file: '../secret.txt' })).code).toBe('OUTSIDE_WORKSPACE');
    expect((await fail('read_file', { file: '../secret.txt' })).code).toBe('OUTSIDE_WORKSPACE');
    expect((await fail('read_file', { file: '/etc/passwd' })).code).toBe('OUTSIDE_WORKSPACE');
  });

  it('write_file creates parents, overwrites, returns the workspace path and UTF-8 bytes, and keeps CRLF', async () => {
    const { ok, text } = open({ 'p/crlf.txt': 'a\r\nb\r\n' });
    expect(await ok('write_file', { path: 'p', file: 'deep/new.txt', content: 'héllo' })).toMatchObject({
      path: 'p/deep/new.txt',
      bytes: 6,
    });
    expect(await text('p/deep/new.txt')).toBe('héllo');
    await ok('write_file', { path: 'p', file: 'crlf.txt', content: 'x\ny\n' });
    expect(await text('p/crlf.txt')).toBe('x\r\ny\r\n');
  });

  it('edit_file: exact match, no match fails, several with count=1 are ambiguous, -1 is all, N limits, first_line 1-based', async () => {
    const { ok, fail, text } = open({ 'e.txt': 'x a\ny a\nz a\nw a\n', 'crlf.txt': 'one\r\ntwo\r\n' });
    expect((await fail('edit_file', { file: 'e.txt', old: 'nope', new: 'b' })).code).toBe('NO_MATCH');
    expect((await fail('edit_file', { file: 'e.txt', old: ' a', new: ' b' })).code).toBe('AMBIGUOUS_MATCH');
    expect((await fail('edit_file', { file: 'e.txt', old: ' a', new: ' b', count: 1 })).code).toBe('AMBIGUOUS_MATCH');
    expect(await ok('edit_file', { file: 'e.txt', old: 'y a', new: 'y b' })).toMatchObject({
      path: 'e.txt',
      replacements: 1,
      first_line: 2,
    });
    expect(await ok('edit_file', { file: 'e.txt', old: ' a', new: ' c', count: 2 })).toMatchObject({
      replacements: 2,
      first_line: 1,
    });
    expect(await text('e.txt')).toBe('x c\ny b\nz c\nw a\n');
    expect(await ok('edit_file', { file: 'e.txt', old: ' c', new: ' d', count: 5 })).toMatchObject({ replacements: 2 });
    expect(await ok('edit_file', { file: 'e.txt', old: ' ', new: '_', count: -1 })).toMatchObject({
      replacements: 4,
      first_line: 1,
    });
    expect(await text('e.txt')).toBe('x_d\ny_b\nz_d\nw_a\n');
    expect((await fail('edit_file', { file: 'e.txt', old: 'x', new: 'y', count: 0 })).problems).toEqual([
      { path: '/count', message: 'must be -1 (all) or a positive integer' },
    ]);
    await ok('edit_file', { file: 'crlf.txt', old: 'two', new: 'TWO' });
    expect(await text('crlf.txt')).toBe('one\r\nTWO\r\n');
  });

  it('search_files: matches (file, line, content) relative to the root, at most 50, lines capped at 500, include matches basenames', async () => {
    const seed: Record<string, string> = {
      'r/.git/x.md': 'needle\n',
      'r/node_modules/y.md': 'needle\n',
      'r/docs/a.md': 'needle here\n',
      'r/src/b.ts': 'needle\n',
      'r/long.txt': `${'x'.repeat(600)} needle\n`,
    };
    for (let i = 0; i < 60; i++) seed[`r/many/f${String(i).padStart(2, '0')}.txt`] = 'needle\n';
    const { ok, fail } = open(seed);
    const md = await ok('search_files', { path: 'r', pattern: 'needle', include: ['*.md'] });
    const sorted = await ok('search_files', { path: 'r/many', pattern: 'needle' });
    expect(sorted.matches.map((m: Row) => m.file)).toEqual([...sorted.matches.map((m: Row) => m.file)].sort());
    expect(md).toEqual({
      matches: [{ file: 'docs/a.md', line: 1, content: 'needle here' }],
      count: 1,
      truncated: false,
      next_cursor: null,
    });
    const all = await ok('search_files', { path: 'r', pattern: 'needle' });
    expect(all.count).toBe(50);
    expect(all.truncated).toBe(true);
    const long = await ok('search_files', { path: 'r', pattern: 'needle', include: ['long.txt'] });
    expect(long.matches[0].content).toContain('needle');
    expect(long.matches[0].content).toContain('characters before]');
    expect(long.matches[0].content.length).toBeLessThan(540);
    expect((await fail('search_files', { pattern: '' })).code).toBe('INVALID_ARGUMENTS');
    expect((await fail('search_files', { pattern: '(', is_regex: true })).code).toBe('INVALID_ARGUMENTS');
  });

  it('list_dir: alphabetical entries with name, path, type, size_bytes (null for folders), max_depth clamped to 1, 200-entry cap, hidden excluded', async () => {
    const seed: Record<string, string> = { 'd/b.txt': 'bb', 'd/a/x.txt': 'x', 'd/.hidden': 'h' };
    for (let i = 0; i < 250; i++) seed[`wide/f${String(i).padStart(3, '0')}`] = '';
    const { ok } = open(seed);
    const d = await ok('list_dir', { path: 'd', max_depth: 0 });
    expect(d).toEqual({
      entries: [
        { name: 'a', path: 'a', type: 'directory', size_bytes: null },
        { name: 'b.txt', path: 'b.txt', type: 'file', size_bytes: 2 },
      ],
      count: 2,
      truncated: false,
    });
    const deep = await ok('list_dir', { path: 'd', max_depth: 2 });
    expect(deep.entries.map((e: Row) => e.path)).toEqual(['a', 'a/x.txt', 'b.txt']);
    const wide = await ok('list_dir', { path: 'wide' });
    expect([wide.count, wide.truncated]).toEqual([200, true]);
  });

  it('search_files pages with next_cursor, takes path globs from the project root, and skips links leaving it', async () => {
    const seed: Record<string, string> = {
      'r/docs/a.md': 'needle\n',
      'r/docs/deep/b.md': 'needle\n',
      'other/secret.md': 'needle secret\n',
    };
    for (let i = 0; i < 60; i++) seed[`r/many/f${String(i).padStart(2, '0')}.txt`] = 'needle\n';
    const { ws, fs, ok, fail } = open(seed);
    await fs.symlink('../other', '/r/esc');
    await fs.symlink('docs/a.md', '/r/inside.md');
    const seen: string[] = [];
    let page = await ok('search_files', { path: 'r', pattern: 'needle' });
    seen.push(...page.matches.map((m: Row) => m.file));
    expect([page.count, page.truncated, typeof page.next_cursor]).toEqual([50, true, 'string']);
    page = await ok('search_files', { path: 'r', pattern: 'needle', cursor: page.next_cursor });
    seen.push(...page.matches.map((m: Row) => m.file));
    expect([page.truncated, page.next_cursor]).toEqual([false, null]);
    expect(seen).toHaveLength(63);
    expect(new Set(seen).size).toBe(63);
    expect(seen.some((f) => f.startsWith('esc'))).toBe(false);
    expect(seen).toContain('inside.md');
    expect(
      (await ok('search_files', { path: 'r', pattern: 'needle', include: ['docs/**'] })).matches.map(
        (m: Row) => m.file,
      ),
    ).toEqual(['docs/a.md', 'docs/deep/b.md']);
    expect((await ok('search_files', { path: 'r', pattern: 'needle', include: ['r/docs/*.md'] })).count).toBe(0);
    const other = await fail('search_files', { path: 'r', pattern: 'other', cursor: page.next_cursor ?? 'bogus' });
    expect(other.code).toBe('INVALID_ARGUMENTS');
    expect(ws).toBeTruthy();
  });

  it('list_dir leaves out build and cache folders and links that escape the project root; an in-root link is listed', async () => {
    const { fs, ok } = open({
      'p/a.txt': 'a',
      'p/node_modules/m.js': '',
      'p/__pycache__/c.pyc': '',
      'p/dist/x.js': '',
      'p/src/s.ts': '',
      'other/secret.txt': 's',
    });
    await fs.symlink('../other', '/p/etclink');
    await fs.symlink('src', '/p/srclink');
    const listed = await ok('list_dir', { path: 'p', max_depth: 2 });
    expect(listed.entries.map((e: Row) => [e.path, e.type])).toEqual([
      ['a.txt', 'file'],
      ['src', 'directory'],
      ['src/s.ts', 'file'],
      ['srclink', 'symlink'],
    ]);
  });

  it('the project root is a barrier for links like the workspace root: a link out of it is refused for every tool', async () => {
    const { fs, ok, fail, text } = open({ 'proj/real/in.txt': 'inside\n', 'other/secret.txt': 'secret\n' });
    await fs.symlink('../other', '/proj/esc');
    await fs.symlink('real', '/proj/alias');
    for (const [tool, args] of [
      ['read_file', { path: 'proj', file: 'esc/secret.txt' }],
      ['read_file', { path: 'proj', file: '../other/secret.txt' }],
      ['edit_file', { path: 'proj', file: 'esc/secret.txt', old: 'secret', new: 'changed' }],
      ['write_file', { path: 'proj', file: 'esc/new.txt', content: 'x' }],
      ['run_command', { path: 'proj', cwd: 'esc', command: 'pwd' }],
    ] as const) {
      const error = await fail(tool, args);
      expect(error.code, tool).toBe('OUTSIDE_WORKSPACE');
      expect(error.message).toContain('outside the project root');
    }
    expect(await text('other/secret.txt')).toBe('secret\n');
    expect((await ok('read_file', { path: 'proj', file: 'alias/in.txt' })).content).toBe('     1\tinside\n');
    expect((await ok('read_file', { path: 'proj/esc', file: 'secret.txt' })).content).toBe('     1\tsecret\n');
  });

  it('file_bytes: sha256, size_bytes, encoding_ok, verdicts, only utf-8, and confined to the workspace', async () => {
    const { ok, fail } = open({ 'j.json': '{"a":"x\\ny"}', 'bad.txt': new Uint8Array([0xff, 0xfe, 0x41]) });
    const esc = await ok('file_bytes', { file: 'j.json', expected: 'x\ny' });
    expect(esc).toMatchObject({
      file: 'j.json',
      size_bytes: 12,
      encoding_ok: true,
      verdict: 'escaped_where_literal_expected',
    });
    expect(esc.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await ok('file_bytes', { file: 'j.json', expected: 'x\ny', expect_escaped: true })).verdict).toBe('ok');
    expect((await ok('file_bytes', { file: 'j.json', expected: 'zzz' })).verdict).toBe('mismatch');
    expect((await ok('file_bytes', { file: 'bad.txt' })).verdict).toBe('decode_error');
    expect((await fail('file_bytes', { file: 'j.json', encoding: 'latin1' })).code).toBe('INVALID_ARGUMENTS');
    expect((await fail('file_bytes', { file: '/etc/hostname' })).code).toBe('OUTSIDE_WORKSPACE');
  });

  it('run_command runs in the built-in shell without a host runner, and is NOT_SUPPORTED when the host turns it off', async () => {
    const { ok } = open({ 'a.txt': 'one\ntwo\n' });
    expect(await ok('run_command', { command: 'wc -l < a.txt | tr -d " "' })).toMatchObject({
      stdout: '2\n',
      stderr: '',
      exit_code: 0,
      timed_out: false,
      truncated: false,
    });
    const off = await createWorkspace({ fs: createMemoryFs(), tools: fsProcessTools(), processRunner: false }).call(
      'run_command',
      { command: 'echo hi' },
    );
    expect(off).toMatchObject({ ok: false, error: { code: 'NOT_SUPPORTED' } });
  });
});
