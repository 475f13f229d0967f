import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCli, cliPath, runCli } from '../cli/built-cli.js';
import { listeningUrl } from './cli-child.js';

const dir = mkdtempSync(join(tmpdir(), 'sandpit-mcp-http-cli-'));
beforeAll(async () => {
  await buildCli();
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('sandpit mcp --http serves the folder with the token from --auth-token-env and stops on SIGTERM', async () => {
  writeFileSync(join(dir, 'a.txt'), 'hello\n');
  const child = spawn(
    process.execPath,
    [cliPath, 'mcp', '--root', dir, '--http', '127.0.0.1:0', '--auth-token-env', 'MCP_TEST_TOKEN'],
    {
      env: { ...process.env, MCP_TEST_TOKEN: 'tok-123' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const url = await listeningUrl(child);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(401);
  const client = new Client({ name: 'cli-http', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer tok-123' } } }),
  );
  expect((await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })).structuredContent).toMatchObject({
    content: 'hello\n',
  });
  await client.close();
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(stderr).not.toContain(dir);
}, 60_000);

it('refuses a bad --http value and a token variable that is not set', async () => {
  expect((await runCli(['mcp', '--root', dir, '--http', 'nonsense'])).code).toBe(2);
  const unset = await runCli(['mcp', '--root', dir, '--http', '0', '--auth-token-env', 'SANDPIT_SURELY_UNSET_VAR']);
  expect(unset.code).toBe(2);
  expect(unset.stderr).toContain('SANDPIT_SURELY_UNSET_VAR');
});
