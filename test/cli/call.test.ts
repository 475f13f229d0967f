import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, repoRoot, runCli, runMain, type CliRun } from './built-cli.js';

let base: string;
let root: string;

function expectNoHostPath(run: CliRun): void {
  expect(run.stdout).not.toContain(base);
  expect(run.stderr).not.toContain(base);
}

beforeAll(async () => {
  await buildCli();
  base = await mkdtemp(join(tmpdir(), 'sandpit-cli-call-'));
  root = join(base, 'project');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1;\r\nexport const b = 2;\r\n');
  await writeFile(join(base, 'secret.txt'), 'outside\n');
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

// The first test and the one across processes spawn the built bin; the rest call its main in this
// process (runMain), the same code without a Node start per call.
describe('sandpit call', () => {
  it('prints the success envelope of a real read as one JSON line and exits 0', async () => {
    const run = await runCli(['call', 'read_file', '{"path": "src/a.ts", "start_line": 2}', '--root', root]);
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const envelope = JSON.parse(run.stdout);
    expect(envelope).toMatchObject({
      ok: true,
      tool: 'read_file',
      result: { path: 'src/a.ts', eol: 'crlf', start_line: 2, total_lines: 2 },
    });
    expect(envelope.result.content).toBe('export const b = 2;\n');
    expectNoHostPath(run);
  });

  it('exits 0 with the error envelope when the tool fails, and names no host path', async () => {
    for (const [args, code] of [
      ['{"path": "src/missing.ts"}', 'NOT_FOUND'],
      ['{"path": "../secret.txt"}', 'OUTSIDE_WORKSPACE'],
      ['{"path": "src"}', 'NOT_A_FILE'],
      ['{"path": "src/a.ts", "bogus": 1}', 'INVALID_ARGUMENTS'],
    ] as const) {
      const run = await runMain(['call', 'read_file', args, '--root', root]);
      expect(run.code).toBe(0);
      const envelope = JSON.parse(run.stdout);
      expect(envelope.ok).toBe(false);
      expect(envelope.error.code).toBe(code);
      expect(typeof envelope.error.message).toBe('string');
      expectNoHostPath(run);
    }
  });

  it('answers a tool name it does not know with UNKNOWN_TOOL, and malformed argument JSON with INVALID_ARGUMENTS', async () => {
    const unknown = await runMain(['--root', root, 'call', 'read_files', '{}']);
    expect(unknown.code).toBe(0);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      ok: false,
      tool: 'read_files',
      error: { code: 'UNKNOWN_TOOL' },
    });
    const malformed = await runMain(['call', 'read_file', '{path: src/a.ts}', `--root=${root}`]);
    expect(malformed.code).toBe(0);
    const envelope = JSON.parse(malformed.stdout);
    expect(envelope).toMatchObject({ ok: false, tool: 'read_file', error: { code: 'INVALID_ARGUMENTS' } });
    expect(envelope.error.problems).toEqual([{ path: '', message: 'must be valid JSON' }]);
  });

  it('changes the real folder, so a later process sees the write', async () => {
    const write = await runCli([
      'call',
      'write_file',
      '{"path": "notes/todo.md", "content": "- ship it\\n"}',
      '--root',
      root,
    ]);
    expect(write.code).toBe(0);
    expect(JSON.parse(write.stdout)).toMatchObject({
      ok: true,
      tool: 'write_file',
      result: { path: 'notes/todo.md', created: true },
    });
    expect(await readFile(join(root, 'notes', 'todo.md'), 'utf8')).toBe('- ship it\n');
    const read = await runCli(['call', 'read_file', '{"path": "notes/todo.md"}', '--root', root]);
    expect(JSON.parse(read.stdout).result.content).toBe('- ship it\n');
    expectNoHostPath(write);
  });

  it('works on a throwaway in-memory copy with --from and leaves the folder alone', async () => {
    const run = await runMain([
      'call',
      'write_file',
      '{"path": "src/a.ts", "content": "gone\\n"}',
      '--from',
      root,
      '--pretty',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('\n  "ok": true');
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, tool: 'write_file' });
    expect(await readFile(join(root, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\r\nexport const b = 2;\r\n');
  });
});

describe('sandpit tools, --help and the bin', () => {
  it('lists every tool with its title and description, and schemas on request', async () => {
    const run = await runMain(['tools']);
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(tools.map((t) => t.name)).toContain('read_file');
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(['description', 'name', 'title']);
      expect(String(tool.description).length).toBeGreaterThan(10);
    }
    const withSchemas = JSON.parse((await runMain(['tools', '--schemas'])).stdout) as Array<Record<string, any>>;
    expect(withSchemas.find((t) => t.name === 'read_file')!.input_schema.required).toEqual(['path']);
    expect(withSchemas.find((t) => t.name === 'read_file')).toMatchObject({
      title: 'Read file',
      output_schema: { type: 'object' },
      annotations: { readOnly: true },
    });
  });

  it('prints help on stdout with exit 0, saying what --from leaves out', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const run = await runMain([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('sandpit replay FILE|-');
      expect(run.stdout).toMatch(/except node_modules and \.sandpit/);
      expect(run.stderr).toBe('');
    }
  });

  it('starts from each of its bin entries through its own shebang, as a linked bin is run', async () => {
    // npm links a bin by pointing at this file and running it as a program; a real link from the
    // packed tarball, run by npx from /, is docs/quick-starts.test.ts's MCP client configurations.
    // (npm exec in this checkout spent a minute loading the checkout's own dependency tree.)
    const { bin } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(Object.keys(bin).sort()).toEqual(['sandpit', 'sandpit-workspace']);
    for (const file of new Set(Object.values(bin))) {
      const path = join(repoRoot, file);
      expect((await readFile(path, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
      const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    }
  });
});
