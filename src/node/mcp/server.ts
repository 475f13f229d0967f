import type { Toolset } from '../../toolsets/index.js';
import type { Workspace } from '../../workspace-core.js';
import { packageVersion, type EarlyStart } from './fast-start.js';
import { buildMcpServer } from './build.js';
import type { McpServerHandle, McpServerOptions, ServedWorkspace } from './types.js';
import type { StdioFramerOptions } from './framing.js';
import { StdioFramedTransport } from './stdio.js';

export type { McpServerHandle, McpServerOptions, ServedWorkspace };

/**
 * An MCP server (not yet connected) offering a workspace's toolset: tools/list gives each tool's
 * title, argument and result schemas and annotations, and tools/call returns the result object
 * (or the error object, with isError) as structuredContent, beside the envelope as the toolset
 * presents it as text for clients that read only text. A tool failure is a result the model
 * reads, never a protocol error. The workspace's files are its resources.
 */
export function createMcpServer(ws: Workspace, set: Toolset, options: McpServerOptions = {}): McpServerHandle {
  const served = Promise.resolve({ ws, set });
  return buildMcpServer(() => served, { instructions: set.instructions, ...options });
}

/** Serve over stdin/stdout until the client goes away, then close the workspace (ending its tasks). */
export async function serveMcpStdio(
  ws: Workspace,
  set: Toolset,
  options: McpServerOptions & StdioFramerOptions = {},
  early?: EarlyStart,
): Promise<void> {
  const { maxMessageBytes, ...serverOptions } = options;
  await serveStdio(
    createMcpServer(ws, set, { version: packageVersion(), ...serverOptions }),
    early,
    maxMessageBytes === undefined ? {} : { maxMessageBytes },
  );
  await ws.close();
}

/**
 * Serve one server over stdin/stdout until the client goes away; `early` is the stdio that answered
 * initialize already. `onConnected` runs once the server can send requests of its own.
 */
export async function serveStdio(
  server: McpServerHandle,
  early?: EarlyStart,
  framing: StdioFramerOptions = {},
  onConnected?: () => void,
): Promise<void> {
  const io = early ? await early.ready : { input: process.stdin, output: process.stdout };
  const closed = new Promise<void>((resolve) => {
    const detach = server.onclose;
    server.onclose = () => {
      detach?.();
      resolve();
    };
    io.input.once('end', () => resolve());
  });
  await server.connect(new StdioFramedTransport(io.input, io.output, framing));
  onConnected?.();
  await closed;
  await server.close().catch(() => {});
}

export { packageVersion };
