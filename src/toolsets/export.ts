import { toolErrorSchema } from '../contract/index.js';
import type { JsonSchema, ToolDefinition } from '../tools/define.js';

/** A tool as OpenAI's Chat Completions and Responses-style function calling take it. */
export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/** A tool as Anthropic's Messages API takes it. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

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
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: McpAnnotations;
}

/**
 * The MCP annotations of a tool, from the facts it declares. A tool that declares none (a
 * third-party definition) is described by the one thing always known: whether it mutates.
 */
export function annotationsOf(tool: ToolDefinition): McpAnnotations {
  const facts = tool.annotations ?? { readOnly: !tool.mutates, destructive: tool.mutates, idempotent: !tool.mutates, openWorld: false };
  return {
    ...(tool.title ? { title: tool.title } : {}),
    readOnlyHint: facts.readOnly,
    destructiveHint: !facts.readOnly && facts.destructive,
    idempotentHint: facts.idempotent,
    openWorldHint: facts.openWorld,
  };
}

/** The tools in OpenAI's function-calling format, from the same schemas `call` validates with. */
export function toOpenAI(tools: readonly ToolDefinition[]): OpenAITool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.schema } }));
}

/** The tools in Anthropic's tool-use format. */
export function toAnthropic(tools: readonly ToolDefinition[]): AnthropicTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema }));
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
    ...(t.resultSchema?.type === 'object' ? { outputSchema: { type: 'object' as const, anyOf: [t.resultSchema, toolErrorSchema] } } : {}),
    annotations: annotationsOf(t),
  }));
}
