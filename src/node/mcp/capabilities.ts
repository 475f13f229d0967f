import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/**
 * What `sandpit mcp` tells a client in its initialize answer: the early answers (fast-start.ts,
 * http-early.ts) and the SDK server are given these same capabilities, and negotiate the SDK's own
 * protocol versions. The bundled CLI reads those two constants from the SDK when it is built
 * (scripts/build-cli.mjs), so its early chunk answers without loading the SDK's schemas.
 */
export const SERVER_CAPABILITIES = {
  tools: {},
  logging: {},
  resources: { subscribe: true, listChanged: false },
} as const;

/** The protocol versions the SDK server negotiates, newest first: the SDK's SUPPORTED_PROTOCOL_VERSIONS. */
export const PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** The version the server answers, as the SDK server picks it: the client's when supported, else the SDK's latest. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * The initialize result, as the early answers and the SDK server give it: `instructions` only
 * when the toolset has guidance (the SDK leaves an empty string out too).
 */
export function initializeResult(requested: unknown, version: string, instructions = ''): Record<string, unknown> {
  return {
    protocolVersion: negotiatedVersion(requested),
    capabilities: SERVER_CAPABILITIES,
    serverInfo: { name: 'sandpit', version },
    ...(instructions ? { instructions } : {}),
  };
}

/** The JSON-RPC error code for a protocol version the server does not speak (MCP 2026-07-28). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * The answer to `server/discover`, the 2026-07-28 probe: this server speaks the handshake
 * versions only, so it answers as the MCP SDK's own server does for a version it does not serve,
 * `-32022` naming the versions it does; the SDK's client then falls back to `initialize`.
 */
export function discoverError(requested: unknown): { code: number; message: string; data: Record<string, unknown> } {
  const named = typeof requested === 'string' ? requested : undefined;
  return {
    code: UNSUPPORTED_PROTOCOL_VERSION,
    message: `Unsupported protocol version: ${named ?? 'none named'} (this server speaks ${PROTOCOL_VERSIONS.join(', ')}, negotiated by initialize)`,
    data: { supported: [...PROTOCOL_VERSIONS], ...(named !== undefined ? { requested: named } : {}) },
  };
}

/** The protocol version a request's `_meta` names (the 2026-07-28 per-request envelope). */
export function requestedVersion(params: unknown): unknown {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return meta?.['io.modelcontextprotocol/protocolVersion'];
}
