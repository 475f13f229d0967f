import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { McpLogHub, openNodeWorkspace, serveMcpHttp } from '../../src/node/index.js';
import { listenEarly } from '../../src/node/mcp/http-early.js';
import { scratch } from './scratch.js';

type Row = Record<string, any>;
const tmp = scratch('sandpit-mcp-early-');
const { closers } = tmp;
const folder = () => tmp.folder({ 'a.txt': 'alpha\n' });

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(
  url: string,
  headers: Record<string, string>,
  body: unknown = INITIALIZE,
): Promise<{ status: number; text: string; headers: Row }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

describe('the early HTTP endpoint', () => {
  it('answers initialize before any server exists, holds the rest, and hands the session to the server under the same id', async () => {
    const early = await listenEarly({ host: '127.0.0.1', port: 0 }, {});
    closers.push(() => early.close());
    const client = new Client({ name: 'early-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (r) => {
      asked.push(r.params.message);
      return { action: 'accept' };
    });
    const transport = new StreamableHTTPClientTransport(new URL(early.url));
    await client.connect(transport);
    closers.push(() => client.close());
    // answered by the early endpoint alone: nothing has been served yet
    expect(client.getServerVersion()).toMatchObject({ name: 'sandpit' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {}, resources: { subscribe: true } });
    expect(early.sessions.has(transport.sessionId!)).toBe(true);
    let listed = false;
    const listing = client.listTools().then((r) => {
      listed = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(listed).toBe(false);

    const dir = folder();
    const ws = openNodeWorkspace(dir, { snapshots: false });
    const server = await serveMcpHttp(ws, ws.toolset, { port: 0 }, early);
    closers.push(async () => {
      await server.close();
      await ws.close();
    });
    expect(server.url).toBe(early.url);
    expect((await listing).tools.map((t) => t.name)).toContain('read_file');
    expect(server.sessionCount()).toBe(1);
    const edit = (await client.callTool({
      name: 'edit_file',
      arguments: { path: 'a.txt', old_text: 'alpha', new_text: 'beta' },
    })) as Row;
    expect(edit.isError).toBe(false);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('beta\n');
    // the replayed initialize carried the client's capabilities to the SDK session: it asks by elicitation
    const deleted = (await client.callTool({ name: 'delete_path', arguments: { path: 'a.txt' } })) as Row;
    expect(deleted.structuredContent).toMatchObject({ deleted: true });
    expect(asked).toHaveLength(1);
    expect(early.sessions.size).toBe(0);
  });

  it('refuses a wrong Host or a missing token before anything has loaded', async () => {
    const early = await listenEarly({ host: '127.0.0.1', port: 0 }, { authToken: 'early-secret-7' });
    closers.push(() => early.close());
    expect((await post(early.url, { Host: 'evil.example:80', Authorization: 'Bearer early-secret-7' })).status).toBe(
      403,
    );
    expect((await post(early.url, {})).status).toBe(401);
    expect((await post(early.url, { Authorization: 'Bearer wrong-secret-7' })).status).toBe(401);
    expect((await post(early.url.replace('/mcp', '/other'), { Authorization: 'Bearer early-secret-7' })).status).toBe(
      404,
    );
    const ok = await post(early.url, { Authorization: 'Bearer early-secret-7' });
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(ok.text)).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'sandpit' } },
    });
    expect(early.sessions.size).toBe(1);
  });
});

