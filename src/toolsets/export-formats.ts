import type { JsonSchema, ToolDefinition } from '../tools/schema/define.js';
import { toStrictSchema } from '../tools/schema/strict-schema.js';

/** OpenAI refuses a function description longer than this (Chat Completions and Responses). */
export const OPENAI_DESCRIPTION_LIMIT = 1024;

/** A tool's argument schema as the function-calling APIs take it: an object at the root. */
export type ObjectSchema = JsonSchema & {
  /** always `'object'` */
  type: 'object';
  /** the properties that must be given */
  required?: string[];
};

/** A tool as OpenAI's Chat Completions API takes it (assigns to the SDK's `ChatCompletionTool`). */
export interface OpenAITool {
  /** always `'function'` */
  type: 'function';
  /** the function the model may call */
  function: {
    /** the tool's name */
    name: string;
    /** what the model reads (cut to OpenAI's limit) */
    description: string;
    /** the JSON Schema of its arguments */
    parameters: ObjectSchema;
    /** strict mode: the schema is in OpenAI's strict subset */
    strict?: boolean;
  };
}

/** A tool as OpenAI's Responses API takes it: flat, `strict` always stated (the SDK's `FunctionTool`). */
export interface OpenAIResponsesTool {
  /** always `'function'` */
  type: 'function';
  /** the tool's name */
  name: string;
  /** what the model reads (cut to OpenAI's limit) */
  description: string;
  /** the JSON Schema of its arguments */
  parameters: ObjectSchema;
  /** strict mode: the schema is in OpenAI's strict subset */
  strict: boolean;
}

/** A tool as Anthropic's Messages API takes it (assigns to the SDK's `Tool`). */
export interface AnthropicTool {
  /** the tool's name */
  name: string;
  /** what the model reads */
  description: string;
  /** the JSON Schema of its arguments */
  input_schema: ObjectSchema;
}

/** Which OpenAI API, and whether its schemas follow strict mode. */
export interface OpenAIExportOptions {
  /** `chat` (default): Chat Completions' nested `function`; `responses`: the Responses API's flat tool */
  api?: 'chat' | 'responses';
  /** schemas strict mode accepts (every property required, optional ones nullable); the workspace reads the nulls as absent */
  strict?: boolean;
}

/**
 * A description that fits `limit`: unchanged when it does, else cut at the last sentence (or
 * word) that fits, marked with an ellipsis. Long guidance belongs in a toolset's instructions;
 * this only keeps an oversized manifest description from making the API refuse every tool.
 */
export function fitDescription(text: string, limit = OPENAI_DESCRIPTION_LIMIT): string {
  if (text.length <= limit) return text;
  const room = text.slice(0, limit - 1);
  const sentence = Math.max(room.lastIndexOf('. '), room.lastIndexOf('.\n'));
  const cut = sentence > limit / 2 ? sentence + 1 : Math.max(room.lastIndexOf(' '), limit / 2);
  return `${room.slice(0, cut).trimEnd()}…`;
}

// A fresh copy with an object type and a mutable `required`, as the SDK types declare them.
function objectSchema(schema: JsonSchema): ObjectSchema {
  const { required, ...rest } = schema;
  return { ...rest, type: 'object', ...(required ? { required: [...required] } : {}) };
}

function parametersOf(tool: ToolDefinition, strict: boolean): ObjectSchema {
  return objectSchema(strict ? toStrictSchema(tool.schema) : tool.schema);
}

/** The tools in OpenAI's function-calling format (Chat Completions by default), from the schemas `call` validates with. */
export function toOpenAI(
  tools: readonly ToolDefinition[],
  options?: OpenAIExportOptions & { api?: 'chat' },
): OpenAITool[];
export function toOpenAI(
  tools: readonly ToolDefinition[],
  options: OpenAIExportOptions & { api: 'responses' },
): OpenAIResponsesTool[];
export function toOpenAI(
  tools: readonly ToolDefinition[],
  options?: OpenAIExportOptions,
): OpenAITool[] | OpenAIResponsesTool[];
export function toOpenAI(
  tools: readonly ToolDefinition[],
  options: OpenAIExportOptions = {},
): OpenAITool[] | OpenAIResponsesTool[] {
  const strict = options.strict === true;
  if (options.api === 'responses') {
    return tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: fitDescription(t.description),
      parameters: parametersOf(t, strict),
      strict,
    }));
  }
  return tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      description: fitDescription(t.description),
      parameters: parametersOf(t, strict),
      ...(strict ? { strict: true } : {}),
    },
  }));
}

/** The tools in OpenAI's Responses API format. */
export function toOpenAIResponses(
  tools: readonly ToolDefinition[],
  options: { strict?: boolean } = {},
): OpenAIResponsesTool[] {
  return toOpenAI(tools, { ...options, api: 'responses' });
}

/** The tools in Anthropic's tool-use format (Anthropic sets no description limit). */
export function toAnthropic(tools: readonly ToolDefinition[]): AnthropicTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: objectSchema(t.schema) }));
}
