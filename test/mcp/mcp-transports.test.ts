import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../cli/built-cli.js';
import { PNG, writeToolsFolder } from '../manifests/fixtures.js';
import { httpChild, stdioChild, type McpChild } from './cli-child.js';
import { scratch } from './scratch.js';

// Every client-facing feature of `sandpit mcp`, the built CLI as a real child, over each transport:
// the cowork toolset (changes outside `out` need the person), the manifest fixtures, no --root.
type Row = Record<string, any>;
const { folder } = scratch('sandpit-mcp-transports-');
let toolsDir = '';
const children: McpChild[] = [];
beforeAll(async () => {
  toolsDir = join(folder(), 'tools');
  await writeToolsFolder(toolsDir);
  await buildCli();
});
afterAll(async () => {
  for (const c of children) await c.close();
});

const serverArgs = () => [
  '--toolset',
  'cowork',
  '--artifacts',
  'out',
  '--tools',
  toolsDir,
  '--sandbox',
  'none',
  '--snapshots',
  'off',
];
const START = { stdio: async (args: string[]) => stdioChild(args), HTTP: httpChild };
const call = async (client: Client, name: string, args: Row = {}): Promise<Row> =>
  (await client.callTool({ name, arguments: args })) as Row;
const addFile = (path: string) => ({ patch: `*** Begin Patch\n*** Add File: ${path}\n+written\n*** End Patch` });

/** A client as a person's app is: it names its folder as a root and answers elicitations as `answer` says. */
class Person {
  answer: 'accept' | 'decline' = 'accept';
  asked: string[] = [];
  logs: Row[] = [];
  updated: string[] = [];
  root: string;
  constructor(
    root: string,
    private readonly elicits = true,
  ) {
    this.root = root;
  }
  setup = (client: Client) => {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(this.root).href, name: 'work' }],
    }));
    if (this.elicits)
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        this.asked.push(request.params.message);
        return { action: this.answer };
      });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      this.logs.push(n.params);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      this.updated.push(n.params.uri);
    });
  };
}

describe.each(Object.keys(START) as Array<keyof typeof START>)('sandpit mcp over %s', (transport) => {
  let server: McpChild;
  let client: Client;
  let dir: string;
  let person: Person;
  beforeAll(async () => {
    dir = folder({ 'which.txt': 'first\n', 'keep.txt': 'keep\n', 'watched.txt': 'a\n', 'other.txt': 'b\n' });
    person = new Person(dir);
    server = await START[transport](serverArgs());
    children.push(server);
    client = await server.connect({ capabilities: { roots: { listChanged: true }, elicitation: {} } }, person.setup);
  });

  it('lists and reads the files as resources, and announces an edit of a subscribed one', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(['sandpit://workspace/keep.txt', 'sandpit://workspace/watched.txt']),
    );
    expect((await client.readResource({ uri: 'sandpit://workspace/keep.txt' })).contents[0]).toMatchObject({
      mimeType: 'text/plain',
      text: 'keep\n',
    });
    await client.subscribeResource({ uri: 'sandpit://workspace/watched.txt' });
    for (const [name, was] of [
      ['other.txt', 'b'],
      ['watched.txt', 'a'],
    ] as const) {
      expect((await call(client, 'text_file_read', { path: name })).isError).toBe(false);
      const patch = `*** Begin Patch\n*** Update File: ${name}\n@@\n-${was}\n+z\n*** End Patch`;
      expect((await call(client, 'apply_patch', { patch })).isError).toBe(false);
      expect(readFileSync(join(dir, name), 'utf8')).toBe('z\n');
    }
    // over HTTP the update travels on the session's standalone SSE stream
    await expect.poll(() => person.updated).toEqual(['sandpit://workspace/watched.txt']);
  });

  it('asks the person before a change outside the artifact folder: accept runs it, decline changes nothing', async () => {
    person.asked = [];
    person.answer = 'accept';
    expect((await call(client, 'apply_patch', addFile('notes.txt'))).isError).toBe(false);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('written\n');
    person.answer = 'decline';
    const refused = await call(client, 'apply_patch', addFile('refused.txt'));
    expect(refused.structuredContent).toMatchObject({ code: 'CONFIRMATION_DENIED' });
    expect(existsSync(join(dir, 'refused.txt'))).toBe(false);
    expect(person.asked).toHaveLength(2);
    expect(person.asked[1]).toContain("'refused.txt'");
  });

  it('asks before running a manifest tool whose permission is "ask"', async () => {
    person.asked = [];
    person.answer = 'decline';
    expect((await call(client, 'asker')).structuredContent).toMatchObject({ code: 'CONFIRMATION_DENIED' });
    person.answer = 'accept';
    expect((await call(client, 'asker')).structuredContent.output).toContain('approved-run');
    expect(person.asked).toHaveLength(2);
    expect(person.asked[0]).toContain('asker');
  });

  it('refuses such a change for a client without elicitation, with a hint, nothing changed', async () => {
    const plain = await server.connect({ capabilities: { roots: {} } }, new Person(dir, false).setup);
    const refused = await call(plain, 'apply_patch', addFile('unasked.txt'));
    expect(refused.structuredContent).toMatchObject({ code: 'CONFIRMATION_DENIED' });
    expect(refused.structuredContent.hint).toMatch(/elicitation/);
    expect(existsSync(join(dir, 'unasked.txt'))).toBe(false);
  });

  it("sends a manifest tool's image and audio as their own blocks, never as base64 in the text", async () => {
    const r = await call(client, 'chart');
    const wav = Buffer.from('RIFF').toString('base64');
    expect(r.content.slice(1)).toEqual([
      { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') },
      { type: 'audio', mimeType: 'audio/wav', data: wav },
    ]);
    expect(r.content[0].type).toBe('text');
    expect(r.content[0].text).not.toContain(wav);
    expect(r.content[0].text).not.toContain(PNG.toString('base64'));
    expect(r.structuredContent.media_dropped ?? []).not.toContainEqual(expect.objectContaining({ name: 'sound.wav' }));
  });

  it('takes logging/setLevel and sends the broken manifests as warnings', async () => {
    await expect(client.setLoggingLevel('info')).resolves.toEqual({});
    await expect.poll(() => person.logs.filter((l) => l.logger === 'manifests').length).toBeGreaterThan(3);
    expect(person.logs.find((l) => l.logger === 'manifests')).toMatchObject({ level: 'warning' });
    expect(JSON.stringify(person.logs)).not.toContain(toolsDir);
  });

  it("follows the client's roots when they change", async () => {
    const second = folder({ 'which.txt': 'second\n' });
    person.root = second;
    await client.sendRootsListChanged();
    await expect
      .poll(async () => (await call(client, 'text_file_read', { path: 'which.txt' })).structuredContent.content)
      .toBe('second\n');
    person.root = dir;
    await client.sendRootsListChanged();
    await expect
      .poll(async () => (await call(client, 'text_file_read', { path: 'which.txt' })).structuredContent.content)
      .toBe('first\n');
  });
});

it('sandpit mcp --approve all makes changes outside the artifact folder with no elicitation', async () => {
  const dir = folder({ 'keep.txt': 'keep\n' });
  const server = stdioChild(['--root', dir, '--approve', 'all', ...serverArgs()]);
  children.push(server);
  const client = await server.connect();
  expect((await call(client, 'apply_patch', addFile('trusted.txt'))).structuredContent.files).toMatchObject([
    { path: 'trusted.txt', action: 'add' },
  ]);
  expect(readFileSync(join(dir, 'trusted.txt'), 'utf8')).toBe('written\n');
});
