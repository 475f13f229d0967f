import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cliPath, envelopes, runCli, runMain } from './built-cli.js';

type Row = Record<string, any>;
let base: string;
let n = 0;

beforeAll(async () => {
  await buildCli();
  base = await mkdtemp(join(tmpdir(), 'sandpit-cli-seeds-'));
});
afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

/** A fresh real folder holding `files` (a Buffer for exact bytes). */
async function project(files: Record<string, string | Buffer>): Promise<string> {
  const root = join(base, `ws${n++}`);
  await mkdir(root, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(root, name, '..'), { recursive: true });
    await writeFile(join(root, name), content);
  }
  return root;
}

/** One call through the built CLI's main in this process (the session below is a real process). */
async function call(root: string, toolset: string, tool: string, args: Row, ...extra: string[]): Promise<Row> {
  const run = await runMain(['call', tool, JSON.stringify(args), '--root', root, '--toolset', toolset, ...extra]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).not.toContain(base);
  return JSON.parse(run.stdout) as Row;
}

/** Several calls in one process (cowork's read audit lives for the session). */
async function session(root: string, toolset: string, calls: Array<[string, Row]>): Promise<Row[]> {
  const input = calls.map(([tool, args]) => JSON.stringify({ tool, args })).join('\n');
  const run = await runCli(['replay', '-', '--backend', 'node', '--root', root, '--toolset', toolset], { input });
  expect(run.code, run.stderr).toBe(0);
  return envelopes(run.stdout);
}

describe('fs_process through the CLI (seed 001)', () => {
  it('list_dir leaves out hidden names, build and cache folders, and a link to /etc', async () => {
    const root = await project({
      'a.txt': 'a',
      '.hidden': 'h',
      'node_modules/m.js': '',
      '__pycache__/c.pyc': '',
      'dist/x.js': '',
      'src/s.ts': '',
    });
    await symlink('/etc', join(root, 'etclink'));
    const listed = await call(root, 'fs_process', 'list_dir', { path: '.' });
    expect(listed.ok).toBe(true);
    expect(listed.result.entries.map((e: Row) => e.name)).toEqual(['a.txt', 'src']);
  });

  it('the project root is a barrier for links: proj/esc -> ../other is refused like ../other', async () => {
    const root = await project({ 'proj/in.txt': 'in\n', 'other/secret.txt': 'secret\n' });
    await symlink('../other', join(root, 'proj', 'esc'));
    for (const file of ['esc/secret.txt', '../other/secret.txt']) {
      const refused = await call(root, 'fs_process', 'read_file', { path: 'proj', file });
      expect(refused).toMatchObject({ ok: false, error: { code: 'OUTSIDE_WORKSPACE' } });
      expect(JSON.stringify(refused)).not.toContain('secret\\n');
    }
    expect(
      (await call(root, 'fs_process', 'list_dir', { path: 'proj' })).result.entries.map((e: Row) => e.name),
    ).toEqual(['in.txt']);
  });

  it('search_files pages with cursor/next_cursor and takes include globs from the project root', async () => {
    const files: Record<string, string> = { 'r/docs/a.md': 'needle\n' };
    for (let i = 0; i < 55; i++) files[`r/many/f${String(i).padStart(2, '0')}.txt`] = 'needle\n';
    const root = await project(files);
    const first = await call(root, 'fs_process', 'search_files', { path: 'r', pattern: 'needle' });
    expect(first.result).toMatchObject({ count: 50, truncated: true });
    const second = await call(root, 'fs_process', 'search_files', {
      path: 'r',
      pattern: 'needle',
      cursor: first.result.next_cursor,
    });
    expect(second.result).toMatchObject({ count: 6, truncated: false, next_cursor: null });
    const files2 = [...first.result.matches, ...second.result.matches].map((m: Row) => m.file);
    expect(new Set(files2).size).toBe(56);
    expect(
      (await call(root, 'fs_process', 'search_files', { path: 'r', pattern: 'needle', include: ['docs/**'] })).result
        .matches,
    ).toEqual([{ file: 'docs/a.md', line: 1, content: 'needle' }]);
    expect(
      (await call(root, 'fs_process', 'search_files', { path: 'r', pattern: 'needle', include: ['r/docs/*.md'] }))
        .result.count,
    ).toBe(0);
  });

  it('an ambiguous edit_file hints count=-1, its own argument, not replace_all', async () => {
    const root = await project({ 'e.txt': 'x a\ny a\n' });
    const ambiguous = await call(root, 'fs_process', 'edit_file', { file: 'e.txt', old: ' a', new: ' b' });
    expect(ambiguous.error.code).toBe('AMBIGUOUS_MATCH');
    expect(ambiguous.error.hint).toContain('count=-1');
    expect(JSON.stringify(ambiguous)).not.toMatch(/replace_all|old_text/);
  });
});

