import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolsetWorkspace, serveMcpHttp, type McpHttpServer } from '../../src/node/index.js';
import type { Workspace } from '../../src/index.js';
import { PNG, writeToolsFolder } from '../manifests/fixtures.js';
import { sharedSchemaValidator } from './shared-validator.js';

type Row = Record<string, any>;
const dirs: string[] = [];
const closers: Array<() => Promise<unknown>> = [];

function folder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-mcp-http-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function serve(
  dir: string,
  options: { toolsDir?: string; authToken?: string; idleMs?: number; snapshots?: false } = {},
): Promise<{ server: McpHttpServer; ws: Workspace }> {
  const { ws, set } = openToolsetWorkspace(dir, 'canonical', {
    ...(options.toolsDir ? { toolsDir: options.toolsDir } : {}),
    ...(options.snapshots === false ? { snapshots: false } : {}),
  });
  const server = await serveMcpHttp(ws, set, {
    port: 0,
    ...(options.authToken ? { authToken: options.authToken } : {}),
    ...(options.idleMs ? { idleMs: options.idleMs } : {}),
  });
  closers.push(async () => {
    await server.close();
    await ws.close();
  });
  return { server, ws };
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client(
    { name: 'sandpit-http-test', version: '1.0.0' },
    { jsonSchemaValidator: sharedSchemaValidator },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  closers.push(() => client.close().catch(() => {}));
  return client;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const post = (url: string, headers: Record<string, string> = {}, body: unknown = INITIALIZE) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

// fetch may not set Host, so the rebinding test speaks HTTP itself
function statusWithHost(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(INITIALIZE));
  });
}

