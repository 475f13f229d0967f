/** How `sandpit mcp` reads stdio (kept apart from the transport so the public types need no MCP SDK or DOM types). */
export interface StdioFramerOptions {
  /** largest message in bytes (default 64 MiB); a bigger one is answered with an error and dropped */
  maxMessageBytes?: number;
}
