import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, openNodeWorkspace } from '../../src/node/index.js';
import { toCallResult } from '../../src/node/mcp/content.js';
import { earlyTools } from '../../src/node/mcp/early-tools.js';
import { answerInitializeEarly, EARLY_IDLE_MS } from '../../src/node/mcp/fast-start.js';
import { serveStdio } from '../../src/node/mcp/server.js';
import { buildCli, cliPath } from '../cli/built-cli.js';
import { scratch } from './scratch.js';

const { folder, closers } = scratch('sandpit-mcp-early-');
beforeAll(async () => {
  await buildCli();
});

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const DISCOVER = {
  jsonrpc: '2.0',
  id: 'probe',
  method: 'server/discover',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
};

/** A line-JSON conversation over two streams: send, and wait for the answer to an id. */
function talk(write: (line: string) => void, read: PassThrough | NodeJS.ReadableStream) {
  const seen: Array<Record<string, any>> = [];
  let buffer = '';
  read.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let at: number;
    while ((at = buffer.indexOf('\n')) !== -1) {
      seen.push(JSON.parse(buffer.slice(0, at)));
      buffer = buffer.slice(at + 1);
    }
  });
  return {
    seen,
    send: (message: unknown) => write(`${JSON.stringify(message)}\n`),
    answer: async (id: unknown) => {
      await expect.poll(() => seen.find((m) => m.id === id && !('method' in m)), { timeout: 60_000 }).toBeDefined();
      return seen.find((m) => m.id === id && !('method' in m))!;
    },
  };
}

describe('the early stdio, before the SDK server is loaded', () => {
  it('answers tools/list and tools/call as the server does, holds the rest, and hands it over', async () => {
    const ws = openNodeWorkspace(folder({ 'a.txt': 'alpha\n' }), { snapshots: false });
    closers.push(() => ws.close());
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const early = answerInitializeEarly(stdin, stdout, '', { toolsComing: true });
    const c = talk((l) => stdin.write(l), stdout);
    let wanted = false;
    void early.serverWanted.then(() => {
      wanted = true;
    });
    c.send(INIT);
    c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    c.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    // the workspace arrives after the request: the answer waits for it, not for a server
    early.serveTools(earlyTools({ ws, set: ws.toolset }, () => async () => false));
    expect((await c.answer(2)).result).toEqual({ tools: ws.toolset.toMcp() });
    c.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'read_file', arguments: { path: 'a.txt' } },
    });
    const called = await c.answer(3);
    const direct = toCallResult(await ws.call('read_file', { path: 'a.txt' }), ws.toolset.present);
    expect(called.result).toEqual(JSON.parse(JSON.stringify(direct)));
    expect(called.result.structuredContent.content).toBe('alpha\n');
    c.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    expect((await c.answer(4)).result).toEqual({});
    c.send(DISCOVER);
    expect((await c.answer('probe')).error).toMatchObject({
      code: -32022,
      data: { supported: SUPPORTED_PROTOCOL_VERSIONS },
    });

    // only the server answers resources/list: it is held, and the server is now wanted
    c.send({ jsonrpc: '2.0', id: 5, method: 'resources/list' });
    await expect.poll(() => wanted).toBe(true);
    expect(c.seen.find((m) => m.id === 5)).toBeUndefined();

    const server = createMcpServer(ws, ws.toolset);
    closers.push(() => server.close());
    const serving = serveStdio(server, early);
    const resources = await c.answer(5);
    expect(resources.result.resources.map((r: { name: string }) => r.name)).toContain('a.txt');
    // the server's own answer to initialize is dropped: the client got one
    expect(c.seen.filter((m) => m.id === 1)).toHaveLength(1);
    c.send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    expect((await c.answer(6)).result).toEqual((await c.answer(2)).result);
    c.send(DISCOVER);
    await expect.poll(() => c.seen.filter((m) => m.id === 'probe').length).toBe(2);
    expect(c.seen.filter((m) => m.id === 'probe')[1]!.error).toMatchObject({
      code: -32022,
      data: { supported: SUPPORTED_PROTOCOL_VERSIONS },
    });
    stdin.end();
    await serving;
  });
});

describe('when the early stdio wants the server', () => {
  it('never while a call runs, and once its answers have gone idle', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const early = answerInitializeEarly(stdin, stdout, '', { toolsComing: true });
    const c = talk((l) => stdin.write(l), stdout);
    let wanted = false;
    void early.serverWanted.then(() => {
      wanted = true;
    });
    let finish!: (result: Record<string, unknown>) => void;
    early.serveTools({
      list: () => ({ tools: [] }),
      call: () =>
        new Promise((resolve) => {
          finish = resolve;
        }),
    });
    c.send(INIT);
    await c.answer(1);
    // the call follows the listing at once, as a client's first call does
    c.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    c.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_file', arguments: {} } });
    c.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    await c.answer(4);
    // The behaviour under test is the idle time: well past it, the running call still keeps the SDK from loading.
    await new Promise((resolve) => setTimeout(resolve, EARLY_IDLE_MS * 3));
    expect(wanted).toBe(false);
    finish({ content: [{ type: 'text', text: 'done' }] });
    expect((await c.answer(3)).result).toEqual({ content: [{ type: 'text', text: 'done' }] });
    await expect.poll(() => wanted).toBe(true);
    stdin.end();
  });
});

describe('sandpit mcp and the 2026-07-28 probe', () => {
  it('answers server/discover sent first, then initialize and a call on the same process', async () => {
    const dir = folder({ 'b.txt': 'beta\n' });
    const child = spawn(process.execPath, [cliPath, 'mcp', '--root', dir], { stdio: ['pipe', 'pipe', 'ignore'] });
    closers.push(async () => child.kill());
    const c = talk((l) => child.stdin.write(l), child.stdout);
    c.send(DISCOVER);
    const probe = await c.answer('probe');
    expect(probe.error).toMatchObject({
      code: -32022,
      data: { supported: SUPPORTED_PROTOCOL_VERSIONS, requested: '2026-07-28' },
    });
    c.send(INIT);
    expect((await c.answer(1)).result.protocolVersion).toBe('2025-06-18');
    c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    c.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'read_file', arguments: { path: 'b.txt' } },
    });
    expect((await c.answer(2)).result.structuredContent.content).toBe('beta\n');
  });

  it("connects the official client's negotiating connect and calls a tool", async () => {
    const dir = folder({ 'c.txt': 'gamma\n' });
    const client = new ClientV2({ name: 'sandpit-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StdioV2({ command: process.execPath, args: [cliPath, 'mcp', '--root', dir], stderr: 'ignore' }),
    );
    closers.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe('sandpit');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('read_file');
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'c.txt' } });
    expect((result.structuredContent as { content: string }).content).toBe('gamma\n');
  });
});
