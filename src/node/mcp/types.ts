import type { Toolset } from '../../toolsets/index.js';
import type { Workspace } from '../../workspace-core.js';
import type { McpLogHub } from './log.js';

/** How {@link createMcpServer} serves. */
export interface McpServerOptions {
  /** the version told to clients */
  version?: string;
  /** where start-up warnings, snapshot failures and task exits come from, sent as log messages */
  log?: McpLogHub;
  /**
   * the guidance sent as the initialize answer's `instructions` (default: the toolset's own; a
   * server that follows the client's roots has no toolset yet, so it is told)
   */
  instructions?: string;
  /** how long an elicitation may wait for the person (default 5 minutes) */
  elicitTimeoutMs?: number;
  /**
   * Log messages wait for this after initialize: over Streamable HTTP, the session's standalone
   * SSE stream (messages sent before it opens have nowhere to go). Default: none, send at once.
   */
  logReady?: Promise<unknown>;
}

/**
 * The MCP server {@link createMcpServer} makes, as a host drives it: connect it to any transport of
 * the MCP SDK, close it. Declared here rather than as the SDK's `Server`, whose transport types need
 * the DOM library, so `sandpit-workspace/node` compiles without it.
 */
export interface McpServerHandle {
  /** Start serving over `transport` (an MCP SDK `Transport`, such as `StdioServerTransport`). */
  connect(transport: unknown): Promise<void>;
  /** Stop serving and close the transport. */
  close(): Promise<void>;
  /** Called once the connection has closed. */
  onclose?: (() => void) | undefined;
}

/** What a server serves: a workspace and the toolset it offers. */
export interface ServedWorkspace {
  /** the workspace the server's tools act on */
  ws: Workspace;
  /** the toolset it offers, with its wire envelope */
  set: Toolset;
}
