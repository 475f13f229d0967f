import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Toolset } from '../toolsets/index.js';
import type { Workspace } from '../workspace-core.js';
import { StdioFramedTransport, type StdioFramerOptions } from './mcp-stdio.js';

/**
 * An MCP server (not yet connected) offering a workspace's toolset: tools/list gives each tool's
 * JSON Schema and annotations, and tools/call returns the envelope, as the toolset presents it,
 * as the result text, with isError when it is not ok. A tool failure is a result the model
 * reads, never a protocol error.
 */
export function createMcpServer(ws: Workspace, set: Toolset, version = '0.0.0'): Server {
  const server = new Server({ name: 'sandpit', version }, { capabilities: { tools: {} } });
  const listing = set.toMcp();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const envelope = await ws.call(request.params.name, request.params.arguments ?? {});
    const shown = set.present(envelope);
    return { content: [{ type: 'text', text: JSON.stringify(shown) }], isError: shown.ok !== true };
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

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
