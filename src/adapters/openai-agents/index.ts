/**
 * `sandpit-workspace/openai-agents`: a Sandpit workspace for the OpenAI Agents SDK
 * (`@openai/agents`), an optional peer dependency that only this entry imports.
 */
export { sandpitFunctionTools, type SandpitFunctionTool } from './function-tools.js';
export { sandpitEditor } from './editor.js';
export { sandpitShell } from './shell.js';
export {
  SandpitToolCallError,
  errorText,
  type AdapterOptions,
  type ToolHost,
} from '../shared/tool-host.js';
