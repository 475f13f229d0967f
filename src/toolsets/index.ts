import type { ToolDefinition } from '../tools/define.js';
import type { Envelope } from '../contract/index.js';
import { canonicalTools } from './canonical.js';
import { coworkTools } from './cowork.js';
import { toAnthropic, toMcp, toOpenAI, type AnthropicTool, type McpTool, type OpenAITool } from './export.js';
import { fileManagerTools } from './file-manager.js';
import { fsProcessTools } from './fs-process.js';

export { coworkTools, type CoworkOptions } from './cowork.js';
export { fileManager, fileManagerEnvelope, fileManagerTools } from './file-manager.js';
export { fsProcessTools } from './fs-process.js';
export { annotationsOf, toAnthropic, toMcp, toOpenAI, type AnthropicTool, type McpAnnotations, type McpTool, type OpenAITool } from './export.js';

/** The toolsets by name: the canonical table and each seed system's surface. */
export const TOOLSET_NAMES = ['canonical', 'file_manager', 'fs_process', 'cowork'] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

export interface ToolsetOptions {
  /** the tool for the `process` slot, which runs programs (in Node, the run_command nodeTools builds): canonical's, and fs_process's worker */
  runCommand?: ToolDefinition;
  /** cowork's artifact folder, relative to the workspace root */
  artifactDir?: string;
  /**
   * more tools joining the set (manifest tools, Node's task tools); a seed tool of the same name
   * wins, and a tool that names the toolsets offering it (`toolsets`) joins only those
   */
  extra?: readonly ToolDefinition[];
}

/** A named list of tool definitions, with its wire envelope and its export formats. */
export interface Toolset {
  name: ToolsetName;
  tools: ToolDefinition[];
  /** The envelope as this toolset's clients expect it: file_manager's `{ok, tool, results}`, else unchanged. */
  present(envelope: Envelope): Record<string, unknown>;
  toOpenAI(): OpenAITool[];
  toAnthropic(): AnthropicTool[];
  toMcp(): McpTool[];
}

export function isToolsetName(name: string): name is ToolsetName {
  return (TOOLSET_NAMES as readonly string[]).includes(name);
}

/** Build a toolset by name; use its `tools` as `createWorkspace({ fs, tools })`. */
export function toolset(name: ToolsetName, options: ToolsetOptions = {}): Toolset {
  const own = name === 'file_manager' ? fileManagerTools()
    : name === 'fs_process' ? fsProcessTools(options.runCommand ? { runCommand: options.runCommand } : {})
    : name === 'cowork' ? coworkTools(options.artifactDir !== undefined ? { artifactDir: options.artifactDir } : {})
    : canonicalTools.map((t) => (t.slot && options.runCommand?.slot === t.slot ? options.runCommand : t));
  const names = new Set(own.map((t) => t.name));
  const joins = (t: ToolDefinition) => !names.has(t.name) && (t.toolsets === undefined || t.toolsets.includes(name));
  const tools = [...own, ...(options.extra ?? []).filter(joins)];
  return {
    name,
    tools,
    present: (envelope) => {
      const tool = tools.find((t) => t.name === envelope.tool);
      return tool?.present ? tool.present(envelope) : envelope;
    },
    toOpenAI: () => toOpenAI(tools),
    toAnthropic: () => toAnthropic(tools),
    toMcp: () => toMcp(tools),
  };
}
