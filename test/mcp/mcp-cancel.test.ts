import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeFs, createWorkspace, openNodeWorkspace, serveMcpHttp } from '../../src/node/index.js';
import type { Envelope, Workspace } from '../../src/index.js';
import { buildCli, cliPath } from '../cli/built-cli.js';
import { watchedFs } from '../support/watched-fs.js';
import { scratch } from './scratch.js';

type Row = Record<string, any>;
const { folder, closers } = scratch('sandpit-mcp-cancel-');
beforeAll(async () => {
  await buildCli();
});

// Enough files that a search reports progress many times (every 200 files) before it could end.
const SEARCHED = 4000;
let searchedTree: string | undefined;
/**
 * The folder both cancelled searches read, made once: the searches only read it (no snapshots), and
 * making 4000 files was most of this file's CPU.
 */
function bigTree(): string {
  if (searchedTree) return searchedTree;
  const files: Record<string, string> = {};
  for (let i = 0; i < SEARCHED; i++) files[`d${i % 40}/f${i}.txt`] = `file ${i}\nnothing to find here\n`;
  searchedTree = folder(files);
  return searchedTree;
}

const PATCHED = 100;
function patchedFiles(): Record<string, string> {
  const body = Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n') + '\n';
  return Object.fromEntries(Array.from({ length: PATCHED }, (_, i) => [`f/${String(i).padStart(3, '0')}.txt`, body]));
}
const bigPatch = (): string =>
  [
    '*** Begin Patch',
    ...Array.from({ length: PATCHED }, (_, i) => [
      `*** Update File: f/${String(i).padStart(3, '0')}.txt`,
      '@@',
      ' line 199',
      '-line 200',
      '+LINE 200',
      ' line 201',
    ]).flat(),
    '*** End Patch',
  ].join('\n');

/** Call `name` and cancel it (`notifications/cancelled`) on its first progress report. */
async function cancelOnFirstProgress(client: Client, name: string, args: Row): Promise<unknown> {
  const stop = new AbortController();
  let reports = 0;
  const call = client.callTool({ name, arguments: args }, CallToolResultSchema, {
    signal: stop.signal,
    timeout: 60_000,
    onprogress: () => {
      if (++reports === 1) stop.abort('the person changed their mind');
    },
  });
  return call.then(
    () => 'answered',
    (error: unknown) => error,
  );
}

/**
 * A workspace served over Streamable HTTP whose every envelope is kept, so a test sees how a
 * cancelled call ended. With `gate`, any use of that file waits until the first call is
 * cancelled: a slow disk at one file, so the cancellation always arrives mid-call however fast
 * the machine is.
 */
async function overHttp(dir: string, gate?: string): Promise<{ client: Client; ws: Workspace; envelopes: Envelope[] }> {
  const served = openNodeWorkspace(dir, { snapshots: false });
  let cancelled: AbortSignal | undefined;
  const ws = gate === undefined ? served : gatedWorkspace(dir, gate, () => cancelled);
  const envelopes: Envelope[] = [];
  const recording: Workspace = {
    ...ws,
    call: (async (...args: Parameters<Workspace['call']>) => {
      cancelled ??= args[2]?.signal;
      const envelope = await ws.call(...args);
      envelopes.push(envelope);
      return envelope;
    }) as Workspace['call'],
  };
  const http = await serveMcpHttp(recording, served.toolset, { port: 0 });
  const client = new Client({ name: 'cancel-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  closers.push(async () => {
    await client.close();
    await http.close();
    if (ws !== served) await ws.close();
    await served.close();
  });
  return { client, ws, envelopes };
}

