import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/**
 * Hand one Node request to the SDK's web-standard Streamable HTTP transport and stream its answer
 * back, each SSE event written as it comes (a progress notification must not wait for the
 * result). The body was read already (`body`); `answered` hears the status once the transport
 * has answered (a GET's stream is open by then). A client that goes away cancels the stream, so
 * the SDK forgets it.
 */
export async function bridgeRequest(
  transport: WebStandardStreamableHTTPServerTransport,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  url: string,
  answered: (status: number) => void = () => {},
): Promise<void> {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const request = new Request(url, { method: req.method ?? 'GET', headers, signal: gone.signal });
  const response = await transport.handleRequest(request, body === undefined ? {} : { parsedBody: body });
  const outgoing: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outgoing[name] = value;
  });
  res.writeHead(response.status, outgoing);
  answered(response.status);
  if (!response.body) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  gone.signal.addEventListener(
    'abort',
    () => {
      void reader.cancel().catch(() => {});
    },
    { once: true },
  );
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // the client went away, or the stream was closed under us: nothing left to send
  } finally {
    if (!res.destroyed) res.end();
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
