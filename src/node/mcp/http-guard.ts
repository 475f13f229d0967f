import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// Kept free of the MCP SDK: the early listener (mcp-http-early.ts) checks requests with it before the SDK has loaded.

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

/** A request's JSON body, or an Error saying why there is none. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return new Error(`the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return new Error('the request body is not JSON');
  }
}

/** Answer with a JSON-RPC error and an HTTP status. */
export function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
