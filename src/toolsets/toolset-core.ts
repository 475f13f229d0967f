import type { ToolDefinition } from '../tools/schema/define.js';
import type { Envelope } from '../contract/index.js';
import { canonicalTools } from './canonical.js';
import { runCommand } from '../tools/run-command.js';
import type { CoworkOptions } from './cowork.js';
import {
  toAnthropic,
  toMcp,
  toOpenAI,
  type AnthropicTool,
  type McpTool,
  type OpenAIExportOptions,
  type OpenAIResponsesTool,
  type OpenAITool,
} from './export.js';
import { toolsetInstructions } from './instructions.js';
import type { AnthropicNativeTool, NativeToolsetOptions, OpenAINativeTool } from './native/index.js';

/** The toolsets by name: the canonical table and each seed system's surface. */
export const TOOLSET_NAMES = ['canonical', 'file_manager', 'fs_process', 'cowork'] as const;
/** The name of a built-in toolset. */
export type ToolsetName = (typeof TOOLSET_NAMES)[number];
/**
 * The vendors' native toolsets: `openai` (the Responses API's apply_patch and shell) and
 * `anthropic` (the Messages API's text editor and bash), which runAgent sends as the API's own
 * tool types. Kept apart from TOOLSET_NAMES, whose toolsets all go out as function definitions.
 */
export const NATIVE_TOOLSET_NAMES = ['openai', 'anthropic'] as const;
/** The name of a vendor's native toolset. */
export type NativeToolsetName = (typeof NATIVE_TOOLSET_NAMES)[number];

/** Whether `name` is a native toolset's name. */
export function isNativeToolsetName(name: string): name is NativeToolsetName {
  return (NATIVE_TOOLSET_NAMES as readonly string[]).includes(name);
}

/** Whether `name` is a built-in toolset's name. */
export function isToolsetName(name: string): name is ToolsetName {
  return (TOOLSET_NAMES as readonly string[]).includes(name);
}

/** What `toolset()` needs beside the name: the host's process runner and the cowork options. */
export interface ToolsetOptions {
  /** the run_command that takes canonical's place and does the work of fs_process's and the vendors' shells (in Node, the one nodeTools builds over real processes) */
  runCommand?: ToolDefinition;
  /** cowork's artifact folder, relative to the workspace root */
  artifactDir?: string;
  /**
   * more tools joining the set (manifest tools, Node's task tools); a seed tool of the same name
   * wins, and a tool that names the toolsets offering it (`toolsets`) joins only those
   */
  extra?: readonly ToolDefinition[];
  /** anthropic: the text editor's `max_characters`, sent to the API and applied to every view */
  maxCharacters?: number;
  /** anthropic: seconds a bash command may run (default 120) */
  bashTimeoutSeconds?: number;
}

/** A named list of tool definitions, with its wire envelope and its export formats. */
export interface Toolset {
  /** the toolset's name */
  name: ToolsetName | NativeToolsetName;
  /** its tools */
  tools: ToolDefinition[];
  /** The envelope as this toolset's clients expect it: file_manager's `{ok, tool, results}`, else unchanged. */
  present(envelope: Envelope): Record<string, unknown>;
  /**
   * The toolset's long guidance for the model ('' when its descriptions say it all): too long for
   * a tool description (OpenAI's limit is 1,024 characters), so it belongs in the system prompt,
   * which the agent's `systemPrompt()` builds with it.
   */
  instructions: string;
  /** Chat Completions tools by default; `strict` for strict-mode schemas. */
  toOpenAI(options?: OpenAIExportOptions & { api?: 'chat' }): OpenAITool[];
  /** `{ api: 'responses' }`: the tools as OpenAI Responses API function tools. */
  toOpenAI(options: OpenAIExportOptions & { api: 'responses' }): OpenAIResponsesTool[];
  /** The tools for either OpenAI API, as `options.api` says. */
  toOpenAI(options?: OpenAIExportOptions): OpenAITool[] | OpenAIResponsesTool[];
  /** The tools as Anthropic Messages API tools. */
  toAnthropic(): AnthropicTool[];
  /** The tools as MCP `tools/list` entries. */
  toMcp(): McpTool[];
  /**
   * For a vendor's native toolset: the API whose built-in tool types it answers (`openai`: the
   * Responses API's apply_patch and shell; `anthropic`: the Messages API's text editor and bash).
   * Absent for toolsets that are sent as function definitions.
   */
  native?: 'openai' | 'anthropic';
  /** The native tools as that API's tool entries (absent unless `native`). */
  toNative?(): OpenAINativeTool[] | AnthropicNativeTool[];
}

