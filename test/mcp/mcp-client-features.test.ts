import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  createMcpServer,
  McpLogHub,
  openNodeWorkspace,
  serveMcpHttp,
  type McpServerOptions,
} from '../../src/node/index.js';
import type { WorkspacePolicy } from '../../src/index.js';
import { scratch } from './scratch.js';

type Row = Record<string, any>;
const { folder, closers } = scratch('sandpit-mcp-features-');

type Answer = 'accept' | 'decline' | 'cancel' | 'never' | null;

/** A real SDK client and server joined in memory; `answer` null means the client declares no elicitation. */
async function connect(dir: string, answer: Answer, policy: WorkspacePolicy = {}, options: McpServerOptions = {}) {
  const ws = openNodeWorkspace(dir, { snapshots: false, policy });
  const server = createMcpServer(ws, ws.toolset, options);
  const client = new Client(
    { name: 'features-test', version: '1.0.0' },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  const asked: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      if (answer === 'never') return new Promise<never>(() => {});
      return { action: answer };
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  closers.push(async () => {
    await client.close();
    await ws.close();
  });
  return { client, ws, asked };
}

const structured = async (client: Client, name: string, args: Row): Promise<Row> =>
  ((await client.callTool({ name, arguments: args })) as Row).structuredContent;

describe('elicitation for confirmations', () => {
  it('asks the person on accept and runs the call', async () => {
    const dir = folder({ 'old.txt': 'x\n' });
    const { client, asked } = await connect(dir, 'accept');
    expect(await structured(client, 'delete_path', { path: 'old.txt' })).toMatchObject({
      path: 'old.txt',
      deleted: true,
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("'old.txt'");
    expect(existsSync(join(dir, 'old.txt'))).toBe(false);
  });

  it('refuses on decline and on cancel with nothing changed', async () => {
    for (const answer of ['decline', 'cancel'] as const) {
      const dir = folder({ 'keep.txt': 'x\n' });
      const { client, asked } = await connect(dir, answer);
      const result = (await client.callTool({ name: 'delete_path', arguments: { path: 'keep.txt' } })) as Row;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ code: 'CONFIRMATION_DENIED' });
      expect(asked).toHaveLength(1);
      expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('x\n');
    }
  });

  it('refuses when the person does not answer in time, with nothing changed', async () => {
    const dir = folder({ 'keep.txt': 'x\n' });
    const { client, asked } = await connect(dir, 'never', {}, { elicitTimeoutMs: 200 });
    const result = (await client.callTool({ name: 'delete_path', arguments: { path: 'keep.txt' } })) as Row;
    expect(result.structuredContent).toMatchObject({ code: 'CONFIRMATION_DENIED' });
    expect(asked).toHaveLength(1);
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('x\n');
  });

  it('refuses a required confirmation with a hint when the client cannot elicit', async () => {
    const dir = folder({ 'keep.txt': 'x\n' });
    const { client } = await connect(dir, null, { alwaysConfirmDeletes: true });
    const result = (await client.callTool({ name: 'delete_path', arguments: { path: 'keep.txt' } })) as Row;
    expect(result.structuredContent).toMatchObject({ code: 'CONFIRMATION_DENIED' });
    expect(result.structuredContent.hint).toMatch(/elicitation/);
    expect(result.structuredContent.hint).toMatch(/--approve all/);
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
  });

  it('does not ask when the server trusts every change (--approve all)', async () => {
    const dir = folder({ 'old.txt': 'x\n' });
    const { client, asked } = await connect(dir, 'decline', { confirm: () => true });
    expect(await structured(client, 'delete_path', { path: 'old.txt' })).toMatchObject({ deleted: true });
    expect(asked).toHaveLength(0);
  });

  it('asks over Streamable HTTP too, on the stream of the call', async () => {
    const dir = folder({ 'old.txt': 'x\n' });
    const ws = openNodeWorkspace(dir, { snapshots: false });
    const http = await serveMcpHttp(ws, ws.toolset, { port: 0 });
    const client = new Client({ name: 'features-http', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: 'accept' };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    closers.push(async () => {
      await client.close();
      await http.close();
      await ws.close();
    });
    expect(await structured(client, 'delete_path', { path: 'old.txt' })).toMatchObject({ deleted: true });
    expect(asked).toBe(1);
  });
});

const FILES = 100;
function manyFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const body = Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n') + '\n';
  for (let i = 0; i < FILES; i++) files[`f/${String(i).padStart(3, '0')}.txt`] = body;
  return files;
}
const bigPatch = (): string =>
  [
    '*** Begin Patch',
    ...Array.from({ length: FILES }, (_, i) => [
      `*** Update File: f/${String(i).padStart(3, '0')}.txt`,
      '@@',
      ' line 199',
      '-line 200',
      '+LINE 200',
      ' line 201',
    ]).flat(),
    '*** End Patch',
  ].join('\n');

describe('progress and cancellation', () => {
  it('sends rising progress during an apply_patch over many files', async () => {
    const dir = folder(manyFiles());
    const { client } = await connect(dir, null);
    const seen: Progress[] = [];
    const result = await client.callTool(
      { name: 'apply_patch', arguments: { patch: bigPatch() } },
      CallToolResultSchema,
      { onprogress: (p) => seen.push(p) },
    );
    expect(result.isError).toBe(false);
    expect(seen.length).toBeGreaterThan(FILES / 2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    expect(seen[0]!.total).toBe(FILES * 2);
    expect(readFileSync(join(dir, 'f/099.txt'), 'utf8')).toContain('LINE 200');
  });

  it('sends progress over Streamable HTTP too', async () => {
    const dir = folder(manyFiles());
    const ws = openNodeWorkspace(dir, { snapshots: false });
    const http = await serveMcpHttp(ws, ws.toolset, { port: 0 });
    const client = new Client({ name: 'progress-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    closers.push(async () => {
      await client.close();
      await http.close();
      await ws.close();
    });
    const seen: Progress[] = [];
    const result = await client.callTool(
      { name: 'apply_patch', arguments: { patch: bigPatch() } },
      CallToolResultSchema,
      { onprogress: (p) => seen.push(p) },
    );
    expect(result.isError).toBe(false);
    expect(seen.length).toBeGreaterThan(FILES / 2);
  });

  it('stops a cancelled apply_patch before it writes, leaving every file as it was', async () => {
    const files = manyFiles();
    const dir = folder(files);
    const { client, ws } = await connect(dir, null);
    const stop = new AbortController();
    const call = client.callTool({ name: 'apply_patch', arguments: { patch: bigPatch() } }, CallToolResultSchema, {
      signal: stop.signal,
      onprogress: (p) => {
        if (p.progress >= 2) stop.abort('the person changed their mind');
      },
    });
    await expect(call).rejects.toThrow();
    // A later call on the same files queues behind the cancelled one, so the check sees its end.
    expect(await structured(client, 'read_file', { path: 'f/099.txt' })).toMatchObject({ total_lines: 400 });
    await new Promise((r) => setTimeout(r, 50));
    for (const [name, text] of Object.entries(files)) expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
    expect(ws.changes.list()).toHaveLength(0);
  });
});

describe('logging', () => {
  it('sends start-up warnings to a session that connects later, and honours logging/setLevel', async () => {
    const log = new McpLogHub();
    log.atStart({ level: 'warning', logger: 'manifests', data: 'the tool broken was not loaded: no manifest.json' });
    const dir = folder({ 'a.txt': 'a\n' });
    const ws = openNodeWorkspace(dir, { snapshots: false });
    const server = createMcpServer(ws, ws.toolset, { log });
    const client = new Client({ name: 'log-test', version: '1.0.0' });
    const messages: Row[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);
    closers.push(async () => {
      await client.close();
      await ws.close();
    });
    await client.setLoggingLevel('error');
    log.emit({ level: 'warning', logger: 'tasks', data: 'filtered out' });
    log.emit({ level: 'error', logger: 'snapshots', data: 'a snapshot failed' });
    await client.ping();
    expect(messages).toEqual([
      { level: 'warning', logger: 'manifests', data: 'the tool broken was not loaded: no manifest.json' },
      { level: 'error', logger: 'snapshots', data: 'a snapshot failed' },
    ]);
  });
});
