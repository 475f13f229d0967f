import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  createMcpServer,
  createRootsMcpServer,
  openNodeWorkspace,
  serveMcpHttpRoots,
  WorkspacePool,
  type McpServerHandle,
} from '../../src/node/index.js';
import { scratch } from './scratch.js';

type Row = Record<string, any>;
const { folder, closers } = scratch('sandpit-mcp-roots-');

async function link(server: McpServerHandle, client: Client): Promise<void> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  closers.push(() => client.close());
}

function pool(): WorkspacePool {
  const p = new WorkspacePool(async (dir) => {
    const ws = openNodeWorkspace(dir, { snapshots: false });
    return { ws, set: ws.toolset };
  });
  closers.push(() => p.closeAll());
  return p;
}

const text = async (client: Client, name: string, args: Row): Promise<Row> =>
  ((await client.callTool({ name, arguments: args })) as Row).structuredContent;

describe('roots (a server started without --root)', () => {
  it('serves the first file:// root, follows roots/list_changed, and never shows the host path', async () => {
    const first = folder({ 'which.txt': 'first\n' });
    const second = folder({ 'which.txt': 'second\n' });
    let roots = [
      { uri: pathToFileURL(first).href, name: 'one' },
      { uri: pathToFileURL(second).href, name: 'also' },
    ];
    const client = new Client(
      { name: 'roots-test', version: '1.0.0' },
      { capabilities: { roots: { listChanged: true } } },
    );
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
    await link(createRootsMcpServer(pool()), client);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('read_file');
    expect(await text(client, 'read_file', { path: 'which.txt' })).toMatchObject({ content: 'first\n' });
    roots = [{ uri: pathToFileURL(second).href, name: 'two' }];
    await client.sendRootsListChanged();
    await client.ping();
    const after = (await client.callTool({ name: 'read_file', arguments: { path: 'which.txt' } })) as Row;
    expect(after.structuredContent).toMatchObject({ content: 'second\n' });
    expect(JSON.stringify(after)).not.toContain(second);
  });

  it('serves each HTTP session its own first root, one workspace per folder', async () => {
    const one = folder({ 'which.txt': 'one\n' });
    const two = folder({ 'which.txt': 'two\n' });
    const shared = pool();
    const http = await serveMcpHttpRoots(shared, { port: 0 });
    closers.push(() => http.close());
    const reads: string[] = [];
    for (const dir of [one, two, one]) {
      const client = new Client({ name: 'roots-http', version: '1.0.0' }, { capabilities: { roots: {} } });
      client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(dir).href }] }));
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      closers.push(() => client.close());
      reads.push((await text(client, 'read_file', { path: 'which.txt' })).content);
    }
    expect(reads).toEqual(['one\n', 'two\n', 'one\n']);
    expect(await shared.get(one)).toBe(await shared.get(one));
  });

  it('gives one clear error to a client with no roots', async () => {
    const client = new Client({ name: 'rootless', version: '1.0.0' });
    await link(createRootsMcpServer(pool()), client);
    const result = (await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })) as Row;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'NOT_FOUND' });
    expect(result.structuredContent.message).toMatch(/without --root.*no roots/);
    expect(result.structuredContent.hint).toMatch(/--root DIR/);
    await expect(client.listTools()).rejects.toThrow(/no roots/);
  });

  it('ignores the client roots when the server has its own root', async () => {
    const mine = folder({ 'which.txt': 'mine\n' });
    const theirs = folder({ 'which.txt': 'theirs\n' });
    const ws = openNodeWorkspace(mine, { snapshots: false });
    closers.push(() => ws.close());
    const client = new Client({ name: 'roots-ignored', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(theirs).href }] }));
    await link(createMcpServer(ws, ws.toolset), client);
    expect(await text(client, 'read_file', { path: 'which.txt' })).toMatchObject({ content: 'mine\n' });
  });
});

