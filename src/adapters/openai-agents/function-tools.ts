import { tool, type FunctionTool } from '@openai/agents';
import { fromStrictArgs, toStrictSchema } from '../../tools/schema/strict-schema.js';
import {
  callOrThrow,
  offeredTools,
  SandpitToolCallError,
  type AdapterOptions,
  type ToolHost,
} from '../shared/tool-host.js';

/** A workspace tool as an Agents SDK function tool. */
export type SandpitFunctionTool = FunctionTool<unknown, any, unknown>;

// What the model reads when something other than the workspace failed (the SDK's own default is as terse).
const UNEXPECTED = 'The tool failed unexpectedly; nothing more is known. Try again, or another way.';

/**
 * The workspace's tools as Agents SDK function tools (`new Agent({ tools })`), in strict mode:
 * each schema is made strict (optional arguments become nullable) and a call's nulls are turned
 * back before the workspace validates it. A refused call throws SandpitToolCallError inside the
 * SDK, whose errorFunction hands the model the code, message, problems and hint.
 */
export async function sandpitFunctionTools(
  workspace: ToolHost,
  options: AdapterOptions = {},
): Promise<SandpitFunctionTool[]> {
  return (await offeredTools(workspace, options)).map((info) => {
    const strict = toStrictSchema(info.input_schema);
    return tool({
      name: info.name,
      description: info.description,
      parameters: {
        type: 'object',
        properties: strict.properties ?? {},
        required: [...(strict.required ?? [])],
        additionalProperties: false,
      },
      strict: true,
      execute: (input, _context, details) =>
        callOrThrow(workspace, options, info.name, fromStrictArgs(info.input_schema, input), details?.signal),
      errorFunction: (_context, error) => (error instanceof SandpitToolCallError ? error.message : UNEXPECTED),
    });
  });
}
