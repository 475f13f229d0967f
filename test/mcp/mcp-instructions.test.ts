import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, openToolsetWorkspace } from '../../src/node/index.js';
import { toolset } from '../../src/toolsets/index.js';
import { buildCli } from '../cli/built-cli.js';
import { httpChild, stdioChild, type McpChild } from './cli-child.js';
import { scratch } from './scratch.js';

// The guidance file_manager keeps out of its tool description, as the model must read it.
const GUIDANCE = toolset('file_manager').instructions;
const { folder, closers } = scratch('sandpit-mcp-instructions-');
beforeAll(async () => {
  await buildCli();
});
const children: McpChild[] = [];
afterAll(async () => {
  for (const c of children) await c.close();
});

const withRoots = (dir: string) => (client: Client) => {
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(dir).href }] }));
};

it('has guidance to send, which no tool description carries', () => {
  expect(GUIDANCE.length).toBeGreaterThan(1024);
  expect(toolset('canonical').instructions).toBe('');
});

it('the server a library builds sends the toolset guidance in its initialize answer', async () => {
  const { ws, set } = openToolsetWorkspace(folder({}), 'file_manager', { snapshots: false });
  const client = new Client({ name: 'instructions-memory', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(ws, set).connect(a);
  await client.connect(b);
  closers.push(async () => {
    await client.close();
    await ws.close();
  });
  expect(client.getInstructions()).toBe(GUIDANCE);
});

describe.each([
  ['stdio', (args: string[]) => Promise.resolve(stdioChild(args))],
  ['HTTP', httpChild],
] as const)('sandpit mcp over %s', (_name, start) => {
  it("sends file_manager's guidance in the early answer and in the loaded server's, following the client's roots", async () => {
    const dir = folder({ 'a.txt': 'a\n' });
    const child = await start(['--toolset', 'file_manager']);
    children.push(child);
    const first = await child.connect({ capabilities: { roots: {} } }, withRoots(dir));
    expect(first.getInstructions()).toBe(GUIDANCE);
    // Once the server has loaded, the SDK server answers a new client itself (over stdio, a new child answers early again).
    expect((await first.listTools()).tools.map((t) => t.name)).toEqual(['file_manager']);
    const later = await child.connect({ capabilities: { roots: {} } }, withRoots(dir));
    expect(later.getInstructions()).toBe(GUIDANCE);
  });

  it('sends none for canonical, before and after loading', async () => {
    const child = await start(['--root', folder({ 'a.txt': 'a\n' })]);
    children.push(child);
    const first = await child.connect();
    expect(first.getInstructions()).toBeUndefined();
    await first.listTools();
    expect((await child.connect()).getInstructions()).toBeUndefined();
  });
});
