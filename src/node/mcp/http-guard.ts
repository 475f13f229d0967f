import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';

// Kept free of the MCP SDK but for its tiny media-type parser: the early listener (http-early.ts)
// checks requests with it before the SDK has loaded.

/** The URL path the Streamable HTTP MCP server answers on. */
export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Who may talk to the server: the DNS-rebinding allow-lists and the bearer token. */
export interface McpHttpGuard {
  /** when set, every request needs `Authorization: Bearer <token>` (else 401) */
  authToken?: string;
  /** Host names accepted besides localhost, 127.0.0.1, [::1] and the bound host (DNS-rebinding protection) */
  allowedHosts?: string[];
  /** Origins accepted besides http(s) on an accepted host; a request without Origin is a non-browser client and passes */
  allowedOrigins?: string[];
}

/** The endpoint a server bound to `host` and `port` answers at. */
export function endpointUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${MCP_PATH}`;
}

/** The Host names a server bound to `bound` accepts. */
export function allowedHostNames(bound: string, extra: string[]): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', ...extra.map((h) => h.toLowerCase())]);
  if (bound !== '0.0.0.0' && bound !== '::') names.add(bound.includes(':') ? `[${bound}]` : bound.toLowerCase());
  return names;
}

/** The DNS-rebinding, token and path checks: a refusal, or null to go on. */
export function checkRequest(
  req: IncomingMessage,
  hosts: Set<string>,
  port: number,
  guard: McpHttpGuard,
): { status: number; message: string; headers?: Record<string, string> } | null {
  const hostHeader = (req.headers.host ?? '').toLowerCase();
  const hostName = hostHeader.replace(/:\d+$/, '');
  const hostPort = hostHeader.slice(hostName.length + 1);
  if (!hosts.has(hostName) || (hostPort !== '' && Number(hostPort) !== port))
    return { status: 403, message: 'Host not allowed' };
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, hosts, guard.allowedOrigins ?? []))
    return { status: 403, message: 'Origin not allowed' };
  if (guard.authToken !== undefined && !tokenMatches(req.headers.authorization, guard.authToken)) {
    return { status: 401, message: 'a bearer token is required', headers: { 'WWW-Authenticate': 'Bearer' } };
  }
  if (new URL(req.url ?? '/', 'http://x').pathname !== MCP_PATH)
    return { status: 404, message: `the MCP endpoint is ${MCP_PATH}` };
  return null;
}

function originAllowed(origin: string, hosts: Set<string>, extra: string[]): boolean {
  if (extra.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      hosts.has(url.hostname.toLowerCase().replace(/^::1$/, '[::1]'))
    );
  } catch {
    return false;
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** A request refused before it reaches a session: the HTTP status, the JSON-RPC code and message. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
}

/**
 * The checks the SDK's transport makes on a POST before reading it, with its answers: an Accept
 * naming both JSON and SSE (406), a Content-Type whose media type is JSON (415). The early
 * endpoint makes them too, so a client is refused the same way before and after the server loads.
 */
export function checkPost(req: IncomingMessage): Refusal | null {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
    return {
      status: 406,
      code: -32000,
      message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
    };
  if (!isJsonContentType(req.headers['content-type']))
    return { status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' };
  return null;
}

/** A POST's JSON body, or the refusal the SDK gives: too large (413), not JSON (400, -32700 parse error). */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      return bodyRefusal(413, -32000, `Payload Too Large: the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return bodyRefusal(400, PARSE_ERROR, 'Parse error: Invalid JSON');
  }
}

const PARSE_ERROR = -32700;
const REFUSAL = Symbol('refusal');

function bodyRefusal(status: number, code: number, message: string): Refusal {
  return { status, code, message, [REFUSAL]: true } as Refusal;
}

/** Whether readJson's answer is a refusal rather than a body (a body is never one: it is parsed JSON). */
export function isRefusal(body: unknown): body is Refusal {
  return typeof body === 'object' && body !== null && REFUSAL in body;
}

/** Answer with a refusal. */
export function refuse(res: ServerResponse, refusal: Refusal): void {
  reply(res, refusal.status, refusal.message, {}, refusal.code);
}

/** The JSON-RPC code the SDK answers an unknown session with (HTTP 404). */
export const SESSION_NOT_FOUND = -32001;

/** Answer with a JSON-RPC error (code -32000 unless given, as the SDK's transport does) and an HTTP status. */
export function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