describe('the early endpoint refuses what the SDK refuses, the same way', () => {
  const refused: Array<[string, Record<string, string>, unknown]> = [
    ['an Accept without text/event-stream', { Accept: 'application/json' }, INITIALIZE],
    ['an Accept without application/json', { Accept: 'text/event-stream' }, INITIALIZE],
    ['no Accept', { Accept: '' }, INITIALIZE],
    ['a Content-Type that is not JSON', { 'Content-Type': 'text/plain' }, INITIALIZE],
    ['JSON only as a parameter', { 'Content-Type': 'text/plain; a=application/json' }, INITIALIZE],
    ['a body that is not JSON', {}, '{"jsonrpc": "2.0", "id": 1, "method": "initialize", '],
    ['a bad Accept and a body that is not JSON', { Accept: 'application/json' }, 'not json'],
  ];
  it.each(refused)('%s', async (_what, headers, body) => {
    const early = await listenEarly({ host: '127.0.0.1', port: 0 }, {});
    closers.push(() => early.close());
    const before = await post(early.url, headers, body);
    expect(early.sessions.size).toBe(0);
    const ws = openNodeWorkspace(folder(), { snapshots: false });
    const server = await serveMcpHttp(ws, ws.toolset, { port: 0 });
    closers.push(async () => {
      await server.close();
      await ws.close();
    });
    const loaded = await post(server.url, headers, body);
    expect(loaded.status).toBeGreaterThanOrEqual(400);
    expect({ status: before.status, body: JSON.parse(before.text) }).toEqual({
      status: loaded.status,
      body: JSON.parse(loaded.text),
    });
    expect(server.sessionCount()).toBe(0);
  });

  it('answers a body that is not JSON with -32700 (parse error), before and after loading', async () => {
    const early = await listenEarly({ host: '127.0.0.1', port: 0 }, {});
    closers.push(() => early.close());
    const answer = await post(early.url, {}, 'not json');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: Invalid JSON' },
    });
    const ws = openNodeWorkspace(folder(), { snapshots: false });
    const server = await serveMcpHttp(ws, ws.toolset, { port: 0 }, early);
    closers.push(async () => {
      await server.close();
      await ws.close();
    });
    const opened = await post(early.url, {});
    const id = opened.headers['mcp-session-id'] as string;
    const inSession = await post(early.url, { 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' }, '{');
    expect(inSession.status).toBe(400);
    expect(JSON.parse(inSession.text)).toMatchObject({ error: { code: -32700 } });
  });
});

describe('sessions answered early count toward the session cap', () => {
  it('keeps at most the cap before loading, and ends those no request took up first once loaded', async () => {
    const early = await listenEarly({ host: '127.0.0.1', port: 0 }, {}, '', 4);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await post(early.url, {})).headers['mcp-session-id'] as string);
    expect([...early.sessions.keys()]).toEqual(ids.slice(2));
    const ws = openNodeWorkspace(folder(), { snapshots: false });
    const server = await serveMcpHttp(ws, ws.toolset, { port: 0, maxSessions: 4 }, early);
    closers.push(async () => {
      await server.close();
      await ws.close();
    });
    const session = (id: string) => ({ 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' });
    const ping = (id: string) => post(early.url, session(id), { jsonrpc: '2.0', id: 2, method: 'ping' });
    // taking up the newest early session, then two new sessions, push out the two oldest early ones left
    expect((await ping(ids[5]!)).status).toBe(200);
    const fresh = [
      (await post(early.url, {})).headers['mcp-session-id'],
      (await post(early.url, {})).headers['mcp-session-id'],
    ];
    expect(fresh.every((id) => typeof id === 'string')).toBe(true);
    for (const id of ids.slice(0, 4)) {
      const gone = await ping(id);
      expect(gone.status).toBe(404);
      expect(JSON.parse(gone.text)).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    }
    expect((await ping(ids[5]!)).status).toBe(200);
    expect(server.sessionCount()).toBe(3);
  });
});

describe('log messages over Streamable HTTP', () => {
  it("sends the start-up warnings once the session's SSE stream is open, then what happens later", async () => {
    const log = new McpLogHub();
    log.atStart({ level: 'warning', logger: 'manifests', data: 'the tool broken was not loaded' });
    const ws = openNodeWorkspace(folder(), { snapshots: false });
    const server = await serveMcpHttp(ws, ws.toolset, { port: 0, log });
    closers.push(async () => {
      await server.close();
      await ws.close();
    });
    const client = new Client({ name: 'log-http', version: '1.0.0' });
    const messages: Row[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    closers.push(() => client.close());
    // sent before the client's GET stream existed, this warning used to be dropped
    await expect
      .poll(() => messages)
      .toEqual([{ level: 'warning', logger: 'manifests', data: 'the tool broken was not loaded' }]);
    log.emit({ level: 'error', logger: 'snapshots', data: 'a snapshot failed' });
    await expect.poll(() => messages.length).toBe(2);
  });
});
