import type { ToolErrorBody } from './errors.js';

/** The one shape every tool call returns. */
export type Envelope<R = unknown> =
  | {
      /** the call succeeded */
      ok: true;
      /** the tool that was called */
      tool: string;
      /** the tool's result, as its result schema declares */
      result: R;
    }
  | {
      /** the call failed */
      ok: false;
      /** the tool that was called */
      tool: string;
      /** what went wrong and what to do next */
      error: ToolErrorBody;
    };
