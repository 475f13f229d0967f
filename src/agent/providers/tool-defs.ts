import type { ToolDefinition, ToolInfo } from '../../tools/schema/define.js';

/**
 * The listed tools in the shape the toolset export reads. The export uses only the name, the
 * description and the schema, so the same `toOpenAI`/`toAnthropic` serve a worker's listing too.
 */
export function asDefinitions(tools: readonly ToolInfo[]): ToolDefinition[] {
  return tools.map(
    (t) => ({ name: t.name, description: t.description, schema: t.input_schema }) as unknown as ToolDefinition,
  );
}
