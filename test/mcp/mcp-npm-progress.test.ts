import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cliPath } from '../cli/built-cli.js';
import { FIXTURE_PACKAGES, FIXTURE_PROJECT } from '../packages/fixture-tree.js';
import { type LocalRegistry, startNpmRegistry } from '../support/npm-registry.js';

/**
 * An MCP client hears a long install while it runs: `sandpit mcp` as a child over stdio (the
 * official SDK's client), a `run_command` of the npm CLI against the local registry with a
 * progress token, and the server's `notifications/progress` arrive before the call's answer.
 */
let registry: LocalRegistry;
let client: Client;
const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-mcp-npm-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  await buildCli();
  registry = await startNpmRegistry(FIXTURE_PACKAGES);
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await registry?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm install through sandpit mcp', () => {
  it('sends notifications/progress with the install as it runs, before the answer', async () => {
    const root = folder();
    const cache = folder();
    writeFileSync(join(root, 'package.json'), JSON.stringify(FIXTURE_PROJECT, null, 2));
    client = new Client({ name: 'npm-progress', version: '1.0.0' });
    // --sandbox none: the OS sandbox gives programs no network, and npm needs the registry.
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', '--root', root, '--sandbox', 'none'],
        stderr: 'pipe',
      }),
    );
    const order: Array<Progress | 'answer'> = [];
    const command = [
      'npm',
      'install',
      '--registry',
      registry.url,
      '--cache',
      cache,
      '--userconfig',
      join(cache, 'no-npmrc'),
      '--loglevel',
      'http',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
    ];
    const result = (await client.callTool(
      { name: 'run_command', arguments: { command, timeout_seconds: 300 } },
      CallToolResultSchema,
      { onprogress: (p) => order.push(p), timeout: 300_000 },
    )) as { isError?: boolean; structuredContent: Record<string, any> };
    order.push('answer');
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    expect(result.structuredContent.exit_code, result.structuredContent.stderr).toBe(0);

    const seen = order.filter((p): p is Progress => p !== 'answer');
    expect(order.at(-1)).toBe('answer');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p, i) => i === 0 || p.progress > seen[i - 1]!.progress)).toBe(true);
    // The messages are npm's own lines: its requests to the registry, then its summary.
    const messages = seen.map((p) => p.message ?? '');
    expect(messages.some((m) => m.startsWith('npm http fetch GET 200'))).toBe(true);
    expect(messages.at(-1)).toMatch(/^added \d+ packages/);
    expect(
      JSON.parse(readFileSync(join(root, 'node_modules/b/node_modules/shared/package.json'), 'utf8')).version,
    ).toBe('2.0.0');
  });
});
