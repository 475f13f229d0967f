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
});
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
  // a well-formed initialize is refused too, without the token or with a wrong one
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stranger', version: '1' } },
  });
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const wrong: Array<Record<string, string>> = [{}, { Authorization: 'Bearer tok-124' }, { Authorization: 'tok-123' }];
  for (const auth of wrong) {
    const refused = await fetch(url, { method: 'POST', headers: { ...headers, ...auth }, body: initialize });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
  }
  const stranger = new Client({ name: 'no-token', version: '1' });
  await expect(stranger.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow();
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
});

it('refuses a bad --http value and a token variable that is not set', async () => {
  expect((await runCli(['mcp', '--root', dir, '--http', 'nonsense'])).code).toBe(2);
  const unset = await runCli(['mcp', '--root', dir, '--http', '0', '--auth-token-env', 'SANDPIT_SURELY_UNSET_VAR']);
  expect(unset.code).toBe(2);
  expect(unset.stderr).toContain('SANDPIT_SURELY_UNSET_VAR');
});

it('refuses --http without a token unless --no-auth says the port is meant to be open', async () => {
  const refused = await runCli(['mcp', '--root', dir, '--http', '127.0.0.1:0']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('--auth-token-env NAME');
  expect(refused.stderr).toContain('--no-auth');
  expect(refused.stderr).not.toContain('MCP over HTTP at');
  // the roots-following server (no --root) is refused the same way
  expect((await runCli(['mcp', '--http', '127.0.0.1:0'])).code).toBe(2);
  const both = await runCli(['mcp', '--root', dir, '--http', '0', '--no-auth', '--auth-token-env', 'MCP_TEST_TOKEN'], {
    env: { MCP_TEST_TOKEN: 'tok-123' },
  });
  expect(both.code).toBe(2);
  expect(both.stderr).toContain('contradict');
  const stdio = await runCli(['mcp', '--root', dir, '--no-auth']);
  expect(stdio.code).toBe(2);
  expect(stdio.stderr).toContain('--no-auth goes with --http');
  const help = await runCli(['mcp', '--help']);
  expect(help.stdout).toContain('--no-auth');
  expect(help.stdout).toContain('--http needs a token');
});

it('serves without a token under --no-auth, and says so at start', async () => {
  writeFileSync(join(dir, 'open.txt'), 'open\n');
  const child = spawn(process.execPath, [cliPath, 'mcp', '--root', dir, '--http', '127.0.0.1:0', '--no-auth'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const url = await listeningUrl(child);
  expect(stderr).toContain('--no-auth: anyone who can reach this port can use every tool');
  const client = new Client({ name: 'open-port', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(
    (await client.callTool({ name: 'read_file', arguments: { path: 'open.txt' } })).structuredContent,
  ).toMatchObject({ content: 'open\n' });
  await client.close();
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});
