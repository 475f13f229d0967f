import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cliPath, runMain } from './built-cli.js';

type Row = Record<string, any>;
let root: string;

beforeAll(async () => {
  await buildCli();
  root = await mkdtemp(join(tmpdir(), 'sandpit-cli-native-'));
  await writeFile(join(root, 'notes.txt'), 'one\ntwo\n');
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** One call through the built CLI's main in this process; the MCP server below is a real process. */
async function call(toolset: string, tool: string, args: Row): Promise<Row> {
  const run = await runMain(['call', tool, JSON.stringify(args), '--root', root, '--toolset', toolset]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).not.toContain(root);
  return JSON.parse(run.stdout) as Row;
}

describe("the vendors' native toolsets through the built CLI and MCP server", () => {
  it('--toolset openai: apply_patch takes a V4A operation and shell runs a command line', async () => {
    const created = await call('openai', 'apply_patch', {
      operation: { type: 'create_file', path: 'src/a.txt', diff: '+hello\n+world\n' },
    });
    expect(created).toMatchObject({ status: 'completed', output: 'Created src/a.txt' });
    expect(await readFile(join(root, 'src/a.txt'), 'utf8')).toBe('hello\nworld\n');
    const shell = await call('openai', 'shell', { action: { commands: ['wc -l < src/a.txt', 'exit 3'] } });
    expect(shell.output).toMatchObject([
      { stdout: '2\n', outcome: { type: 'exit', exit_code: 0 } },
      { outcome: { type: 'exit', exit_code: 3 } },
    ]);
  });

  it("--toolset anthropic: the text editor's numbered view and bash", async () => {
    const view = await call('anthropic', 'str_replace_based_edit_tool', { command: 'view', path: 'notes.txt' });
    expect(JSON.stringify(view)).toContain('1: one\\n2: two');
    const bash = await call('anthropic', 'bash', { command: 'echo $((6 * 7))' });
    expect(JSON.stringify(bash)).toContain('42');
  });

  it('an unknown toolset names the native ones among the choices', async () => {
    const run = await runMain(['call', 'read_file', '{}', '--root', root, '--toolset', 'vendor']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("unknown toolset 'vendor'");
    expect(run.stderr).toContain('openai, anthropic');
  });

  it('sandpit mcp --toolset openai lists and runs apply_patch and shell', async () => {
    const client = new Client({ name: 'native-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', '--root', root, '--toolset', 'openai'],
        stderr: 'pipe',
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['apply_patch', 'shell']));
      expect(names).not.toContain('write_file');
      const result = (await client.callTool({
        name: 'apply_patch',
        arguments: { operation: { type: 'update_file', path: 'notes.txt', diff: '@@\n-two\n+TWO\n' } },
      })) as Row;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('one\nTWO\n');
      const failed = (await client.callTool({
        name: 'apply_patch',
        arguments: { operation: { type: 'update_file', path: 'notes.txt', diff: '@@\n-absent\n+x\n' } },
      })) as Row;
      expect(failed.isError).toBe(true);
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('one\nTWO\n');
    } finally {
      await client.close();
    }
  });
});
