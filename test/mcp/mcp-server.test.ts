import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cliPath, runCli } from '../cli/built-cli.js';

type Row = Record<string, any>;
const dirs: string[] = [];
const clients: Client[] = [];

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-mcp-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function connect(dir: string, ...extra: string[]): Promise<Client> {
  const client = new Client({ name: 'sandpit-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', '--root', dir, ...extra],
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Row): Promise<{ envelope: Row; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as Row;
  expect(r.content).toHaveLength(1);
  expect(r.content[0].type).toBe('text');
  return { envelope: JSON.parse(r.content[0].text), isError: r.isError === true };
}

beforeAll(async () => {
  await buildCli();
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('sandpit mcp (a real child process driven by the SDK client over stdio)', () => {
  it('lists the canonical tools with schemas and annotations, reads, edits, fails, patches, snapshots and undoes', async () => {
    const dir = folder({ 'a.txt': 'alpha\nbeta\n', 'src/m.ts': 'export const x = 1;\n' });
    const client = await connect(dir);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['read_file', 'edit_file', 'apply_patch', 'snapshot', 'undo', 'run_command', 'task_output'])
      expect(byName[name]).toBeDefined();
    expect(byName.read_file!.inputSchema.required).toEqual(['path']);
    expect(byName.read_file!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.delete_path!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });

    const read = await call(client, 'read_file', { path: 'a.txt' });
    expect(read.isError).toBe(false);
    expect(read.envelope).toMatchObject({
      ok: true,
      tool: 'read_file',
      result: { content: 'alpha\nbeta\n', total_lines: 2 },
    });

    const edit = await call(client, 'edit_file', { path: 'a.txt', old_text: 'beta', new_text: 'gamma' });
    expect(edit.envelope).toMatchObject({ ok: true, result: { replacements: 1, first_line: 2 } });
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('alpha\ngamma\n');

    const bad = await call(client, 'edit_file', { path: 'a.txt', old_text: 'nothing like it', new_text: 'x' });
    expect(bad.isError).toBe(true);
    expect(bad.envelope).toMatchObject({ ok: false, tool: 'edit_file', error: { code: 'NO_MATCH' } });
    const invalid = await call(client, 'read_file', { file: 'a.txt' });
    expect(invalid.isError).toBe(true);
    expect(invalid.envelope.error.code).toBe('INVALID_ARGUMENTS');
    const outside = await call(client, 'read_file', { path: '/etc/passwd' });
    expect(outside.envelope.error.code).toBe('OUTSIDE_WORKSPACE');
    expect(JSON.stringify(outside.envelope)).not.toContain(dir);
    const unknown = await call(client, 'no_such_tool', {});
    expect(unknown.envelope.error.code).toBe('UNKNOWN_TOOL');

    const patch = [
      '*** Begin Patch',
      '*** Update File: src/m.ts',
      '@@',
      '-export const x = 1;',
      '+export const x = 2;',
      '*** End Patch',
    ].join('\n');
    const patched = await call(client, 'apply_patch', { patch });
    expect(patched.envelope).toMatchObject({ ok: true, result: { files: [{ path: 'src/m.ts', action: 'update' }] } });
    expect(readFileSync(join(dir, 'src/m.ts'), 'utf8')).toBe('export const x = 2;\n');

    const snap = await call(client, 'snapshot', { message: 'checkpoint' });
    expect(snap.envelope.ok).toBe(true);
    const listed = await call(client, 'list_snapshots', {});
    expect(listed.envelope.result.snapshots.length).toBeGreaterThanOrEqual(3);
    await call(client, 'write_file', { path: 'a.txt', content: 'overwritten\n' });
    const undo = await call(client, 'undo', {});
    expect(undo.envelope.ok).toBe(true);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('alpha\ngamma\n');
    expect(readFileSync(join(dir, 'src/m.ts'), 'utf8')).toBe('export const x = 2;\n');
  });

  it('serves file_manager with its {ok, tool, results} envelope, and its guidance errors as isError results', async () => {
    const dir = folder({ 'notes.md': '# Notes\n' });
    const client = await connect(dir, '--toolset', 'file_manager');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['file_manager']);
    expect(tools[0]!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const ok = await call(client, 'file_manager', {
      operations: [
        { action: 'read_file', path: 'notes.md' },
        { action: 'append_file', path: 'notes.md', content: 'more\n' },
      ],
    });
    expect(ok.isError).toBe(false);
    expect(Object.keys(ok.envelope)).toEqual(['ok', 'tool', 'results']);
    expect(ok.envelope.results.map((r: Row) => [r.ok, r.action, r.relative_path])).toEqual([
      [true, 'read_file', 'notes.md'],
      [true, 'append_file', 'notes.md'],
    ]);
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('# Notes\nmore\n');
    const guided = await call(client, 'file_manager', { action: 'read_file', path: 'notes.md' });
    expect(guided.isError).toBe(true);
    expect(guided.envelope).toMatchObject({
      ok: false,
      tool: 'file_manager',
      results: [],
      error: { code: 'INVALID_ARGUMENTS' },
    });
    const dotted = await call(client, 'file_manager.read_file', { path: 'notes.md' });
    expect(dotted.envelope.error.message).toContain('dotted method name');
  });

  it('--snapshots off serves without a shadow repository; a bad mode is a usage error', async () => {
    const dir = folder({ 'a.txt': 'a\n' });
    const client = await connect(dir, '--snapshots', 'off');
    expect((await call(client, 'write_file', { path: 'a.txt', content: 'b\n' })).envelope.ok).toBe(true);
    expect((await call(client, 'undo', {})).envelope.error.code).toBe('NOT_SUPPORTED');
    // the workspace lock's folder goes with the lock, which is kept a moment for the next change
    await expect.poll(() => existsSync(join(dir, '.sandpit')), { interval: 10 }).toBe(false);
    const bad = await runCli(['mcp', '--root', dir, '--snapshots', 'sometimes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--snapshots takes call, batch, manual, off');
  });

  it('joins manifest tools from --tools to a seed toolset', async () => {
    const dir = folder({ 'keep.txt': 'k' });
    const tools = folder({
      'shout/shout.json': JSON.stringify({
        name: 'shout',
        description: 'Upper-case a text.',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
          additionalProperties: false,
        },
        command: [
          process.execPath,
          '-e',
          'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).text.toUpperCase()))',
        ],
      }),
    });
    const client = await connect(dir, '--toolset', 'file_manager', '--tools', tools);
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(['file_manager', 'shout']);
    expect(listed[1]!.inputSchema.required).toEqual(['text']);
    const shout = await call(client, 'shout', { text: 'quiet' });
    expect(shout.isError).toBe(false);
    expect(JSON.stringify(shout.envelope)).toContain('QUIET');
  });

  it('serves fs_process with real processes and cowork with its artifact folder', async () => {
    const dir = folder({ 'p/hello.txt': 'hi\n' });
    const fsp = await connect(dir, '--toolset', 'fs_process');
    expect((await fsp.listTools()).tools.map((t) => t.name)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'search_files',
      'list_dir',
      'file_bytes',
      'run_command',
    ]);
    const run = await call(fsp, 'run_command', {
      command: `${JSON.stringify(process.execPath)} -e "process.stdout.write('x'.repeat(5000)); process.exit(3)"`,
      path: 'p',
    });
    expect(run.isError).toBe(false);
    expect(run.envelope.result).toMatchObject({ exit_code: 3, timed_out: false, truncated: true });
    expect(run.envelope.result.stdout.startsWith('x'.repeat(4096))).toBe(true);
    expect(run.envelope.result.stdout.length).toBeLessThan(4200);
    const slow = await call(fsp, 'run_command', {
      command: `${JSON.stringify(process.execPath)} -e "setTimeout(() => {}, 10000)"`,
      timeout: 0.5,
    });
    expect(slow.envelope.result).toMatchObject({ exit_code: -1, timed_out: true });
    const missing = await call(fsp, 'run_command', { command: 'no-such-program-sandpit-xyz' });
    expect(missing.isError).toBe(true);
    const noDir = await call(fsp, 'run_command', { command: 'echo hi', cwd: 'nowhere' });
    expect(noDir.envelope.error.code).toBe('NOT_FOUND');
    const literal = await call(fsp, 'run_command', { command: 'echo hi && echo $HOME | cat > out.txt' });
    expect(literal.envelope.result.stdout).toBe('hi && echo $HOME | cat > out.txt\n');
    const read = await call(fsp, 'read_file', { path: 'p', file: 'hello.txt' });
    expect(read.envelope.result).toMatchObject({
      file: 'hello.txt',
      content: '     1\thi\n',
      showing: { start: 1, end: 1, count: 1 },
    });

    const cowork = await connect(dir, '--toolset', 'cowork', '--artifacts', 'out');
    expect((await cowork.listTools()).tools.map((t) => t.name)).toEqual([
      'text_file_read',
      'apply_patch',
      'glob',
      'grep',
      'rename_path',
      'delete_path',
    ]);
    const add = await call(cowork, 'apply_patch', {
      patch: '*** Begin Patch\n*** Add File: out/r.md\n+report\n*** End Patch',
    });
    expect(add.envelope.ok).toBe(true);
    expect(readFileSync(join(dir, 'out/r.md'), 'utf8')).toBe('report\n');
    const unread = await call(cowork, 'apply_patch', {
      patch: '*** Begin Patch\n*** Update File: p/hello.txt\n@@\n-hi\n+ho\n*** End Patch',
    });
    expect(unread.envelope.error.code).toBe('NOT_READ');
  });
});

