import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cliPath } from '../cli/built-cli.js';
import { listeningUrl } from '../mcp/cli-child.js';
import { FULL } from './sizes.js';

// Issue 30, items 5 and 8: an HTTP server's memory is bounded however clients use it, and it stays up.

const dirs: string[] = [];
const children: Array<ChildProcessByStdio<null, null, Readable>> = [];
const clients: Client[] = [];
beforeAll(async () => {
  await buildCli();
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const child of children) child.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Served {
  url: string;
  child: ChildProcessByStdio<null, null, Readable>;
  exited: { code: number | null; signal: string | null } | null;
  headers: Record<string, string>;
  connect(): Promise<Client>;
}

/** `sandpit mcp --http` as a child with a token, on a folder holding `files`, Node given `nodeOptions`. */
async function serve(files: Record<string, string>, args: string[] = [], nodeOptions = ''): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-http-limits-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const token = randomBytes(24).toString('hex');
  const child = spawn(
    process.execPath,
    [cliPath, 'mcp', '--root', dir, '--snapshots', 'off', '--http', '127.0.0.1:0', '--auth-token-env', 'T', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, T: token, NODE_OPTIONS: nodeOptions } },
  );
  children.push(child);
  const url = await listeningUrl(child);
  const headers = { Authorization: `Bearer ${token}` };
  const served: Served = {
    url,
    child,
    exited: null,
    headers,
    async connect() {
      const client = new Client({ name: 'limits', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      clients.push(client);
      return client;
    },
  };
  child.once('exit', (code, signal) => {
    served.exited = { code, signal };
  });
  return served;
}

const JSON_AND_SSE = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A raw initialize: the new session's id. */
async function initialize(served: Served, n: number): Promise<string> {
  const res = await fetch(served.url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...served.headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `flood-${n}`, version: '1' } },
    }),
  });
  await res.text();
  expect(res.status).toBe(200);
  return res.headers.get('mcp-session-id')!;
}

/** A raw ping in session `id`: its HTTP status and the JSON-RPC error, if any. */
async function ping(
  served: Served,
  id: string,
): Promise<{ status: number; error?: { code: number; message: string } }> {
  const res = await fetch(served.url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...served.headers, 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  const text = await res.text();
  return { status: res.status, ...(res.status === 404 ? { error: (JSON.parse(text) as { error: never }).error } : {}) };
}

async function timedPing(client: Client): Promise<number> {
  const started = performance.now();
  expect(await client.ping()).toEqual({});
  return performance.now() - started;
}

describe('sandpit mcp --http memory bounds', () => {
  it('stays up while a client reads a 9.5 MiB file over and over (the replay buffer has a byte budget)', async () => {
    // Each answer carries the file twice (text and structuredContent), about 19 MiB: kept whole in a
    // 1,000-message buffer, this heap filled within a dozen reads (Node's default one at read 426).
    const reads = FULL ? 500 : 12;
    const big = `${'x'.repeat(9999)}\n`.repeat(996);
    const served = await serve({ 'big.txt': big }, [], '--max-old-space-size=256');
    const reader = await served.connect();
    const other = await served.connect();
    for (let i = 0; i < reads; i++) {
      const read = (await reader.callTool({ name: 'read_file', arguments: { path: 'big.txt' } }, undefined, {
        timeout: 600_000,
      })) as Record<string, any>;
      // the answers must be big for this to test anything
      expect(read.structuredContent.selected_chars).toBe(big.length);
    }
    expect(served.exited).toBeNull();
    expect(await timedPing(other)).toBeLessThan(1000);
  });

  it('caps the sessions under an initialize flood, ending the least recently used idle ones, and answers a ping throughout', async () => {
    const flood = FULL ? 2000 : 400;
    const maxSessions = 256;
    const served = await serve({ 'a.txt': 'a\n' });
    const monitor = await served.connect();
    const ids: string[] = [];
    const pings: number[] = [];
    for (let at = 0; at < flood; at += 25) {
      const batch = Array.from({ length: Math.min(25, flood - at) }, (_, k) => initialize(served, at + k));
      ids.push(...(await Promise.all(batch)));
      pings.push(await timedPing(monitor));
    }
    expect(served.exited).toBeNull();
    // the monitor kept pinging, so it is among the most recently used and was never ended
    expect(await timedPing(monitor)).toBeLessThan(1000);
    // the oldest sessions are gone, answered as the SDK answers any unknown session
    const ended = ids.slice(0, flood - maxSessions);
    for (const id of ended.slice(0, 50).concat(ended.slice(-50)))
      expect(await ping(served, id)).toEqual({ status: 404, error: { code: -32001, message: 'Session not found' } });
    // the newest still answer
    for (const id of ids.slice(-(maxSessions - 56))) expect((await ping(served, id)).status).toBe(200);
    expect(await timedPing(monitor)).toBeLessThan(1000);
    console.log(
      `[hardening mcp-http-limits] ${flood} initializes, ${maxSessions} kept: slowest ping during the flood ${Math.round(Math.max(...pings))} ms`,
    );
  });
});
