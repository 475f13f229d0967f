/** The Node entry: everything in the core plus real folders, processes, background tasks and manifest tools. */
import { NODE_NATIVE } from '../fs/node.js';
import { installPlatformNative } from '../fs/platform-native.js';

// Every backend in this process (memory too) hashes and compresses git objects with Node's own code.
installPlatformNative(NODE_NATIVE);

export * from '../index.js';
export { createNodeFs, type NodeFsOptions } from '../fs/node.js';
export {
  openNodeWorkspace,
  openToolsetWorkspace,
  type NodeWorkspace,
  type NodeWorkspaceOptions,
  type ToolsetWorkspaceOptions,
} from './open.js';
export { nodeTools, mergeTools, BUILTIN_TOOL_NAMES, type NodeToolset, type NodeToolsOptions } from './node-tools.js';
export { createNodeRunner, type NodeProcessOptions, type NodeRunner } from './process/run-command.js';
export type { SandboxMode, SandboxPolicy } from './process/sandbox.js';
export { taskInbox, exitNote } from '../agent/task-inbox.js';
export {
  ProcessTaskRegistry,
  type TaskEvent,
  type TaskInfo,
  type TaskListener,
  type TaskStatus,
} from './process/tasks.js';
export { loadManifests, type LoadedManifest, type ManifestLoad, type ManifestReport } from './manifests/load.js';
export { doctorReport } from './manifests/doctor.js';
export type { ToolManifest } from './manifests/schema.js';
export type { ModelCaps } from './manifests/output.js';
export {
  createMcpServer,
  serveMcpStdio,
  type McpServerHandle,
  type McpServerOptions,
  type ServedWorkspace,
} from './mcp/server.js';
export type { StdioFramerOptions } from './mcp/framing.js';
export { McpLogHub, type McpLogEntry, type LogSink } from './mcp/log.js';
export {
  answerInitializeEarly,
  type EarlyOptions,
  type EarlyStart,
  type EarlyStdio,
} from './mcp/fast-start.js';
export { earlyTools, type EarlyCall, type EarlyTools } from './mcp/early-tools.js';
export type { ProgressParams } from './mcp/progress.js';
export { createRootsMcpServer, WorkspacePool, type FolderOpener } from './mcp/roots.js';
export { serveMcpHttp, serveMcpHttpRoots, MCP_PATH, type McpHttpOptions, type McpHttpServer } from './mcp/http.js';
export type { EarlyHttp, EarlySession, HttpHandler } from './mcp/http-early.js';
