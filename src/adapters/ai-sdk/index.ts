/**
 * `sandpit-workspace/ai-sdk`: a Sandpit workspace's tools and sandbox session for the Vercel AI SDK (`ai`, version 7),
 * an optional peer dependency that only this entry imports.
 */
export { sandpitTools, type SandpitAiTool } from './tools.js';
export { sandpitSandbox, type SandboxHost, type SandpitSandboxOptions } from './sandbox.js';
export {
  SandpitToolCallError,
  errorText,
  type AdapterOptions,
  type ToolHost,
} from '../shared/tool-host.js';
