import { dynamicTool, jsonSchema } from 'ai';
import { callOrThrow, offeredTools, type AdapterOptions, type ToolHost } from '../shared/tool-host.js';

/** A workspace tool as an AI SDK tool: its input checked by the workspace, its output the tool's result. */
export type SandpitAiTool = ReturnType<typeof dynamicTool>;

/**
 * The workspace's tools as AI SDK tools, keyed by name, for `generateText`, `streamText` and
 * `ToolLoopAgent`'s `tools`. Each runs through the workspace's `call` (confined, validated,
 * snapshotted); a refused call throws SandpitToolCallError, which the SDK turns into a `tool-error`
 * and sends to the model as error text (code, message, problems, hint), so the loop goes on and
 * the model can correct itself. The tools are `dynamic`: their schemas are known at run time.
 */
export async function sandpitTools(
  workspace: ToolHost,
  options: AdapterOptions = {},
): Promise<Record<string, SandpitAiTool>> {
  const tools: Record<string, SandpitAiTool> = {};
  for (const info of await offeredTools(workspace, options)) {
    tools[info.name] = dynamicTool({
      ...(info.title ? { title: info.title } : {}),
      description: info.description,
      // Sandpit's schemas are plain JSON Schema objects; the workspace validates every call itself.
      // (Typed by the SDK's own parameter: with @types/json-schema installed, its JSONSchema7 names
      // `type` by a closed list that Sandpit's open JsonSchema type does not narrow to.)
      inputSchema: jsonSchema(info.input_schema as Parameters<typeof jsonSchema>[0]),
      execute: (input, { abortSignal }) => callOrThrow(workspace, options, info.name, input, abortSignal),
    });
  }
  return tools;
}