/**
 * The toolsets' builders besides canonical's. {@link buildToolset} calls only the one its toolset
 * needs, so a host that loads them on demand (the CLI, see load.ts) gives just that one.
 */
export interface ToolsetBuilders {
  fileManagerTools?: () => ToolDefinition[];
  fsProcessTools?: (options: { runCommand?: ToolDefinition }) => ToolDefinition[];
  coworkTools?: (options: CoworkOptions) => ToolDefinition[];
  openaiTools?: (options: NativeToolsetOptions) => ToolDefinition[];
  anthropicTools?: (options: NativeToolsetOptions) => ToolDefinition[];
  openaiNativeTools?: () => OpenAINativeTool[];
  anthropicNativeTools?: (options: { maxCharacters?: number }) => AnthropicNativeTool[];
}

function need<T>(builder: T | undefined, name: string): T {
  if (!builder) throw new Error(`the ${name} toolset's module is not loaded`);
  return builder;
}

/** The named toolset, its own tools made by `builders` (see {@link ToolsetBuilders}). */
export function buildToolset(
  name: ToolsetName | NativeToolsetName,
  options: ToolsetOptions,
  builders: ToolsetBuilders,
): Toolset {
  const artifacts = options.artifactDir !== undefined ? { artifactDir: options.artifactDir } : {};
  const own =
    name === 'file_manager'
      ? need(builders.fileManagerTools, name)()
      : name === 'fs_process'
        ? need(builders.fsProcessTools, name)(options.runCommand ? { runCommand: options.runCommand } : {})
        : name === 'cowork'
          ? need(builders.coworkTools, name)(artifacts)
          : name === 'openai'
            ? need(builders.openaiTools, name)(nativeOptions(options))
            : name === 'anthropic'
              ? need(builders.anthropicTools, name)(nativeOptions(options))
              : canonicalTools.map((t) => (t === runCommand && options.runCommand ? options.runCommand : t));
  const names = new Set(own.map((t) => t.name));
  const joins = (t: ToolDefinition) => !names.has(t.name) && (t.toolsets === undefined || t.toolsets.includes(name));
  return assembleToolset(name, [...own, ...(options.extra ?? []).filter(joins)], builders);
}

function nativeOptions(options: ToolsetOptions): NativeToolsetOptions {
  return {
    ...(options.runCommand ? { runCommand: options.runCommand } : {}),
    ...(options.maxCharacters !== undefined ? { maxCharacters: options.maxCharacters } : {}),
    ...(options.bashTimeoutSeconds !== undefined ? { bashTimeoutSeconds: options.bashTimeoutSeconds } : {}),
  };
}

/** The API tool entries of a native toolset, or nothing for the others. */
function nativeOf(
  name: ToolsetName | NativeToolsetName,
  tools: ToolDefinition[],
  builders: ToolsetBuilders,
): Pick<Toolset, 'native' | 'toNative'> {
  if (name === 'openai') {
    const entries = need(builders.openaiNativeTools, name);
    return { native: 'openai', toNative: () => entries() };
  }
  if (name === 'anthropic') {
    const entries = need(builders.anthropicNativeTools, name);
    // The editor's max_characters travels with the tool, so the API entry says what views apply.
    const limit = (
      tools.find((t) => t.name === 'str_replace_based_edit_tool') as { maxCharacters?: number } | undefined
    )?.maxCharacters;
    return {
      native: 'anthropic',
      toNative: () => entries(limit !== undefined ? { maxCharacters: limit } : {}),
    };
  }
  return {};
}

/** A toolset over a given list of tools: its envelope, guidance and export formats. */
export function assembleToolset(
  name: ToolsetName | NativeToolsetName,
  tools: ToolDefinition[],
  builders: ToolsetBuilders,
): Toolset {
  return {
    ...nativeOf(name, tools, builders),
    name,
    tools,
    present: (envelope) => {
      const tool = tools.find((t) => t.name === envelope.tool);
      return tool?.present ? tool.present(envelope) : envelope;
    },
    instructions: toolsetInstructions(name),
    toOpenAI: ((options?: OpenAIExportOptions) => toOpenAI(tools, options)) as Toolset['toOpenAI'],
    toAnthropic: () => toAnthropic(tools),
    toMcp: () => toMcp(tools),
  };
}
