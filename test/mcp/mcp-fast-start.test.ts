import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LATEST_PROTOCOL_VERSION,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSIONS } from '../../src/node/mcp/capabilities.js';
import { answerInitializeEarly } from '../../src/node/mcp/fast-start.js';
import { createMcpServer, openNodeWorkspace } from '../../src/node/index.js';
import { serveStdio } from '../../src/node/mcp/server.js';
import { buildCli, cliPath } from '../cli/built-cli.js';
import { scratch } from './scratch.js';

const { folder, closers } = scratch('sandpit-mcp-start-');
beforeAll(async () => {
  await buildCli();
});

const lines = (out: string) =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('the early initialize answer', () => {
  it('negotiates exactly the versions the SDK server does', () => {
    expect(PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('answers initialize once, before the server is connected, and hands the rest to the server', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    const early = answerInitializeEarly(stdin, stdout);
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(lines(out)).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: expect.objectContaining({
          protocolVersion: '2025-06-18',
          serverInfo: expect.objectContaining({ name: 'sandpit' }),
        }),
      },
    ]);

    const ws = openNodeWorkspace(folder({ 'a.txt': 'a\n' }), { snapshots: false });
    const server = createMcpServer(ws, ws.toolset);
    closers.push(async () => {
      await server.close();
      await ws.close();
    });
    const serving = serveStdio(server, early);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await expect.poll(() => lines(out).length).toBe(2);
    const [, list] = lines(out);
    expect(list!.id).toBe(2);
    expect(list!.result.tools.map((t: { name: string }) => t.name)).toContain('read_file');
    // The server saw the client's capabilities from the initialize it never answered itself.
    expect((server as unknown as { getClientCapabilities(): unknown }).getClientCapabilities()).toHaveProperty(
      'elicitation',
    );
    stdin.end();
    await serving;
  });
});

describe('sandpit mcp without --root (a real child over stdio)', () => {
  it("serves the client's first file:// root", async () => {
    const dir = folder({ 'hello.txt': 'from the root\n' });
    const client = new Client(
      { name: 'roots-cli', version: '1.0.0' },
      { capabilities: { roots: { listChanged: true } } },
    );
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(dir).href, name: 'work' }],
    }));
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp'], stderr: 'pipe' }),
    );
    closers.push(() => client.close());
    const read = (await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } })) as Record<
      string,
      any
    >;
    expect(read.structuredContent, JSON.stringify(read.structuredContent)).toMatchObject({
      content: 'from the root\n',
    });
  });

  it('tells the session about a broken manifest as a log message', async () => {
    const dir = folder({ 'a.txt': 'a\n' });
    const tools = folder({});
    mkdirSync(join(tools, 'broken'));
    writeFileSync(join(tools, 'broken', 'broken.json'), '{ not json');
    const client = new Client({ name: 'log-cli', version: '1.0.0' });
    const messages: Array<Record<string, unknown>> = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', '--root', dir, '--tools', tools],
        stderr: 'pipe',
      }),
    );
    closers.push(() => client.close());
    await client.listTools();
    await expect.poll(() => messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatchObject({ level: 'warning', logger: 'manifests' });
    expect(String(messages[0]!.data)).toMatch(/broken/);
    expect(String(messages[0]!.data)).not.toContain(tools);
  });
});