/** The node backend over `dir`, where any use of the file `gate` waits for the first call's cancellation. */
function gatedWorkspace(dir: string, gate: string, firstCall: () => AbortSignal | undefined): Workspace {
  const fs = createNodeFs({ root: dir });
  const held = (args: unknown[]) => args.some((a) => typeof a === 'string' && a.endsWith(`/${gate}`));
  const untilCancelled = () =>
    new Promise<void>((resolve) => {
      const signal = firstCall();
      if (!signal || signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  const gated = watchedFs(fs, (_operation, args) => (held(args) ? untilCancelled() : undefined));
  const ws = createWorkspace({ fs: gated, root: dir, snapshots: false });
  ws.onClose(() => fs.close?.());
  return ws;
}

describe('cancelling a long search_files', () => {
  it('stops the search where it is, and the server goes on answering (HTTP)', async () => {
    const { client, envelopes } = await overHttp(bigTree());
    expect(
      await cancelOnFirstProgress(client, 'search_files', { pattern: 'never present', max_matches: 500 }),
    ).toBeInstanceOf(Error);
    // the search ended early as cancelled, not after scanning the whole tree
    await expect
      .poll(() => envelopes.find((e) => e.tool === 'search_files'))
      .toMatchObject({ ok: false, error: { code: 'TIMEOUT', message: expect.stringMatching(/cancelled/) } });
    const later = (await client.callTool({ name: 'search_files', arguments: { pattern: 'file 3999' } })) as Row;
    expect(later.structuredContent).toMatchObject({
      count: 1,
      matches: [expect.objectContaining({ path: 'd39/f3999.txt' })],
    });
  });

  it('stops the search over stdio, and the server answers the next calls', async () => {
    // Raw JSON-RPC over the child's pipes, so the test sees every progress report the search sends after the cancel.
    const child = spawn(process.execPath, [cliPath, 'mcp', '--root', bigTree(), '--snapshots', 'off'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    closers.push(async () => {
      child.kill();
    });
    const progress: number[] = [];
    const answers = new Map<number, Row>();
    let buffered = '';
    // woken by every message from the child: the test waits for what it needs, not for a clock
    let wake = () => {};
    const until = async (state: () => boolean) => {
      while (!state()) await new Promise<void>((done) => (wake = done));
    };
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, nl)) as Row;
        buffered = buffered.slice(nl + 1);
        if (message.method === 'notifications/progress') {
          progress.push(message.params.progress);
          if (progress.length === 1)
            send({
              jsonrpc: '2.0',
              method: 'notifications/cancelled',
              params: { requestId: 2, reason: 'changed my mind' },
            });
        } else if (message.id !== undefined) answers.set(message.id, message);
      }
      wake();
    });
    const send = (message: Row) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const answer = async (id: number) => {
      await until(() => answers.has(id));
      return answers.get(id)!;
    };
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await answer(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'search_files',
        arguments: { pattern: 'never present', max_matches: 500 },
        _meta: { progressToken: 'search' },
      },
    });
    send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(await answer(3)).toMatchObject({ result: {} });
    // the search's first progress report, or its answer had it ended first
    await until(() => progress.length > 0 || answers.has(2));
    expect(
      progress.length,
      `the search answered before any progress: ${JSON.stringify(answers.get(2))}`,
    ).toBeGreaterThan(0);
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'search_files', arguments: { pattern: 'file 3999' } },
    });
    expect((await answer(4)).result.structuredContent).toMatchObject({
      count: 1,
      matches: [expect.objectContaining({ path: 'd39/f3999.txt' })],
    });
    // the cancelled search stopped short of the tree's end, and its own answer never came
    expect(Math.max(...progress)).toBeLessThan(SEARCHED);
    expect(answers.has(2)).toBe(false);
  });
});

describe('cancelling an apply_patch over HTTP', () => {
  it('stops it before it writes: every file as it was, nothing in the change log', async () => {
    const files = patchedFiles();
    const dir = folder(files);
    const { client, ws, envelopes } = await overHttp(dir, 'f/050.txt');
    expect(await cancelOnFirstProgress(client, 'apply_patch', { patch: bigPatch() })).toBeInstanceOf(Error);
    await expect
      .poll(() => envelopes.find((e) => e.tool === 'apply_patch'))
      .toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    for (const [name, text] of Object.entries(files)) expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
    expect(ws.changes.list()).toHaveLength(0);
    // the same patch, not cancelled, still applies: nothing was left half-done or locked
    const again = (await client.callTool({ name: 'apply_patch', arguments: { patch: bigPatch() } })) as Row;
    expect(again.isError).toBe(false);
    expect(readFileSync(join(dir, 'f/099.txt'), 'utf8')).toContain('LINE 200');
  });
});