describe('sandpit call and replay with --toolset', () => {
  it('call prints the toolset envelope; an unknown toolset is a usage error', async () => {
    const dir = folder({ 'n.txt': 'one\n' });
    const fm = await runCli([
      'call',
      'file_manager',
      '{"operations":[{"action":"exists","path":"n.txt"}]}',
      '--root',
      dir,
      '--toolset',
      'file_manager',
    ]);
    expect(fm.code).toBe(0);
    expect(JSON.parse(fm.stdout)).toEqual({
      ok: true,
      tool: 'file_manager',
      results: [{ ok: true, action: 'exists', relative_path: 'n.txt', exists: true, type: 'file' }],
    });
    const nope = await runCli(['call', 'read_file', '{}', '--root', dir, '--toolset', 'nope']);
    expect(nope.code).toBe(2);
    expect(nope.stderr).toContain("unknown toolset 'nope'");
  });

  it('tools --toolset lists that surface with its schemas', async () => {
    const r = await runCli(['tools', '--schemas', '--toolset', 'cowork']);
    expect(r.code).toBe(0);
    const tools = JSON.parse(r.stdout) as Row[];
    expect(tools.map((t) => t.name)).toEqual([
      'text_file_read',
      'apply_patch',
      'glob',
      'grep',
      'rename_path',
      'delete_path',
    ]);
    expect(tools[0]!.input_schema.properties.offset.type).toBe('integer');
  });

  it('replays a transcript recorded against the fs_process surface on an in-memory copy, leaving the folder untouched', async () => {
    const dir = folder({ 'p/a.txt': 'x y x\n' });
    const transcript = [
      { tool: 'edit_file', args: { path: 'p', file: 'a.txt', old: 'x', new: 'z', count: -1 } },
      { tool: 'read_file', args: { path: 'p', file: 'a.txt' } },
      { tool: 'list_dir', args: { path: 'p', max_depth: 0 } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const r = await runCli(['replay', '-', '--from', dir, '--toolset', 'fs_process'], { input: transcript });
    expect(r.code).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out[0]).toMatchObject({ ok: true, tool: 'edit_file', result: { replacements: 2, first_line: 1 } });
    expect(out[1].result.content).toBe('     1\tz y z\n');
    expect(out[2].result.entries).toEqual([{ name: 'a.txt', path: 'a.txt', type: 'file', size_bytes: 6 }]);
    expect(readFileSync(join(dir, 'p/a.txt'), 'utf8')).toBe('x y x\n');
  });
});
