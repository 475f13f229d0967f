import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cliPath } from '../cli/built-cli.js';
import { FULL } from './sizes.js';

type Reply = { jsonrpc: string; id: number | string | null; result?: any; error?: { code: number; message: string } };

/** A real `sandpit mcp` child spoken to in raw JSON-RPC lines, so malformed input can be sent. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  private buffered = '';
  private readonly replies: Reply[] = [];
  private waiters: Array<() => void> = [];
  exited: number | null = null;

  constructor(dir: string, extra: string[] = []) {
    this.child = spawn(process.execPath, [cliPath, 'mcp', '--root', dir, ...extra]);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => {
      this.buffered += text;
      for (let nl = this.buffered.indexOf('\n'); nl !== -1; nl = this.buffered.indexOf('\n')) {
        this.replies.push(JSON.parse(this.buffered.slice(0, nl)) as Reply);
        this.buffered = this.buffered.slice(nl + 1);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.on('exit', (code) => {
      this.exited = code ?? -1;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  async write(text: string): Promise<void> {
    if (!this.child.stdin.write(text)) await new Promise((r) => this.child.stdin.once('drain', r));
  }

  /** The next `n` replies, in the order they came. */
  async next(n = 1): Promise<Reply[]> {
    while (this.replies.length < n) {
      if (this.exited !== null)
        throw new Error(`the server exited (${this.exited}) with ${this.replies.length} of ${n} replies`);
      await new Promise<void>((r) => this.waiters.push(r));
    }
    return this.replies.splice(0, n);
  }

  async request(id: number, method: string, params?: unknown): Promise<Reply> {
    await this.write(
      `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`,
    );
    const [reply] = await this.next();
    return reply!;
  }
}

const dirs: string[] = [];
const servers: RawServer[] = [];
async function open(extra: string[] = []): Promise<RawServer> {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-framing-'));
  dirs.push(dir);
  const server = new RawServer(dir, extra);
  servers.push(server);
  const init = await server.request(0, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  });
  expect(init.result?.serverInfo?.name).toBe('sandpit');
  await server.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return server;
}

beforeAll(async () => {
  await buildCli();
});
afterAll(() => {
  for (const s of servers) s.child.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('sandpit mcp framing', () => {
  it('answers every malformed line with the JSON-RPC error the spec names, and keeps serving', async () => {
    const server = await open();
    const cases: Array<[string, number, number | string | null]> = [
      ['{not json', -32700, null],
      ['[]', -32600, null],
      ['"str"', -32600, null],
      ['null', -32600, null],
      ['{"jsonrpc":"2.0","id":2}', -32600, 2],
      ['{"jsonrpc":"2.0","id":3,"method":42}', -32600, 3],
      ['{"jsonrpc":"2.0","id":4,"method":"tools/call","params":null}', -32602, 4],
      ['{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}}', -32602, 5],
      ['{"jsonrpc":"2.0","id":6,"method":"no/such/method"}', -32601, 6],
      ['{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', -32600, null],
      ['{"id":"seven","method":"ping"}', -32600, 'seven'],
    ];
    for (const [line, code, id] of cases) {
      await server.write(`${line}\n`);
      const [reply] = await server.next();
      expect(reply, line).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
    }
    expect((await server.request(8, 'ping')).result).toEqual({});
  });

  it('answers a message over the limit with an error naming the limit, then serves the next call', async () => {
    const size = FULL ? 70 * 1024 * 1024 : 2 * 1024 * 1024;
    const server = await open(FULL ? [] : ['--max-message-bytes', String(1024 * 1024)]);
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'write_file', arguments: { path: 'big.txt', content: 'x'.repeat(size) } },
    });
    await server.write(`${big}\n`);
    const [reply] = await server.next();
    expect(reply).toMatchObject({ id: 9, error: { code: -32600 } });
    expect(reply!.error!.message).toContain('limit');
    expect((await server.request(10, 'ping')).result).toEqual({});
    expect(server.exited).toBeNull();
  });

  it('reads a big message under the limit, written in many small chunks', async () => {
    const size = FULL ? 60 * 1024 * 1024 : 3 * 1024 * 1024;
    const server = await open();
    const line = `${JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'write_file', arguments: { path: 'big.txt', content: 'y'.repeat(size) } } })}\n`;
    const started = Date.now();
    for (let at = 0; at < line.length; at += 65536) await server.write(line.slice(at, at + 65536));
    const [reply] = await server.next();
    expect(JSON.parse(reply!.result.content[0].text)).toMatchObject({ ok: true, result: { bytes: size } });
    expect((await server.request(12, 'ping')).result).toEqual({});
    console.log(`[hardening mcp] ${size} byte message answered in ${Date.now() - started} ms`);
  });
});
