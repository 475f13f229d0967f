import { toolErrorSchema } from '../contract/index.js';
import type { JsonSchema, ToolDefinition } from '../tools/schema/define.js';

export {
  fitDescription,
  toAnthropic,
  toOpenAI,
  toOpenAIResponses,
  OPENAI_DESCRIPTION_LIMIT,
  type AnthropicTool,
  type ObjectSchema,
  type OpenAIExportOptions,
  type OpenAIResponsesTool,
  type OpenAITool,
} from './export-formats.js';

/** MCP's hints about what a tool does to its environment. */
export interface McpAnnotations {
  /** a short human-readable name */
  title?: string;
  /** changes nothing */
  readOnlyHint: boolean;
  /** may destroy or replace what is there */
  destructiveHint: boolean;
  /** a repeat changes nothing more */
  idempotentHint: boolean;
  /** reaches past the workspace */
  openWorldHint: boolean;
}

/** A tool as an MCP server lists it. */
export interface McpTool {
  /** the tool's name */
  name: string;
  /** a short human-readable name */
  title?: string;
  /** what the model reads */
  description: string;
  /** the JSON Schema of its arguments */
  inputSchema: JsonSchema & {
    /** always `'object'` */
    type: 'object';
  };
  /** the JSON Schema of a successful result */
  outputSchema?: JsonSchema & {
    /** always `'object'` */
    type: 'object';
  };
  /** what it does to its surroundings */
  annotations: McpAnnotations;
}

/**
 * The MCP annotations of a tool, from the facts it declares. A tool that declares none (a
 * third-party definition) is described by the one thing always known: whether it mutates.
 */
export function annotationsOf(tool: ToolDefinition): McpAnnotations {
  const facts = tool.annotations ?? {
    readOnly: !tool.mutates,
    destructive: tool.mutates,
    idempotent: !tool.mutates,
    openWorld: false,
  };
  return {
    ...(tool.title ? { title: tool.title } : {}),
    readOnlyHint: facts.readOnly,
    destructiveHint: !facts.readOnly && facts.destructive,
    idempotentHint: facts.idempotent,
    openWorldHint: facts.openWorld,
  };
}

/**
 * The tools as an MCP `tools/list` answer lists them: title, schemas of arguments and result,
 * annotations. structuredContent is the result, or the error object when `isError` is set, and
 * clients check it against outputSchema either way, so outputSchema admits both.
 */
export function toMcp(tools: readonly ToolDefinition[]): McpTool[] {
  return tools.map((t) => ({
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: { ...t.schema, type: 'object' },
    ...(t.resultSchema?.type === 'object'
      ? { outputSchema: { type: 'object' as const, anyOf: [t.resultSchema, toolErrorSchema] } }
      : {}),
    annotations: annotationsOf(t),
  }));
}
