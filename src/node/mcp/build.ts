import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode as RpcCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toToolError } from '../../fs/tool-error.js';
import type { Toolset } from '../../toolsets/index.js';
import { toCallResult } from './content.js';
import { discoverError, requestedVersion, SERVER_CAPABILITIES } from './capabilities.js';
import { mcpCallOptions, type RequestSender } from './call.js';
import { serveResources } from './resources.js';
import type { McpServerOptions, ServedWorkspace } from './types.js';

// Apart from mcp.ts, so the declarations sandpit/node ships never name the SDK's types (they need the DOM library).
/**
 * The server around a workspace that `current` gives (fixed, or the one the client's roots
 * name): what {@link createMcpServer} and the roots-following server share. `setup` runs before
 * the server connects, to add handlers of its own.
 */
export function buildMcpServer(
  current: (request: RequestSender) => Promise<ServedWorkspace>,
  options: McpServerOptions,
  setup?: (server: Server) => void,
): Server {
  const server = new Server(
    { name: 'sandpit', version: options.version ?? '0.0.0' },
    {
      capabilities: { ...SERVER_CAPABILITIES, resources: { ...SERVER_CAPABILITIES.resources } },
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );
  const listings = new WeakMap<Toolset, unknown[]>();
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const { set } = await current(extra).catch((error: unknown) => {
      throw new McpError(RpcCode.InvalidRequest, toToolError(error).message);
    });
    if (!listings.has(set)) listings.set(set, set.toMcp());
    return { tools: listings.get(set) as ReturnType<Toolset['toMcp']> };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    let served: ServedWorkspace;
    try {
      served = await current(extra);
    } catch (error) {
      return toCallResult(
        { ok: false, tool: request.params.name, error: toToolError(error).toJSON() },
        (envelope) => envelope as never,
      );
    }
    const { ws, set } = served;
    const canElicit = server.getClientCapabilities()?.elicitation !== undefined;
    const envelope = await ws.call(
      request.params.name,
      request.params.arguments ?? {},
      mcpCallOptions(extra, canElicit, options.elicitTimeoutMs),
    );
    return toCallResult(envelope, set.present);
  });
  // server/discover once the early stdio has handed over: the same answer it gives.
  server.fallbackRequestHandler = async (request) => {
    if (request.method !== 'server/discover') throw new McpError(RpcCode.MethodNotFound, 'Method not found');
    const { code, message, data } = discoverError(requestedVersion(request.params));
    throw new McpError(code, message, data);
  };
  const stopResources = serveResources(server, async (extra) => (await current(extra)).ws);
  let detach: (() => void) | undefined;
  let closed = false;
  server.oninitialized = () => {
    const log = options.log;
    if (!log) return;
    const attach = () => {
      if (!closed) detach = log.attach(server, () => server.transport?.sessionId);
    };
    if (options.logReady) void options.logReady.then(attach, () => {});
    else attach();
  };
  server.onclose = () => {
    closed = true;
    detach?.();
    stopResources();
  };
  setup?.(server);
  return server;
}
