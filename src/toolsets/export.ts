import type { JsonSchema, ToolDefinition } from '../tools/define.js';

export {
  fitDescription, toAnthropic, toOpenAI, toOpenAIResponses, OPENAI_DESCRIPTION_LIMIT,
  type AnthropicTool, type ObjectSchema, type OpenAIExportOptions, type OpenAIResponsesTool, type OpenAITool,
} from './export-formats.js';

/** MCP's hints about what a tool does to its environment. */
export interface McpAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool as an MCP server lists it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: McpAnnotations;
}

// Mutating tools that only add (a folder, text at the end, a snapshot) never destroy what is there.
const ADDITIVE = new Set(['create_directory', 'append_file', 'snapshot']);
// Reading tools whose repeat gives the same answer and changes nothing either way.
const IDEMPOTENT = new Set(['create_directory']);
// Tools that reach past the workspace: a program may touch the network or other files.
const OPEN_WORLD = new Set(['run_command']);

/** The MCP annotations of a tool, from whether it mutates and what kind of change it makes. */
export function annotationsOf(tool: ToolDefinition): McpAnnotations {
  return {
    readOnlyHint: !tool.mutates,
    destructiveHint: tool.mutates && !ADDITIVE.has(tool.name),
    idempotentHint: !tool.mutates || IDEMPOTENT.has(tool.name),
    openWorldHint: OPEN_WORLD.has(tool.name),
  };
}

/** The tools as an MCP `tools/list` answer lists them, with annotations. */
export function toMcp(tools: readonly ToolDefinition[]): McpTool[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: { ...t.schema, type: 'object' },
    annotations: annotationsOf(t),
  }));
}
