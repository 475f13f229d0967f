import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { initializeResult } from './capabilities.js';
import { packageVersion } from './fast-start.js';
import { SESSION_DEFAULTS } from './http-sessions.js';
import {
  allowedHostNames,
  checkPost,
  checkRequest,
  endpointUrl,
  isRefusal,
  readJson,
  refuse,
  reply,
  type McpHttpGuard,
} from './http-guard.js';

/** A session answered early: its initialize request, and the notifications that came before the server loaded. */
export interface EarlySession {
  /** the client's initialize request, to replay into the SDK session */
  initialize: unknown;
  /** notification bodies (notifications/initialized first of all) answered 202 and kept, in order */
  notifications: unknown[];
  /** when initialize was answered (Date.now()): one never taken up is forgotten like an idle session */
  answeredAt: number;
}

/** A request the loaded server takes over: its body already read when it was a POST without a session. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse, body?: unknown) => void;

/**
 * A Streamable HTTP endpoint listening before the MCP SDK and the workspace have loaded: it
 * answers `initialize` itself (the answer the SDK server gives, with a session id of its own),
 * accepts that session's notifications (202, kept: an HTTP client waits for that answer before
 * its connect resolves), and holds every other request until {@link EarlyHttp.handOver}. The loaded server replays each early
 * initialize into an SDK session under the same id, so the client never notices.
 */
export interface EarlyHttp {
  /** the listening server, reused by the loaded one */
  server: Server;
  /** the host it is bound to */
  host: string;
  /** the port it listens on */
  port: number;
  /** the endpoint, `http://HOST:PORT/mcp` */
  url: string;
  /** the sessions answered early, by id */
  readonly sessions: Map<string, EarlySession>;
  /** Pass every request held so far, and all later ones, to `handler`. */
  handOver(handler: HttpHandler): void;
  /** Stop listening (the server will not load). */
  close(): Promise<void>;
}

/**
 * Listen on `host:port` at once, answering `initialize` (with the toolset's `instructions`) until
 * the real server takes over; at most `maxSessions` early sessions are kept, the oldest forgotten first.
 */
export async function listenEarly(
  where: { host: string; port: number },
  guard: McpHttpGuard,
  instructions = '',
  maxSessions: number = SESSION_DEFAULTS.maxSessions,
): Promise<EarlyHttp> {
  const sessions = new Map<string, EarlySession>();
  const held: Array<[IncomingMessage, ServerResponse, unknown?]> = [];
  let handler: HttpHandler | null = null;
  let port = 0;
  let hosts = new Set<string>();

  const early = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = checkRequest(req, hosts, port, guard);
    if (refusal) return reply(res, refusal.status, refusal.message, refusal.headers);
    const sessionId = req.headers['mcp-session-id'];
    const mine = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST' || (sessionId !== undefined && !mine)) return void held.push([req, res]);
    const unfit = checkPost(req);
    if (unfit) return refuse(res, unfit);
    const body = await readJson(req);
    if (isRefusal(body)) return refuse(res, body);
    if (handler) return handler(req, res, body);
    if (mine && onlyNotifications(body)) {
      mine.notifications.push(body);
      res.writeHead(202).end();
      return;
    }
    const initialize = mine ? null : initializeRequest(body);
    if (!initialize) return void held.push([req, res, body]);
    const id = randomUUID();
    if (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!);
    sessions.set(id, { initialize: body, notifications: [], answeredAt: Date.now() });
    res.writeHead(200, { 'Content-Type': 'application/json', 'mcp-session-id': id });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: initialize.id,
        result: initializeResult(initialize.version, packageVersion(), instructions),
      }),
    );
  };
  const server = createServer((req, res) => {
    if (handler) return handler(req, res);
    early(req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, 'internal error');
      else res.end();
    });
  });
  // Loading the server blocks the event loop for a moment (seconds on a busy machine); a 5 s
  // keep-alive timer that fires as it ends would close a client's socket under its next request.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  hosts = allowedHostNames(where.host, guard.allowedHosts ?? []);
  return {
    server,
    host: where.host,
    port,
    url: endpointUrl(where.host, port),
    sessions,
    handOver(next) {
      handler = next;
      for (const [req, res, body] of held.splice(0)) next(req, res, body);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [, res] of held.splice(0)) reply(res, 503, 'the server is shutting down');
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function onlyNotifications(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return (
    messages.length > 0 &&
    messages.every(
      (m) =>
        m !== null &&
        typeof m === 'object' &&
        (m as Record<string, unknown>).jsonrpc === '2.0' &&
        typeof (m as Record<string, unknown>).method === 'string' &&
        !('id' in (m as object)),
    )
  );
}

function initializeRequest(body: unknown): { id: unknown; version: unknown } | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const message = body as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: { protocolVersion?: unknown } };
  if (
    message.jsonrpc !== '2.0' ||
    message.method !== 'initialize' ||
    message.id === undefined ||
    typeof message.params !== 'object'
  )
    return null;
  return { id: message.id, version: message.params?.protocolVersion };
}
