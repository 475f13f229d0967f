import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Toolset } from '../../toolsets/index.js';
import type { Workspace } from '../../workspace-core.js';
import { SessionEventStore } from './events.js';
import { createMcpServer, type McpServerHandle, type McpServerOptions } from './server.js';
import { createRootsMcpServer, type WorkspacePool } from './roots.js';
import type { McpLogHub } from './log.js';
import { listenEarly, type EarlyHttp } from './http-early.js';
import {
  allowedHostNames,
  checkRequest,
  endpointUrl,
  MCP_PATH,
  readJson,
  reply,
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
  /** Close every session and stop listening (the workspace stays open: its owner closes it). */
  close(): Promise<void>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  /** the client opened its standalone SSE stream, where log messages go */
  streamOpened: () => void;
  server: McpServerHandle;
  lastSeen: number;
  active: number;
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
  const idleMs = options.idleMs ?? 30 * 60_000;
  const sessions = new Map<string, Session>();
  // Sessions the early endpoint answered, opened in the SDK on their first later request.
  const adopting = new Map<string, Promise<Session>>();
  const listening =
    early ??
    (await listenEarly({ host: options.host ?? '127.0.0.1', port: options.port }, options, options.instructions));
  const { host, port, server: http } = listening;
  const hosts = allowedHostNames(host, options.allowedHosts ?? []);
  listening.handOver((req, res, body) => {
    handle(req, res, body).catch((error: unknown) => {
      if (!res.headersSent)
        reply(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (session.active === 0 && now - session.lastSeen > idleMs) void end(id);
    },
    Math.max(50, Math.min(idleMs / 2, 60_000)),
  );
  sweep.unref();

  async function end(id: string): Promise<void> {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  }

  async function handle(req: IncomingMessage, res: ServerResponse, read?: unknown): Promise<void> {
    const refusal = checkRequest(req, hosts, port, options);
    if (refusal) return reply(res, refusal.status, refusal.message, refusal.headers);
    const id = req.headers['mcp-session-id'];
    const body = read ?? (req.method === 'POST' ? await readJson(req) : undefined);
    if (body instanceof Error) return reply(res, 400, body.message);
    // A session being adopted is listed once its initialize is replayed, before the server has read
    // it: a request that went ahead then would meet a server that knows none of the client's capabilities.
    let session =
      typeof id === 'string'
        ? adopting.has(id)
          ? await adopting.get(id)
          : (sessions.get(id) ?? (await adopt(id)))
        : undefined;
    if (!session) {
      if (id !== undefined) return reply(res, 404, 'unknown or expired session: initialize again');
      if (req.method !== 'POST' || !isInitializeRequest(body))
        return reply(res, 400, 'no session: send initialize first');
      session = open(randomUUID());
    }
    session.active++;
    session.lastSeen = Date.now();
    res.once('close', () => {
      session.active--;
      session.lastSeen = Date.now();
    });
    const opensStream = req.method === 'GET';
    await bridgeRequest(
      session.transport,
      req,
      res,
      body,
      `http://${req.headers.host ?? 'localhost'}${req.url ?? MCP_PATH}`,
      (status) => {
        if (opensStream && status === 200) session.streamOpened();
      },
    );
  }

  function open(sessionId: string): Session {
    let streamOpened!: () => void;
    const server = makeServer(
      new Promise<void>((resolve) => {
        streamOpened = resolve;
      }),
    );
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: new SessionEventStore(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, session);
      },
      onsessionclosed: (sid) => {
        void end(sid);
      },
    });
    const session: Session = { transport, server, streamOpened, lastSeen: Date.now(), active: 0 };
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    void server.connect(transport);
    return session;
  }

  /** A session the early endpoint answered: its initialize goes to a new SDK session under the same id, the answer dropped. */
  function adopt(id: string): Promise<Session | undefined> {
    const answered = listening.sessions.get(id);
    if (answered === undefined) return Promise.resolve(undefined);
    let adopted = adopting.get(id);
    if (!adopted) {
      adopted = (async () => {
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
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(end));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
    },
  };
}

/** The protocol version an initialize request asked for, as later requests name it in their header. */
function protocolOf(initialize: unknown): string {
  return negotiatedVersion((initialize as { params?: { protocolVersion?: unknown } }).params?.protocolVersion);
}
