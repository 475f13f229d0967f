import type { ToolErrorBody } from './errors.js';

/** The one shape every tool call returns. */
export type Envelope<R = unknown> =
  | { ok: true; tool: string; result: R }
  | { ok: false; tool: string; error: ToolErrorBody };
