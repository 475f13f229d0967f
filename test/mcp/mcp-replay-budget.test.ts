import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { openNodeWorkspace, serveMcpHttp } from '../../src/node/index.js';
import { jsonSize, ReplayBudget, SessionEventStore } from '../../src/node/mcp/events.js';
import { scratch } from './scratch.js';

const tmp = scratch('sandpit-mcp-replay-');
const { closers } = tmp;

/** A JSON-RPC notification whose JSON is exactly `bytes` long. */
function message(bytes: number): JSONRPCMessage {
  const empty = JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { t: '' } }).length;
  return { jsonrpc: '2.0', method: 'n', params: { t: 'x'.repeat(bytes - empty) } };
}

async function replayed(store: SessionEventStore, after: string): Promise<string[]> {
  const ids: string[] = [];
  await store.replayEventsAfter(after, {
    send: async (id) => {
      ids.push(id);
    },
  });
  return ids;
}

describe("a session's replay buffer", () => {
  it('counts a message as the length of its JSON (escapes aside) without serialising it', () => {
    const samples: unknown[] = [
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'hello' }], isError: false, n: null } },
      [1, 'two', [3.5, { four: true }], {}, []],
      message(300),
    ];
    for (const sample of samples) expect(jsonSize(sample)).toBe(JSON.stringify(sample).length);
  });

  it('keeps an unbroken tail under its byte budget, and refuses a resume from a dropped event', async () => {
    const store = new SessionEventStore({ maxBytes: 1000 });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await store.storeEvent('s', message(300)));
    expect(store.bytes).toBe(900);
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(ids[6]!)).toBeUndefined();
    expect(await store.getStreamIdForEventId(ids[7]!)).toBe('s');
    expect(await replayed(store, ids[7]!)).toEqual([ids[8], ids[9]]);
    // one message bigger than the whole budget is sent but not kept, and takes the older ones with it
    const big = await store.storeEvent('s', message(5000));
    expect(store.bytes).toBe(0);
    expect(await store.getStreamIdForEventId(big)).toBeUndefined();
    expect(await store.getStreamIdForEventId(ids[9]!)).toBeUndefined();
  });

  it('keeps every session together under the server budget, dropping the oldest message of any session first', async () => {
    const budget = new ReplayBudget(1000);
    const a = new SessionEventStore({ maxBytes: 800 }, budget);
    const b = new SessionEventStore({ maxBytes: 800 }, budget);
    const a1 = await a.storeEvent('a', message(300));
    const b1 = await b.storeEvent('b', message(300));
    const a2 = await a.storeEvent('a', message(300));
    expect(budget.bytes).toBe(900);
    const b2 = await b.storeEvent('b', message(300));
    expect(budget.bytes).toBe(900);
    expect(await a.getStreamIdForEventId(a1)).toBeUndefined();
    for (const [store, id] of [
      [b, b1],
      [a, a2],
      [b, b2],
    ] as const)
      expect(await store.getStreamIdForEventId(id)).toBeDefined();
    a.dispose();
    expect(budget.bytes).toBe(600);
    for (let i = 0; i < 20; i++) await b.storeEvent('b', message(300));
    expect(budget.bytes).toBe(600);
    expect(b.bytes).toBe(600);
  });

  it('also caps the count of messages, however small', async () => {
    const store = new SessionEventStore({ maxMessages: 5 });
    for (let i = 0; i < 1000; i++) await store.storeEvent('s', message(100));
    expect(store.size).toBe(5);
    expect(store.bytes).toBe(500);
  });
});

describe('the HTTP server under big answers', () => {
  it('holds no more replay bytes than its budgets while clients read a big file over and over', async () => {
    const size = 3 * 1024 * 1024;
    const dir = tmp.folder({ 'big.txt': `${'0123456789abcdef'.repeat(size / 16 - 1)}\n` });
    const ws = openNodeWorkspace(dir, { snapshots: false });
    const perSession = 8 * 1024 * 1024;
    const total = 12 * 1024 * 1024;
    const server = await serveMcpHttp(ws, ws.toolset, {
      port: 0,
      replayBytesPerSession: perSession,
      replayBytesTotal: total,
    });
    closers.push(async () => {
      await server.close();
      await ws.close();
    });
    const clients = await Promise.all(
      [1, 2, 3].map(async () => {
        const client = new Client({ name: 'big-reader', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        closers.push(() => client.close());
        return client;
      }),
    );
    let most = 0;
    for (let round = 0; round < 8; round++) {
      for (const client of clients) {
        const read = (await client.callTool({ name: 'read_file', arguments: { path: 'big.txt' } })) as Record<
          string,
          any
        >;
        expect(read.structuredContent.total_chars).toBe(size - 15);
        most = Math.max(most, server.replayBytes());
        expect(server.replayBytes()).toBeLessThanOrEqual(total);
      }
    }
    // something is kept for a resume (the newest answer fits a session's budget), and never more than the total
    expect(most).toBeGreaterThan(size);
    expect(most).toBeLessThanOrEqual(total);
    expect(await clients[0]!.ping()).toEqual({});
  });
});
