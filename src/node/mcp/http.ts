import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Toolset } from '../../toolsets/index.js';
import type { Workspace } from '../../workspace-core.js';
import { ReplayBudget, REPLAY_DEFAULTS, SessionEventStore } from './events.js';
import { SESSION_DEFAULTS, SessionTable, type HttpSession } from './http-sessions.js';
import { createMcpServer, type McpServerHandle, type McpServerOptions } from './server.js';
import { createRootsMcpServer, type WorkspacePool } from './roots.js';
import type { McpLogHub } from './log.js';
import { listenEarly, type EarlyHttp } from './http-early.js';
import {
  allowedHostNames,
  checkPost,
  checkRequest,
  endpointUrl,
  isRefusal,
  MCP_PATH,
  readJson,
  refuse,
  reply,
  SESSION_NOT_FOUND,
  type McpHttpGuard,
} from './http-guard.js';
import { bridgeRequest } from './http-bridge.js';
import { negotiatedVersion } from './capabilities.js';

export { MCP_PATH };

/** How `sandpit mcp --http` listens. */
export interface McpHttpOptions extends McpHttpGuard {
  /** default 127.0.0.1 */
  host?: string;
  /** 0 picks a free port */
  port: number;
  /** a session with no request for this long is closed (default 30 minutes): a killed client never says goodbye */
  idleMs?: number;
  /** sessions open at once (default 256); one more ends the least recently used idle session */
  maxSessions?: number;
  /** bytes of SSE messages a session keeps for clients that resume with Last-Event-ID (default 32 MiB) */
  replayBytesPerSession?: number;
  /** the same for all sessions together (default 128 MiB): the oldest message of any session goes first */
  replayBytesTotal?: number;
  /** the server version the MCP handshake reports */
  version?: string;
  /** log messages for every session (start-up warnings, snapshot failures, task exits) */
  log?: McpLogHub;
  /** the initialize answer's guidance (default: the toolset's `instructions`; give it to a roots-following server) */
  instructions?: string;
}

/** A listening Streamable HTTP MCP server over one workspace. */
export interface McpHttpServer {
  /** the endpoint, `http://HOST:PORT/mcp` */
  url: string;
  /** the port it listens on */
  port: number;
  /** sessions open now */
  sessionCount(): number;
  /** bytes every session's replay buffer holds now (at most `replayBytesTotal`) */
  replayBytes(): number;
  /** Close every session and stop listening (the workspace stays open: its owner closes it). */
  close(): Promise<void>;
}

/**
 * Serve a workspace's toolset over MCP's Streamable HTTP transport: one workspace shared by
 * every session (calls on one path are serialised by the workspace, so no update is lost), a
 * session per `initialize` (`Mcp-Session-Id`), SSE responses with resumability, DELETE to end a
 * session. Host and Origin are checked against an allow-list (403) and an optional bearer token (401).
 */
export function serveMcpHttp(
  ws: Workspace,
  set: Toolset,
  options: McpHttpOptions,
  early?: EarlyHttp,
): Promise<McpHttpServer> {
  const withGuidance = { instructions: set.instructions, ...options };
  return serveMcpSessions(
    (logReady) => createMcpServer(ws, set, { ...serverOptions(withGuidance), logReady }),
    withGuidance,
    early,
  );
}

/** The same server without --root: each session serves its client's first root (see createRootsMcpServer), one workspace per folder. */
export function serveMcpHttpRoots(
  pool: WorkspacePool,
  options: McpHttpOptions,
  early?: EarlyHttp,
): Promise<McpHttpServer> {
  return serveMcpSessions(
    (logReady) => createRootsMcpServer(pool, { ...serverOptions(options), logReady }),
    options,
    early,
  );
}

