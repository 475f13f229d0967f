import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Toolset } from '../toolsets/index.js';
import type { Workspace } from '../workspace-core.js';
import { SessionEventStore } from './mcp-events.js';
import { createMcpServer, type McpServerHandle, type McpServerOptions } from './mcp.js';
import { createRootsMcpServer, type WorkspacePool } from './mcp-roots.js';
import type { McpLogHub } from './mcp-log.js';

/** How `sandpit mcp --http` listens. */
export interface McpHttpOptions {
  /** default 127.0.0.1 */
  host?: string;
  /** 0 picks a free port */
  port: number;
  /** when set, every request needs `Authorization: Bearer <token>` (else 401) */
  authToken?: string;
  /** Host names accepted besides localhost, 127.0.0.1, [::1] and the bound host (DNS-rebinding protection) */
  allowedHosts?: string[];
  /** Origins accepted besides http(s) on an accepted host; a request without Origin is a non-browser client and passes */
  allowedOrigins?: string[];
  /** a session with no request for this long is closed (default 30 minutes): a killed client never says goodbye */
  idleMs?: number;
  /** the server version the MCP handshake reports */
  version?: string;
  /** log messages for every session (start-up warnings, snapshot failures, task exits) */
  log?: McpLogHub;
}

/** A listening Streamable HTTP MCP server over one workspace. */
export interface McpHttpServer {
  /** the endpoint, `http://HOST:PORT/mcp` */
  url: string;
  /** the port it listens on */
  port: number;
  /** sessions open now */
  sessionCount(): number;
  /** Close every session and stop listening (the workspace stays open: its owner closes it). */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServerHandle;
  lastSeen: number;
  active: number;
}

/** The URL path the Streamable HTTP MCP server answers on. */
export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Serve a workspace's toolset over MCP's Streamable HTTP transport: one workspace shared by
 * every session (calls on one path are serialised by the workspace, so no update is lost), a
 * session per `initialize` (`Mcp-Session-Id`), SSE responses with resumability, DELETE to end a
 * session. Host and Origin are checked against an allow-list (403) and an optional bearer token (401).
 */
export function serveMcpHttp(ws: Workspace, set: Toolset, options: McpHttpOptions): Promise<McpHttpServer> {
  return serveMcpSessions(() => createMcpServer(ws, set, serverOptions(options)), options);
}

/** The same server without --root: each session serves its client's first root (see createRootsMcpServer), one workspace per folder. */
export function serveMcpHttpRoots(pool: WorkspacePool, options: McpHttpOptions): Promise<McpHttpServer> {
  return serveMcpSessions(() => createRootsMcpServer(pool, serverOptions(options)), options);
}

function serverOptions(options: McpHttpOptions): McpServerOptions {
  return { ...(options.version !== undefined ? { version: options.version } : {}), ...(options.log ? { log: options.log } : {}) };
}

async function serveMcpSessions(makeServer: () => McpServerHandle, options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const idleMs = options.idleMs ?? 30 * 60_000;
  const sessions = new Map<string, Session>();
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const hosts = allowedHostNames(host, options.allowedHosts ?? []);
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) if (session.active === 0 && now - session.lastSeen > idleMs) void end(id);
  }, Math.max(50, Math.min(idleMs / 2, 60_000)));
  sweep.unref();

  async function end(id: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = checkRequest(req, hosts, port, options);
    if (refusal) return reply(res, refusal.status, refusal.message, refusal.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});
    if (new URL(req.url ?? '/', 'http://x').pathname !== MCP_PATH) return reply(res, 404, `the MCP endpoint is ${MCP_PATH}`);
    const id = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (body instanceof Error) return reply(res, 400, body.message);
    let session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!session) {
      if (id !== undefined) return reply(res, 404, 'unknown or expired session: initialize again');
      if (req.method !== 'POST' || !isInitializeRequest(body)) return reply(res, 400, 'no session: send initialize first');
      session = open();
    }
    session.active++;
    session.lastSeen = Date.now();
    res.once('close', () => {
      session.active--;
      session.lastSeen = Date.now();
    });
    await session.transport.handleRequest(req, res, body);
  }

  function open(): Session {
    const server = makeServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new SessionEventStore(),
      onsessioninitialized: (sid) => { sessions.set(sid, session); },
      onsessionclosed: (sid) => { void end(sid); },
    });
    const session: Session = { transport, server, lastSeen: Date.now(), active: 0 };
    transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
    void server.connect(transport);
    return session;
  }

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${MCP_PATH}`,
    port,
    sessionCount: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(end));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
    },
  };
}

function allowedHostNames(bound: string, extra: string[]): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', ...extra.map((h) => h.toLowerCase())]);
  if (bound !== '0.0.0.0' && bound !== '::') names.add(bound.includes(':') ? `[${bound}]` : bound.toLowerCase());
  return names;
}

/** The DNS-rebinding and token checks: a refusal, or null to go on. */
function checkRequest(req: IncomingMessage, hosts: Set<string>, port: number, options: McpHttpOptions): { status: number; message: string } | null {
  const hostHeader = (req.headers.host ?? '').toLowerCase();
  const hostName = hostHeader.replace(/:\d+$/, '');
  const hostPort = hostHeader.slice(hostName.length + 1);
  if (!hosts.has(hostName) || (hostPort !== '' && Number(hostPort) !== port)) return { status: 403, message: 'Host not allowed' };
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, hosts, options.allowedOrigins ?? [])) return { status: 403, message: 'Origin not allowed' };
  if (options.authToken !== undefined && !tokenMatches(req.headers.authorization, options.authToken)) {
    return { status: 401, message: 'a bearer token is required' };
  }
  return null;
}

function originAllowed(origin: string, hosts: Set<string>, extra: string[]): boolean {
  if (extra.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && hosts.has(url.hostname.toLowerCase().replace(/^::1$/, '[::1]'));
  } catch {
    return false;
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
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

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
