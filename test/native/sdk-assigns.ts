// Compiled by the project's tsc and by test/toolsets/sdk-types.test.ts: the native toolsets' exports and
// the items runAgent sends assign to the official SDK types with no cast.
import type Anthropic from '@anthropic-ai/sdk';
import type {
  ApplyPatchTool,
  FunctionShellTool,
  ResponseFunctionShellCallOutputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import {
  createMemoryFs,
  createWorkspace,
  presentApplyPatch,
  presentBash,
  presentEditor,
  presentShell,
  toolset,
} from '../../src/index.js';

const openai = toolset('openai');
const anthropic = toolset('anthropic', { maxCharacters: 1000 });

export const openaiTools: Array<ApplyPatchTool | FunctionShellTool> = (
  await import('../../src/toolsets/index.js')
).openaiNativeTools();
export const anthropicTools: Array<Anthropic.Messages.ToolTextEditor20250728 | Anthropic.Messages.ToolBash20250124> = (
  await import('../../src/toolsets/index.js')
).anthropicNativeTools({ maxCharacters: 1000 });

const ws = createWorkspace({ fs: createMemoryFs({ 'a.txt': 'a\n' }), tools: [...openai.tools, ...anthropic.tools] });
const patch = presentApplyPatch(await ws.call('apply_patch', { operation: { type: 'delete_file', path: 'a.txt' } }));
export const patchOutput: ResponseInputItem.ApplyPatchCallOutput = {
  type: 'apply_patch_call_output',
  call_id: 'c',
  ...patch,
};
const shell = presentShell(await ws.call('shell', { action: { commands: ['true'] } }));
export const shellOutput: ResponseInputItem.ShellCallOutput = { type: 'shell_call_output', call_id: 's', ...shell };
export const shellContent: ResponseFunctionShellCallOutputContent[] = shell.output;
export const editorResult: Anthropic.Messages.ToolResultBlockParam = {
  type: 'tool_result',
  tool_use_id: 't',
  ...presentEditor(await ws.call('str_replace_based_edit_tool', { command: 'view', path: '.' })),
};
export const bashResult: Anthropic.Messages.ToolResultBlockParam = {
  type: 'tool_result',
  tool_use_id: 'b',
  ...presentBash(await ws.call('bash', { restart: true })),
};
