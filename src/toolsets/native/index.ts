import type { ToolDefinition } from '../../tools/schema/define.js';
import { anthropicBash } from './anthropic-bash.js';
import { anthropicEditor, EDITOR_NAME } from './anthropic-editor.js';
import { openaiApplyPatch } from './openai-apply-patch.js';
import { openaiShell } from './openai-shell.js';
import { overRunner } from './shell-line.js';
import { ANTHROPIC_EDITOR_WORDS, OPENAI_NATIVE_WORDS, speaking } from '../vocabulary.js';

export {
  operationPatch,
  presentApplyPatch,
  type ApplyPatchOperation,
  type ApplyPatchCallOutput,
} from './openai-apply-patch.js';
export {
  presentShell,
  capOutput,
  type ShellCommandOutput,
  type ShellCallOutput,
  type ShellOutcome,
  type ShellExit,
  type ShellTimeout,
} from './openai-shell.js';
export { presentEditor, EDITOR_NAME, type AnthropicToolResult } from './anthropic-editor.js';
export { presentBash, BASH_TIMEOUT_SECONDS } from './anthropic-bash.js';
export { editorPath } from './editor-path.js';

/** Options of the vendors' native toolsets. */
export interface NativeToolsetOptions {
  /** the host's run_command (Node's, in the OS sandbox); without it the workspace's runner (the built-in shell) */
  runCommand?: ToolDefinition;
  /** anthropic: the editor's `max_characters`, sent to the API and applied to every view */
  maxCharacters?: number;
  /** anthropic: seconds a bash command may run (default 120) */
  bashTimeoutSeconds?: number;
}

/** OpenAI's built-in tools, as sent in a Responses API request. */
export type OpenAINativeTool = OpenAIApplyPatchTool | OpenAIShellTool;
/** The Responses API's built-in apply_patch tool entry. */
export interface OpenAIApplyPatchTool {
  /** always `apply_patch` */
  type: 'apply_patch';
}
/** The Responses API's built-in shell tool entry, run on the host (here, the workspace's runner). */
export interface OpenAIShellTool {
  /** always `shell` */
  type: 'shell';
  /** where commands run: the host's own environment */
  environment: {
    /** always `local` */
    type: 'local';
  };
}
/** Anthropic's tools, as sent in a Messages API request. */
export type AnthropicNativeTool = AnthropicTextEditorTool | AnthropicBashTool;
/** The Messages API's text editor tool entry. */
export interface AnthropicTextEditorTool {
  /** the tool's version */
  type: 'text_editor_20250728';
  /** the name the model calls it by */
  name: 'str_replace_based_edit_tool';
  /** the most characters a `view` answers with */
  max_characters?: number;
}
/** The Messages API's bash tool entry. */
export interface AnthropicBashTool {
  /** the tool's version */
  type: 'bash_20250124';
  /** the name the model calls it by */
  name: 'bash';
}

/** OpenAI's apply_patch and shell over the workspace. */
export function openaiTools(options: NativeToolsetOptions = {}): ToolDefinition[] {
  return [speaking(openaiApplyPatch, OPENAI_NATIVE_WORDS), overRunner(options.runCommand, openaiShell)];
}

/** Anthropic's text editor and bash over the workspace. */
export function anthropicTools(options: NativeToolsetOptions = {}): ToolDefinition[] {
  const limit = options.bashTimeoutSeconds !== undefined ? { timeoutSeconds: options.bashTimeoutSeconds } : {};
  return [
    speaking(
      anthropicEditor(options.maxCharacters !== undefined ? { maxCharacters: options.maxCharacters } : {}),
      ANTHROPIC_EDITOR_WORDS,
    ),
    overRunner(options.runCommand, (run) => anthropicBash(run, limit)),
  ];
}

/** The Responses API tool entries for the openai toolset (the host runs them; the API only names them). */
export function openaiNativeTools(): OpenAINativeTool[] {
  return [{ type: 'apply_patch' }, { type: 'shell', environment: { type: 'local' } }];
}

/** The Messages API tool entries for the anthropic toolset. */
export function anthropicNativeTools(options: { maxCharacters?: number } = {}): AnthropicNativeTool[] {
  return [
    {
      type: 'text_editor_20250728',
      name: EDITOR_NAME,
      ...(options.maxCharacters !== undefined ? { max_characters: options.maxCharacters } : {}),
    },
    { type: 'bash_20250124', name: 'bash' },
  ];
}
