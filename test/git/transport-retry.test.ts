import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../src/git/transport.js';

// A server that drops the connection on the first request for each URL, before any answer, and
// answers the ones after: what a client meets when it reuses a kept-alive connection just as the
// server's idle timer closes it.
let server: Server;
let base: string;
const dropped: string[] = [];
const answered: Array<{ url: string; body: string }> = [];

beforeAll(async () => {
  const seen = new Set<string>();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const asked = `${req.method} ${req.url}`;
      if (!seen.has(asked)) {
        seen.add(asked);
        dropped.push(asked);
        req.socket.destroy();
        return;
      }
      answered.push({ url: `${req.method} ${req.url}`, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'Content-Type': 'text/plain', Connection: 'keep-alive' });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function text(response: { body?: AsyncIterableIterator<Uint8Array> }): Promise<string> {
  let out = '';
  for await (const part of response.body ?? []) out += Buffer.from(part).toString();
  return out;
}

async function* bytesOf(s: string): AsyncIterableIterator<Uint8Array> {
  yield new TextEncoder().encode(s);
}

describe('the git HTTP client on a connection the server drops', () => {
  it('sends a read again, body and all, when the kept-alive connection drops before any answer', async () => {
    dropped.length = 0;
    answered.length = 0;
    const refs = await http.request({ url: `${base}/r.git/info/refs?service=git-upload-pack`, method: 'GET' });
    expect([refs.statusCode, await text(refs)]).toEqual([200, 'ok']);
    const pack = await http.request({
      url: `${base}/r.git/git-upload-pack`,
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request' },
      body: bytesOf('0032want 0123456789012345678901234567890123456789\n00000009done\n'),
    });
    expect([pack.statusCode, await text(pack)]).toEqual([200, 'ok']);
    expect(dropped).toEqual(['GET /r.git/info/refs?service=git-upload-pack', 'POST /r.git/git-upload-pack']);
    expect(answered.at(-1)).toEqual({
      url: 'POST /r.git/git-upload-pack',
      body: '0032want 0123456789012345678901234567890123456789\n00000009done\n',
    });
  });

  it('never sends a push twice: the dropped connection is the caller’s error', async () => {
    dropped.length = 0;
    answered.length = 0;
    await expect(
      http.request({ url: `${base}/r.git/git-receive-pack`, method: 'POST', body: bytesOf('0000') }),
    ).rejects.toThrow(TypeError);
    expect(dropped).toEqual(['POST /r.git/git-receive-pack']);
    expect(answered).toEqual([]);
  });
});
