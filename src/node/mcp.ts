import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Toolset } from '../toolsets/index.js';
import type { Workspace } from '../workspace-core.js';
import { toCallResult } from './mcp-content.js';

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
import type { StdioFramerOptions } from './mcp-framing.js';
import { StdioFramedTransport } from './mcp-stdio.js';

/**
 * An MCP server (not yet connected) offering a workspace's toolset: tools/list gives each tool's
 * title, argument and result schemas and annotations, and tools/call returns the result object
 * (or the error object, with isError) as structuredContent, beside the envelope as the toolset
 * presents it as text for clients that read only text. A tool failure is a result the model
 * reads, never a protocol error.
 */
export function createMcpServer(ws: Workspace, set: Toolset, version = '0.0.0'): McpServerHandle {
  const server = new Server({ name: 'sandpit', version }, { capabilities: { tools: {}, logging: {} } });
  const listing = set.toMcp();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const envelope = await ws.call(request.params.name, request.params.arguments ?? {});
    return toCallResult(envelope, set.present);
  });
  return server;
}

/** Serve over stdin/stdout until the client goes away, then close the workspace (ending its tasks). */
export async function serveMcpStdio(ws: Workspace, set: Toolset, framing: StdioFramerOptions = {}): Promise<void> {
  const server = createMcpServer(ws, set, packageVersion());
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(new StdioFramedTransport(process.stdin, process.stdout, framing));
  await closed;
  await server.close().catch(() => {});
  await ws.close();
}

/** This package's version, as the server tells clients. */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
