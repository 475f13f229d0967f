import type { ToolDefinition } from '../tools/schema/define.js';
import { coworkTools } from './cowork.js';
import { fileManagerTools } from './file-manager.js';
import { fsProcessTools } from './fs-process.js';
import { anthropicNativeTools, anthropicTools, openaiNativeTools, openaiTools } from './native/index.js';
import {
  assembleToolset,
  buildToolset,
  type NativeToolsetName,
  type Toolset,
  type ToolsetBuilders,
  type ToolsetName,
  type ToolsetOptions,
} from './toolset-core.js';

export { coworkTools, type CoworkOptions } from './cowork.js';
export { fileManager, fileManagerEnvelope, fileManagerTools } from './file-manager.js';
export { fsProcessTools } from './fs-process.js';
export { toolsetInstructions } from './instructions.js';
export {
  anthropicNativeTools,
  anthropicTools,
  openaiNativeTools,
  openaiTools,
  operationPatch,
  presentApplyPatch,
  presentBash,
  presentEditor,
  presentShell,
  EDITOR_NAME,
  type AnthropicNativeTool,
  type ApplyPatchOperation,
  type NativeToolsetOptions,
  type OpenAINativeTool,
  type ShellCommandOutput,
  type ApplyPatchCallOutput,
  type ShellCallOutput,
  type ShellOutcome,
  type ShellExit,
  type ShellTimeout,
  type AnthropicToolResult,
  type OpenAIApplyPatchTool,
  type OpenAIShellTool,
  type AnthropicTextEditorTool,
  type AnthropicBashTool,
} from './native/index.js';
export {
  annotationsOf,
  fitDescription,
  toAnthropic,
  toMcp,
  toOpenAI,
  toOpenAIResponses,
  OPENAI_DESCRIPTION_LIMIT,
  type AnthropicTool,
  type McpAnnotations,
  type McpTool,
  type ObjectSchema,
  type OpenAIExportOptions,
  type OpenAIResponsesTool,
  type OpenAITool,
} from './export.js';
export { fromStrictArgs, toStrictSchema } from '../tools/schema/strict-schema.js';

export {
  isNativeToolsetName,
  isToolsetName,
  NATIVE_TOOLSET_NAMES,
  TOOLSET_NAMES,
  type NativeToolsetName,
  type Toolset,
  type ToolsetName,
  type ToolsetOptions,
} from './toolset-core.js';

/** Every toolset's builder, for the synchronous `toolset()` (the CLI loads only the one it serves). */
const BUILDERS: ToolsetBuilders = {
  fileManagerTools,
  fsProcessTools,
  coworkTools,
  openaiTools,
  anthropicTools,
  openaiNativeTools,
  anthropicNativeTools,
};

/** Build a toolset by name; use its `tools` as `createWorkspace({ fs, tools })`. */
export function toolset(name: ToolsetName | NativeToolsetName, options: ToolsetOptions = {}): Toolset {
  return buildToolset(name, options, BUILDERS);
}

/** A toolset over a given list of tools: its envelope, guidance and export formats. */
export function toolsetOf(name: ToolsetName | NativeToolsetName, tools: ToolDefinition[]): Toolset {
  return assembleToolset(name, tools, BUILDERS);
}
