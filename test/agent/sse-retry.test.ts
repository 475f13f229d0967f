import { describe, expect, it } from 'vitest';
import { readSse } from '../../src/agent/sse.js';
import { backoffMs, retryAfterMs } from '../../src/agent/retry.js';
import { chatCompletionsUrl } from '../../src/agent/providers/openai.js';
import { messagesUrl } from '../../src/agent/providers/anthropic.js';
import { guessApi } from '../../src/agent/provider.js';

/** A body that delivers `text` in the given pieces, as a network might. */
function body(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function events(pieces: string[]) {
  const out = [];
  for await (const event of readSse(body(pieces))) out.push(event);
  return out;
}

const STREAM =
  ': keep-alive\r\nevent: message_start\r\ndata: {"a":1}\r\n\r\ndata: line one\ndata: line two\n\ndata:{"é":"ü"}\r\rretry: 5\nid: 7\ndata: last';
const EXPECTED = [
  { event: 'message_start', data: '{"a":1}' },
  { event: 'message', data: 'line one\nline two' },
  { event: 'message', data: '{"é":"ü"}' },
  { event: 'message', data: 'last' },
];

describe('readSse', () => {
  it('reads events whole, with LF, CRLF and CR endings, comments and multi-line data', async () => {
    expect(await events([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same events however the bytes are split, even inside a CRLF or a UTF-8 character', async () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (let cut = 1; cut < bytes.length; cut++) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          controller.enqueue(bytes.slice(cut));
          controller.close();
        },
      });
      const out = [];
      for await (const event of readSse(stream)) out.push(event);
      expect(out, `cut at byte ${cut}`).toEqual(EXPECTED);
    }
  });

  it('gives one event per byte-sized chunk stream', async () => {
    expect(await events([...STREAM])).toEqual(EXPECTED);
  });
});

describe('retry timing', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms first', () => {
    expect(retryAfterMs(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '3' }))).toBe(250);
    expect(retryAfterMs(headers({}))).toBeNull();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeNull();
  });

  it('backs off exponentially with jitter, capped, and caps what the server asks', () => {
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wait = backoffMs(attempt, headers({}), { base_delay_ms: 100 });
      expect(wait).toBeGreaterThanOrEqual(75 * 2 ** (attempt - 1));
      expect(wait).toBeLessThanOrEqual(125 * 2 ** (attempt - 1));
    }
    expect(backoffMs(10, headers({}), { base_delay_ms: 100, max_delay_ms: 5000 })).toBe(5000);
    expect(backoffMs(1, headers({ 'retry-after': '3600' }), { max_delay_ms: 5000 })).toBe(5000);
  });
});

describe('endpoints', () => {
  it('accepts a base URL or the full one', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:11434/v1/')).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(chatCompletionsUrl('https://x.test/v1/chat/completions')).toBe('https://x.test/v1/chat/completions');
    expect(messagesUrl('https://api.anthropic.com')).toBe('https://api.anthropic.com/v1/messages');
    expect(messagesUrl('https://api.anthropic.com/v1')).toBe('https://api.anthropic.com/v1/messages');
    expect(messagesUrl('https://proxy.test/v1/messages')).toBe('https://proxy.test/v1/messages');
    expect([
      guessApi('https://api.anthropic.com'),
      guessApi('http://127.0.0.1:8080/v1'),
      guessApi('http://h/v1/messages'),
    ]).toEqual(['anthropic', 'openai', 'anthropic']);
  });
});