let toolsDir: string;
beforeAll(async () => {
  toolsDir = join(folder(), 'tools');
  await writeToolsFolder(toolsDir);
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('sandpit mcp over Streamable HTTP (the SDK client)', () => {
  it('lists titles and output schemas, and answers with structuredContent for results and errors', async () => {
    const { server } = await serve(folder({ 'a.txt': 'alpha\nbeta\n' }));
    const client = await connect(server.url);
    const { tools } = await client.listTools();
    const read = tools.find((t) => t.name === 'read_file')!;
    expect(read).toMatchObject({
      title: 'Read file',
      annotations: { readOnlyHint: true },
      outputSchema: { type: 'object' },
    });
    expect(tools.find((t) => t.name === 'snapshot')!.annotations).toMatchObject({ readOnlyHint: false });
    expect(tools.find((t) => t.name === 'task_kill')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    const ok = (await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })) as Row;
    expect(ok.structuredContent).toMatchObject({ path: 'a.txt', content: 'alpha\nbeta\n', total_lines: 2 });
    expect(JSON.parse(ok.content[0].text)).toMatchObject({ ok: true, result: { content: 'alpha\nbeta\n' } });
    const failed = (await client.callTool({ name: 'read_file', arguments: { path: 'missing.txt' } })) as Row;
    expect(failed).toMatchObject({ isError: true, structuredContent: { code: 'NOT_FOUND' } });
    expect(server.sessionCount()).toBe(1);
  });

  it("sends a manifest tool's image as an image block, not as base64 inside the JSON text", async () => {
    const { server } = await serve(folder(), { toolsDir, snapshots: false });
    const client = await connect(server.url);
    const r = (await client.callTool({ name: 'chart', arguments: {} })) as Row;
    const images = r.content.filter((c: Row) => c.type === 'image');
    expect(images).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') }]);
    expect(r.content[0].text).not.toContain(PNG.toString('base64'));
    expect(r.structuredContent.media).toEqual([
      { name: 'chart.png', mime: 'image/png', size_bytes: PNG.length, sent_as: 'image' },
    ]);
  });

  it('refuses a foreign Host or Origin with 403 and a missing or wrong bearer token with 401', async () => {
    const { server } = await serve(folder(), { authToken: 's3cret-token', snapshots: false });
    const auth = { Authorization: 'Bearer s3cret-token' };
    expect(await statusWithHost(server.url, { ...auth, Host: 'evil.example' })).toBe(403);
    expect(await statusWithHost(server.url, { ...auth, Host: `evil.example:${server.port}` })).toBe(403);
    expect(await statusWithHost(server.url, { ...auth, Host: `localhost:${server.port}` })).toBe(200);
    expect((await post(server.url, { ...auth, Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(server.url)).status).toBe(401);
    expect((await post(server.url, { Authorization: 'Bearer wrong-token!' })).status).toBe(401);
    expect((await post(server.url, { ...auth, Origin: `http://localhost:${server.port}` })).status).toBe(200);
    const client = await connect(server.url, auth);
    expect((await client.callTool({ name: 'exists', arguments: { path: '.' } })).structuredContent).toMatchObject({
      exists: true,
    });
  });

  it("ends a session on DELETE, and closes a killed client's session once it has been idle", async () => {
    // DELETE on a server whose idle limit is far off: under load, connecting took longer than a short
    // limit, and the sweep ended the session before the DELETE arrived (404, rightly).
    const { server } = await serve(folder(), { snapshots: false });
    const client = await connect(server.url);
    const transport = client.transport as StreamableHTTPClientTransport;
    const id = transport.sessionId!;
    await transport.terminateSession();
    expect(server.sessionCount()).toBe(0);
    expect(
      (await post(server.url, { 'Mcp-Session-Id': id }, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status,
    ).toBe(404);
    // a client that initializes and then dies never sends DELETE: its session stays until idle
    const raw = await post(server.url);
    expect(raw.status).toBe(200);
    await raw.body?.cancel();
    expect(server.sessionCount()).toBe(1);
    // the idle limit is the behaviour under test here: a server that ends sessions idle for 300 ms
    const { server: sweeping } = await serve(folder(), { idleMs: 300, snapshots: false });
    const dead = await post(sweeping.url);
    expect(dead.status).toBe(200);
    const deadId = dead.headers.get('mcp-session-id');
    expect(deadId).toBeTruthy();
    await dead.body?.cancel();
    // ended by the sweep once idle (the wait is generous: a busy machine runs the sweep late)
    await expect.poll(() => sweeping.sessionCount(), { timeout: 60_000 }).toBe(0);
    expect(
      (await post(sweeping.url, { 'Mcp-Session-Id': deadId! }, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status,
    ).toBe(404);
    // and the server is still there for the next client
    const next = await connect(sweeping.url);
    expect((await next.listTools()).tools.length).toBeGreaterThan(10);
  });

  it('8 sessions x 100 mixed calls at once: every answer right and no update lost', async () => {
    const dir = folder({ 'shared.txt': '' });
    const { server } = await serve(dir, { snapshots: false });
    const clients = await Promise.all(Array.from({ length: 8 }, () => connect(server.url)));
    await Promise.all(
      clients.map(async (client, i) => {
        for (let n = 0; n < 25; n++) {
          const mine = `s${i}.txt`;
          const wrote = (await client.callTool({
            name: 'write_file',
            arguments: { path: mine, content: `${i}:${n}\n` },
          })) as Row;
          expect(wrote.structuredContent).toMatchObject({ path: mine });
          const read = (await client.callTool({ name: 'read_file', arguments: { path: mine } })) as Row;
          expect(read.structuredContent.content).toBe(`${i}:${n}\n`);
          const edited = (await client.callTool({
            name: 'edit_file',
            arguments: { path: mine, old_text: `${i}:${n}`, new_text: `${i}-${n}` },
          })) as Row;
          expect(edited.structuredContent).toMatchObject({ replacements: 1 });
          const appended = (await client.callTool({
            name: 'append_file',
            arguments: { path: 'shared.txt', content: `${i}-${n}\n` },
          })) as Row;
          expect(appended.isError).toBe(false);
        }
      }),
    );
    const lines = readFileSync(join(dir, 'shared.txt'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(200);
    expect(new Set(lines).size).toBe(200);
    expect(server.sessionCount()).toBe(8);
  });

  it('resumes a call whose SSE answer was cut off: GET with Last-Event-ID gives the rest and the result', async () => {
    const files: Record<string, string> = {};
    const body = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n') + '\n';
    for (let i = 0; i < 60; i++) files[`f/${i}.txt`] = body;
    const { server } = await serve(folder(files), { snapshots: false });
    const opened = await post(server.url);
    const session = { 'Mcp-Session-Id': opened.headers.get('mcp-session-id')!, 'Mcp-Protocol-Version': '2025-06-18' };
    await opened.text();
    expect((await post(server.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const patch = [
      '*** Begin Patch',
      ...Object.keys(files).flatMap((f) => [`*** Update File: ${f}`, '@@', ' line 99', '-line 100', '+LINE 100']),
      '*** End Patch',
    ].join('\n');
    const cut = new AbortController();
    const first = await fetch(server.url, {
      method: 'POST',
      signal: cut.signal,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...session },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'apply_patch', arguments: { patch }, _meta: { progressToken: 'p1' } },
      }),
    });
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    const before = await readEvents(first, (e) => e.id !== undefined && e.data?.method === 'notifications/progress');
    cut.abort();
    const lastId = before.at(-1)!.id!;
    // The server hears of the cut a moment later; until then the stream is still its (409), and a client retries.
    const resume = () =>
      fetch(server.url, { headers: { Accept: 'text/event-stream', ...session, 'Last-Event-ID': lastId } });
    let resumed = await resume();
    for (let tries = 0; resumed.status === 409 && tries < 40; tries++) {
      await resumed.body?.cancel();
      await new Promise((r) => setTimeout(r, 25));
      resumed = await resume();
    }
    expect(resumed.status).toBe(200);
    const after = await readEvents(resumed, (e) => e.data?.id === 2);
    resumed.body?.cancel().catch(() => {});
    const result = after.at(-1)!.data!;
    expect(result.result).toMatchObject({ isError: false, structuredContent: { files: expect.any(Array) } });
    const progress = (events: Sse[]) =>
      events.filter((e) => e.data?.method === 'notifications/progress').map((e) => e.data!.params.progress as number);
    expect(progress(after).length).toBeGreaterThan(0);
    expect(Math.min(...progress(after))).toBeGreaterThan(Math.max(...progress(before)));
    expect(after.map((e) => e.id)).not.toContain(lastId);
  });
});

type Sse = { id?: string; data?: Row };

/** Read SSE events from a response until one satisfies `last` (that one included). */
async function readEvents(response: Response, last: (event: Sse) => boolean): Promise<Sse[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Sse[] = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended after ${events.length} events`);
    buffer += value;
    let at: number;
    while ((at = buffer.indexOf('\n\n')) !== -1) {
      const event: Sse = {};
      for (const line of buffer.slice(0, at).split('\n')) {
        if (line.startsWith('id:')) event.id = line.slice(3).trim();
        if (line.startsWith('data:') && line.slice(5).trim()) event.data = JSON.parse(line.slice(5)) as Row;
      }
      buffer = buffer.slice(at + 2);
      events.push(event);
      if (last(event)) {
        reader.releaseLock();
        return events;
      }
    }
  }
}
