import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { SessionEventStore } from './events.js';
import type { McpServerHandle } from './types.js';

/** Defaults of the session table: how many sessions at once, and how long an idle one is kept. */
export const SESSION_DEFAULTS = { maxSessions: 256, idleMs: 30 * 60_000 } as const;

/** One Streamable HTTP session: its transport, its server and its replay buffer. */
export interface HttpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  /** the client opened its standalone SSE stream, where log messages go */
  streamOpened: () => void;
  server: McpServerHandle;
  events: SessionEventStore;
  lastSeen: number;
  /** requests of this session not yet answered */
  active: number;
}

/**
 * The open sessions, least recently used first, at most `maxSessions`. A client killed without
 * DELETE leaves its session behind, and a flood of initializes would keep them all: a new session
 * over the cap ends the least recently used idle one (its next request is answered 404 "Session
 * not found", as the SDK answers any unknown session), and sessions idle longer than `idleMs` are
 * ended by a sweep.
 */
export class SessionTable {
  private readonly live = new Map<string, HttpSession>();
  private readonly sweep: ReturnType<typeof setInterval>;

  constructor(
    readonly maxSessions: number,
    readonly idleMs: number,
  ) {
    this.sweep = setInterval(
      () => {
        const now = Date.now();
        for (const [id, session] of this.live)
          if (session.active === 0 && now - session.lastSeen > idleMs) void this.end(id);
      },
      Math.max(50, Math.min(idleMs / 2, 60_000)),
    );
    this.sweep.unref();
  }

  get size(): number {
    return this.live.size;
  }

  get(id: string): HttpSession | undefined {
    return this.live.get(id);
  }

  /** Every session's replay buffer together, in bytes. */
  replayBytes(): number {
    let bytes = 0;
    for (const session of this.live.values()) bytes += session.events.bytes;
    return bytes;
  }

  /**
   * Make room for one more session: false when the table is full of sessions with a request in
   * flight (a new one is then refused rather than ending work under way).
   */
  makeRoom(): boolean {
    if (this.live.size < this.maxSessions) return true;
    for (const [id, session] of this.live) {
      if (session.active > 0) continue;
      void this.end(id);
      return true;
    }
    return false;
  }

  /** Record use: the session moves to the most recently used end. */
  touch(id: string, session: HttpSession): void {
    session.lastSeen = Date.now();
    this.live.delete(id);
    this.live.set(id, session);
  }

  /** End a session: it leaves the table at once, then its transport and server close. */
  async end(id: string): Promise<void> {
    const session = this.live.get(id);
    if (!session) return;
    this.live.delete(id);
    session.events.dispose();
    await session.transport.close().catch(() => {});
    await session.server.close().catch(() => {});
  }

  /** End every session and stop sweeping. */
  async close(): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all([...this.live.keys()].map((id) => this.end(id)));
  }
}
