/** MCP's log levels (RFC 5424's, lowest first), spelled out so the declarations need no SDK types. */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** One log line as MCP's `notifications/message` carries it. */
export interface McpLogEntry {
  /** how serious it is */
  level: LoggingLevel;
  /** where it comes from: `manifests`, `snapshots`, `tasks` */
  logger: string;
  /** the message itself, plain JSON */
  data: unknown;
}

/** What the hub needs of a connected server: the SDK Server's own sender (it filters by the session's `logging/setLevel`). */
export interface LogSink {
  /** Send one log message to the session (MCP `notifications/message`). */
  sendLoggingMessage(params: McpLogEntry, sessionId?: string): Promise<void>;
}

/**
 * What the server would otherwise only print, sent to every connected session as log messages:
 * manifest warnings found at start (kept, so a session that connects later still hears them),
 * snapshot failures and background task exits as they happen.
 */
export class McpLogHub {
  private readonly sinks = new Map<LogSink, () => string | undefined>();
  private readonly startup: McpLogEntry[] = [];
  /** what happened before any session attached (a stdio server answers its first calls before it loads) */
  private unheard: McpLogEntry[] | null = [];

  /** A warning from start-up: every session gets it when it connects. */
  atStart(entry: McpLogEntry): void {
    this.startup.push(entry);
    this.send(entry);
  }

  /** Whether start-up left warnings a session must hear (the server then loads at once to send them). */
  get hasStartupNews(): boolean {
    return this.startup.length > 0;
  }

  /** Send to every connected session now (kept for the first session while none has connected). */
  emit(entry: McpLogEntry): void {
    if (this.sinks.size === 0) this.unheard?.push(entry);
    this.send(entry);
  }

  private send(entry: McpLogEntry): void {
    for (const [sink, session] of this.sinks) void sink.sendLoggingMessage(entry, session()).catch(() => {});
  }

  /** A session is ready (initialized): it hears the start-up warnings, then everything new; the returned function detaches it. */
  attach(sink: LogSink, sessionId: () => string | undefined = () => undefined): () => void {
    this.sinks.set(sink, sessionId);
    for (const entry of this.startup) void sink.sendLoggingMessage(entry, sessionId()).catch(() => {});
    // The first session also hears what happened before it: a snapshot failure, a task's exit.
    for (const entry of this.unheard ?? []) void sink.sendLoggingMessage(entry, sessionId()).catch(() => {});
    this.unheard = null;
    return () => {
      this.sinks.delete(sink);
    };
  }
}