describe('cowork through the CLI (seed 004)', () => {
  const patch = (lines: string) => `*** Begin Patch\n*** Update File: q.txt\n@@\n${lines}\n*** End Patch`;

  it('apply_patch matches exactly: typographic quotes and trailing spaces are not normalized; canonical tolerates them', async () => {
    const text = 'fancy \u201cquote\u201d here\ntrail  \nend\n';
    const root = await project({ 'q.txt': text });
    const [read, quotes, trail] = await session(root, 'cowork', [
      ['text_file_read', { path: 'q.txt', offset: 1 }],
      ['apply_patch', { patch: patch('-fancy "quote" here\n+plain') }],
      ['apply_patch', { patch: patch('-trail\n+t') }],
    ]);
    expect(read!.ok).toBe(true);
    for (const refused of [quotes!, trail!]) {
      expect(refused).toMatchObject({ ok: false, error: { code: 'PATCH_CONFLICT' } });
      expect(refused.error.hint).toContain('Matching is exact');
    }
    expect(await readFile(join(root, 'q.txt'), 'utf8')).toBe(text);
    const [, tolerant] = await session(root, 'canonical', [
      ['read_file', { path: 'q.txt' }],
      ['apply_patch', { patch: patch('-fancy "quote" here\n+plain\n-trail\n+t') }],
    ]);
    expect(tolerant!.ok).toBe(true);
    expect(await readFile(join(root, 'q.txt'), 'utf8')).toBe('plain\nt\nend\n');
  });

  it('NOT_READ names text_file_read with offset=1 and no limit, not read_file or start_line', async () => {
    const root = await project({ 'q.txt': 'a\n' });
    const refused = await call(root, 'cowork', 'apply_patch', { patch: patch('-a\n+b') });
    expect(refused.error.code).toBe('NOT_READ');
    expect(refused.error.hint).toBe('Call text_file_read on it with offset=1 and no limit first.');
  });
});

describe('manifest tools and doctor through the CLI (seed 003)', () => {
  async function toolsFolder(extra: Record<string, Row> = {}): Promise<string> {
    const dir = join(base, `tools${n++}`);
    const tools: Record<string, Row> = {
      fails: {
        description: 'Print and fail.',
        command: [process.execPath, '-e', "console.log('partial'); process.exit(3)"],
      },
      ...extra,
    };
    for (const [name, manifest] of Object.entries(tools)) {
      await mkdir(join(dir, name), { recursive: true });
      await writeFile(join(dir, name, `${name}.json`), JSON.stringify(manifest));
    }
    return dir;
  }

  it('a non-zero exit in text mode is ok: false in the envelope and isError over MCP, with the output', async () => {
    const root = await project({});
    const tools = await toolsFolder();
    const envelope = await call(root, 'fs_process', 'fails', {}, '--tools', tools);
    expect(envelope).toMatchObject({
      ok: false,
      tool: 'fails',
      error: { code: 'IO_ERROR', exit_code: 3, is_error: true, output: 'partial\n(exit code 3)' },
    });
    const client = new Client({ name: 'sandpit-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', '--root', root, '--toolset', 'cowork', '--tools', tools],
        stderr: 'pipe',
      }),
    );
    try {
      const result = (await client.callTool({ name: 'fails', arguments: {} })) as Row;
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0].text)).toMatchObject({ ok: false, error: { code: 'IO_ERROR' } });
    } finally {
      await client.close();
    }
  });

  it('doctor exits 0 and lists a tool whose platforms exclude this machine; a broken manifest still exits 1', async () => {
    const elsewhere = process.platform === 'win32' ? 'linux' : 'windows';
    const fine = await toolsFolder({ other_os: { description: 'x', command: ['true'], platforms: [elsewhere] } });
    const ok = await runMain(['doctor', '--tools', fine]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('fails: OK');
    expect(ok.stdout).toMatch(/other_os: NOT FOR THIS PLATFORM \(only for \w+; this machine is \w+\)/);
    const broken = await toolsFolder({
      other_os: { description: 'x', command: ['true'], platforms: [elsewhere] },
      typo: { description: 'x', command: ['true'], timeout: 5 },
    });
    const bad = await runMain(['doctor', '--tools', broken]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('typo: SKIPPED');
  });
});

describe('lone CR line ends through the CLI', () => {
  const mixed = Buffer.from('one\r\ntwo\rthree\nfour\r\n');

  it('fs_process reads, edits and the canonical apply_patch patches by line, each line keeping its own ending', async () => {
    const root = await project({ 'm.txt': mixed });
    const window = await call(root, 'fs_process', 'read_file', { file: 'm.txt', start_line: 3, end_line: 3 });
    expect(window.result).toMatchObject({ content: '     3\tthree\n', total_lines: 4 });
    expect(
      (await call(root, 'fs_process', 'edit_file', { file: 'm.txt', old: 'two\nthree', new: 'TWO\nTHREE' })).ok,
    ).toBe(true);
    expect(await readFile(join(root, 'm.txt'), 'latin1')).toBe('one\r\nTWO\rTHREE\nfour\r\n');
    const patched = await call(root, 'canonical', 'apply_patch', {
      patch: '*** Begin Patch\n*** Update File: m.txt\n@@\n one\n-TWO\n+2\n THREE\n*** End Patch',
    });
    expect(patched.ok, JSON.stringify(patched)).toBe(true);
    expect(await readFile(join(root, 'm.txt'), 'latin1')).toBe('one\r\n2\rTHREE\nfour\r\n');
  });

  it('search_files and grep number its lines as the read windows do, on real files', async () => {
    const root = await project({ 'm.txt': mixed });
    for (const [toolset, tool] of [
      ['canonical', 'search_files'],
      ['fs_process', 'search_files'],
      ['cowork', 'grep'],
    ] as const) {
      const found = await call(root, toolset, tool, { pattern: 'three' });
      expect(found.result.matches, `${toolset} ${tool}`).toEqual([
        expect.objectContaining({ line: 3, content: 'three' }),
      ]);
    }
    const window = await call(root, 'cowork', 'text_file_read', { path: 'm.txt', offset: 3, limit: 1 });
    expect(window.result.content).toBe('three\n');
  });
});