describe('resources', () => {
  async function served(files: Record<string, string | Uint8Array>, snapshots = false) {
    const dir = folder(files);
    const ws = openNodeWorkspace(dir, snapshots ? {} : { snapshots: false });
    closers.push(() => ws.close());
    const client = new Client({ name: 'resources-test', version: '1.0.0' });
    await link(createMcpServer(ws, ws.toolset), client);
    return { dir, ws, client };
  }

  it('lists files a page at a time, leaving hidden and ignored files out', async () => {
    const files: Record<string, string> = {
      '.gitignore': 'ignored.txt\n',
      'ignored.txt': 'no\n',
      '.hidden/secret.txt': 'no\n',
      'node_modules/m/i.js': 'no\n',
    };
    for (let i = 0; i < 250; i++) files[`src/f${String(i).padStart(3, '0')}.ts`] = `export const n = ${i};\n`;
    const { client } = await served(files);
    const first = await client.listResources();
    expect(first.resources).toHaveLength(200);
    expect(first.nextCursor).toBeDefined();
    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(second.nextCursor).toBeUndefined();
    const names = [...first.resources, ...second.resources].map((r) => r.name);
    expect(names).toHaveLength(250);
    expect(new Set(names).size).toBe(250);
    expect(names.every((n) => n.startsWith('src/'))).toBe(true);
    expect(first.resources[0]).toMatchObject({ uri: 'sandpit://workspace/src/f000.ts', mimeType: 'text/x-typescript' });
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates[0]!.uriTemplate).toBe('sandpit://workspace/{+path}');
  });

  it('reads text with its mimeType and binary as a blob, confined like the tools', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    const { dir, client } = await served({ 'docs/read me.md': '# hi\n', 'logo.png': png });
    symlinkSync('/etc/hostname', join(dir, 'escape.txt'));
    const md = await client.readResource({ uri: 'sandpit://workspace/docs/read%20me.md' });
    expect(md.contents[0]).toEqual({
      uri: 'sandpit://workspace/docs/read%20me.md',
      mimeType: 'text/markdown',
      text: '# hi\n',
    });
    const image = (await client.readResource({ uri: 'sandpit://workspace/logo.png' })).contents[0] as Row;
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.blob, 'base64')).toEqual(Buffer.from(png));
    for (const uri of [
      'sandpit://workspace/../outside.txt',
      'sandpit://workspace/escape.txt',
      'sandpit://workspace/.sandpit/git/HEAD',
      'file:///etc/passwd',
    ]) {
      const error = await client.readResource({ uri }).then(
        () => null,
        (e: Error) => e,
      );
      expect(error, uri).not.toBeNull();
      expect(error!.message).not.toContain(dir);
    }
    await expect(client.readResource({ uri: 'sandpit://workspace/missing.txt' })).rejects.toThrow(/does not exist/);
  });

  it('announces an edit of a subscribed file, and not of others', async () => {
    const { client } = await served({ 'watched.txt': 'a\n', 'other.txt': 'b\n' });
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri: 'sandpit://workspace/watched.txt' });
    await text(client, 'edit_file', { path: 'other.txt', old_text: 'b', new_text: 'c' });
    await text(client, 'edit_file', { path: 'watched.txt', old_text: 'a', new_text: 'z' });
    await client.ping();
    expect(updated).toEqual(['sandpit://workspace/watched.txt']);
    await client.unsubscribeResource({ uri: 'sandpit://workspace/watched.txt' });
    await text(client, 'edit_file', { path: 'watched.txt', old_text: 'z', new_text: 'y' });
    await client.ping();
    expect(updated).toHaveLength(1);
  });

  it('announces a file subscribed under another spelling of its URI, under the spelling the client used', async () => {
    const { client } = await served({ 'notes.txt': 'a\n', 'sub/deep.txt': 'b\n', 'plain.txt': 'c\n' });
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    const spellings = ['sandpit://workspace/notes%2Etxt', 'sandpit://workspace/sub/./deep%2etxt'];
    for (const uri of spellings) expect(await client.subscribeResource({ uri })).toEqual({});
    await text(client, 'edit_file', { path: 'plain.txt', old_text: 'c', new_text: 'C' });
    await text(client, 'edit_file', { path: 'notes.txt', old_text: 'a', new_text: 'z' });
    await text(client, 'edit_file', { path: 'sub/deep.txt', old_text: 'b', new_text: 'y' });
    await client.ping();
    expect(updated).toEqual(spellings);
    // unsubscribing under any spelling ends the subscription
    await client.unsubscribeResource({ uri: 'sandpit://workspace/notes.txt' });
    await text(client, 'edit_file', { path: 'notes.txt', old_text: 'z', new_text: 'x' });
    await client.ping();
    expect(updated).toEqual(spellings);
  });

  it('announces a subscribed file a rescan found changed behind the tools', async () => {
    const { dir, ws, client } = await served({ 'watched.txt': 'a\n' }, true);
    await ws.rescan();
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri: 'sandpit://workspace/watched.txt' });
    writeFileSync(join(dir, 'watched.txt'), 'changed by a process\n');
    await ws.rescan();
    await client.ping();
    expect(updated).toEqual(['sandpit://workspace/watched.txt']);
  });
});