function serverOptions(options: McpHttpOptions): McpServerOptions {
  return {
    ...(options.version !== undefined ? { version: options.version } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
  };
}

/**
 * Serve sessions on the endpoint `early` already listens on (the CLI's, which answered the first
 * initialize requests before the SDK loaded), or on a new one.
 */
async function serveMcpSessions(
  makeServer: (logReady: Promise<void>) => McpServerHandle,
  options: McpHttpOptions,
  early?: EarlyHttp,
): Promise<McpHttpServer> {
  const sessions = new SessionTable(
    options.maxSessions ?? SESSION_DEFAULTS.maxSessions,
    options.idleMs ?? SESSION_DEFAULTS.idleMs,
  );
  const replay = new ReplayBudget(options.replayBytesTotal ?? REPLAY_DEFAULTS.totalBytes);
  const replayLimits = { maxBytes: options.replayBytesPerSession ?? REPLAY_DEFAULTS.maxBytes };
  // Sessions the early endpoint answered, opened in the SDK on their first later request.
  const adopting = new Map<string, Promise<HttpSession>>();
  const listening =
    early ??
    (await listenEarly(
      { host: options.host ?? '127.0.0.1', port: options.port },
      options,
      options.instructions,
      sessions.maxSessions,
    ));
  const { host, port, server: http } = listening;
  const hosts = allowedHostNames(host, options.allowedHosts ?? []);
  listening.handOver((req, res, body) => {
    handle(req, res, body).catch((error: unknown) => {
      if (!res.headersSent)
        reply(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  // Early sessions whose client never came back are forgotten like idle ones.
  const forgetEarly = setInterval(
    () => {
      for (const [id, answered] of listening.sessions)
        if (Date.now() - answered.answeredAt > sessions.idleMs) listening.sessions.delete(id);
    },
    Math.max(50, Math.min(sessions.idleMs / 2, 60_000)),
  );
  forgetEarly.unref();

  /**
   * Room for one more session, counting those the early endpoint answered and no request has
   * taken up since: they are the least recently used of all, so they go first.
   */
  function makeRoom(): boolean {
    if (sessions.size + listening.sessions.size < sessions.maxSessions) return true;
    for (const id of listening.sessions.keys()) {
      if (adopting.has(id)) continue;
      listening.sessions.delete(id);
      return true;
    }
    return sessions.makeRoom();
  }

  async function handle(req: IncomingMessage, res: ServerResponse, read?: unknown): Promise<void> {
    const refusal = checkRequest(req, hosts, port, options);
    if (refusal) return reply(res, refusal.status, refusal.message, refusal.headers);
    const id = req.headers['mcp-session-id'];
    const unfit = req.method === 'POST' ? checkPost(req) : null;
    if (unfit) return refuse(res, unfit);
    const body = read ?? (req.method === 'POST' ? await readJson(req) : undefined);
    if (isRefusal(body)) return refuse(res, body);
    // A session being adopted is listed once its initialize is replayed, before the server has read
    // it: a request that went ahead then would meet a server that knows none of the client's capabilities.
    let session =
      typeof id === 'string'
        ? adopting.has(id)
          ? await adopting.get(id)
          : (sessions.get(id) ?? (await adopt(id)))
        : undefined;
    let sessionId = typeof id === 'string' ? id : '';
    if (!session) {
      if (id !== undefined) return reply(res, 404, 'Session not found', {}, SESSION_NOT_FOUND);
      if (req.method !== 'POST' || !isInitializeRequest(body))
        return reply(res, 400, 'no session: send initialize first');
      if (!makeRoom()) return reply(res, 503, 'every session is busy: try again shortly', { 'Retry-After': '1' });
      sessionId = randomUUID();
      session = open(sessionId);
    }
    const current = session;
    current.active++;
    sessions.touch(sessionId, current);
    res.once('close', () => {
      current.active--;
      if (sessions.get(sessionId) === current) sessions.touch(sessionId, current);
      // an initialize the SDK refused opened no session
      if (current.transport.sessionId === undefined) void sessions.end(sessionId);
    });
    const opensStream = req.method === 'GET';
    await bridgeRequest(
      current.transport,
      req,
      res,
      body,
      `http://${req.headers.host ?? 'localhost'}${req.url ?? MCP_PATH}`,
      (status) => {
        if (opensStream && status === 200) current.streamOpened();
      },
    );
  }

  function open(sessionId: string): HttpSession {
    let streamOpened!: () => void;
    const server = makeServer(
      new Promise<void>((resolve) => {
        streamOpened = resolve;
      }),
    );
    const events = new SessionEventStore(replayLimits, replay);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: events,
      onsessionclosed: (sid) => {
        void sessions.end(sid);
      },
    });
    const session: HttpSession = { transport, server, streamOpened, events, lastSeen: Date.now(), active: 0 };
    transport.onclose = () => {
      void sessions.end(sessionId);
    };
    sessions.touch(sessionId, session);
    void server.connect(transport);
    return session;
  }

  /** A session the early endpoint answered: its initialize goes to a new SDK session under the same id, the answer dropped. */
  function adopt(id: string): Promise<HttpSession | undefined> {
    const answered = listening.sessions.get(id);
    if (answered === undefined) return Promise.resolve(undefined);
    let adopted = adopting.get(id);
    if (!adopted) {
      adopted = (async () => {
        makeRoom();
        const session = open(id);
        for (const body of [answered.initialize, ...answered.notifications]) {
          const replayed = await session.transport.handleRequest(
            new Request(endpointUrl(host, port), {
              method: 'POST',
              headers: {
                'Content-Type': 'application/json',
                Accept: 'application/json, text/event-stream',
                ...(body === answered.initialize
                  ? {}
                  : { 'mcp-session-id': id, 'mcp-protocol-version': protocolOf(answered.initialize) }),
              },
            }),
            { parsedBody: body },
          );
          await replayed.body?.cancel().catch(() => {});
        }
        listening.sessions.delete(id);
        return session;
      })();
      adopting.set(id, adopted);
      void adopted.finally(() => adopting.delete(id)).catch(() => {});
    }
    return adopted;
  }

  return {
    url: listening.url,
    port,
    sessionCount: () => sessions.size,
    replayBytes: () => replay.bytes,
    close: async () => {
      clearInterval(forgetEarly);
      await sessions.close();
      // a client's idle keep-alive socket would otherwise hold close() for the socket timeout (5 s)
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}

/** The protocol version an initialize request asked for, as later requests name it in their header. */
function protocolOf(initialize: unknown): string {
  return negotiatedVersion((initialize as { params?: { protocolVersion?: unknown } }).params?.protocolVersion);
}
