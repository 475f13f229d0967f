/**
 * What `sandpit mcp` tells a client in its initialize answer. Kept free of imports so the early
 * answer (see mcp-fast-start.ts) and the SDK server say exactly the same; a test compares the
 * protocol versions with the SDK's own list.
 */
export const SERVER_CAPABILITIES = {
  tools: {},
  logging: {},
  resources: { subscribe: true, listChanged: false },
} as const;

/** The protocol versions the SDK server negotiates, newest first (the SDK's SUPPORTED_PROTOCOL_VERSIONS). */
export const PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

/** The version the server answers: the client's when supported, else the newest. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && PROTOCOL_VERSIONS.includes(requested) ? requested : PROTOCOL_VERSIONS[0]!;
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
