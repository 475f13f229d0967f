/** The browser-safe core of Sandpit: no `node:` imports and no WebAssembly reach this entry. */
export { createWorkspace, type CreateWorkspaceOptions } from './create-workspace.js';
export type { Workspace, WorkspaceOptions, Envelope, CallOptions } from './workspace-core.js';

export type { ImportedFile, ImportResult } from './tools/import-files.js';
export type { ExportedFile, ExportResult } from './workspace/export-files.js';
export type { WorkspacePolicy, WorkspaceLimits, ConfirmAction, Approver, ApprovalRequest } from './workspace/policy.js';
export type { ChangeDetail, ChangeSummary, ChangeListener, ChangeEvent, ChangeOrigin } from './workspace/change-log.js';
export type {
  WorkspaceReview,
  BlameResult,
  BlameRange,
  Hunk,
  HunkFilter,
  RejectResult,
  ReviewOptions,
  RejectedHunk,
  HunkStatus,
  HunkList,
  AcceptResult,
  ReviewNote,
  ReviewNotes,
} from './review-hooks.js';
export type { TarballCache } from './packages/cache.js';
export type { QueuedNote } from './workspace/note-queue.js';
export type {
  ForkOptions,
  ForkInfo,
  ForkListing,
  ForkedWorkspace,
  MergeOutcome,
  MergeConflictHunk,
  DropForkOutcome,
} from './workspace-forks.js';
export type { AgentReviewDesk } from './agent/types.js';
export type { PackageSettings } from './shell/context.js';
export { ERROR_CODES, ToolError, type ErrorCode, type Problem, type ToolErrorBody } from './contract/index.js';
// the types a ToolError's Words texts are made of (contract/words.ts), so its signature reads whole
export type {
  ArgSlot,
  ErrorWords,
  Passage,
  PassageKey,
  PointerSlot,
  ToolSlot,
  WordedProblem,
  WordPart,
  Words,
} from './contract/index.js';
export { createMemoryFs, type SeedFiles } from './fs/memory.js';
export type {
  WorkspaceFs,
  FsStat,
  FsDirent,
  FsDirentStat,
  FsCapabilities,
  ChangeFeed,
  WatchOptions,
  NativeHelpers,
  InflatedPrefix,
  PlainFile,
  PlainReadOptions,
  ResolveOptions,
} from './fs/types.js';
export type { SpecialKind } from './fs/special.js';
export type { LiteralBytes } from './fs/literal-lines.js';
export { FsError } from './fs/errors.js';
export { gitFsClient, type GitFsClient } from './fs/git-client.js';
export {
  defineTool,
  READ_ONLY,
  ADDITIVE,
  DESTRUCTIVE,
  DESTRUCTIVE_IDEMPOTENT,
  RUNS_PROGRAMS,
  runsPrograms,
  type ToolSpec,
  type ToolDefinition,
  type ToolPrograms,
  type FindExternalChanges,
  type ToolInfo,
  type JsonSchema,
  type ToolRunContext,
} from './tools/schema/define.js';
export type {
  ToolContract,
  ToolAnnotations,
  ArgsOf,
  ResultOf,
  Schema,
  Infer,
  ObjectOf,
  ObjectSchema,
  SchemaKeywords,
  SchemaProperties,
} from './contract/index.js';
export { s, OptionalProperty } from './contract/index.js';
export {
  canonicalTools,
  CANONICAL_TOOLS,
  type CanonicalTools,
  type CanonicalToolName,
  type CanonicalArgs,
  type CanonicalResult,
} from './toolsets/canonical.js';
export { runCommand, createRunCommandTool } from './tools/run-command.js';
export type { RunCommandArgs, RunCommandResult, RunCommandTool } from './tools/run-command-types.js';
export type { ProcessRunner, CommandRequest, CommandResult, CommandSession } from './process/process-runner.js';
export type { ShellSession } from './shell/run.js';
export { createShellRunner, type ShellRunnerOptions } from './process/shell-runner.js';
export { createShellTaskRegistry } from './process/shell-tasks.js';
export {
  TaskRegistry,
  type TaskEvent,
  type TaskInfo,
  type TaskListener,
  type TaskOutcome,
  type TaskProcess,
  type TaskStatus,
  type TaskStream,
} from './process/task-registry.js';
export { taskTools } from './tools/task-tools.js';
export {
  toolset,
  isToolsetName,
  TOOLSET_NAMES,
  NATIVE_TOOLSET_NAMES,
  isNativeToolsetName,
  presentApplyPatch,
  presentShell,
  presentEditor,
  presentBash,
  type NativeToolsetName,
  type NativeToolsetOptions,
  type OpenAINativeTool,
  type AnthropicNativeTool,
  type ApplyPatchOperation,
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
  toOpenAI,
  toOpenAIResponses,
  toAnthropic,
  toMcp,
  toStrictSchema,
  fromStrictArgs,
  type OpenAIResponsesTool,
  type OpenAIExportOptions,
  type ObjectSchema as ExportedObjectSchema,
  type Toolset,
  type ToolsetName,
  type ToolsetOptions,
  type CoworkOptions,
  type OpenAITool,
  type AnthropicTool,
  type McpTool,
  type McpAnnotations,
} from './toolsets/index.js';
export type { ToolContext, TextFile, ReadTextOptions, SnapshotPort } from './workspace/context.js';
export type {
  ChangeLog,
  ChangeFileSummary,
  ChangedFile,
  FileStatus,
  LineAuthor,
  RecordedChange,
} from './workspace/change-log.js';
export type { ReadLedger, LedgerEntry } from './workspace/ledger.js';
export type { ResolvedPolicy } from './workspace/policy.js';
export type { FsErrorCode } from './fs/errors.js';
export type { SnapshotStore, SnapshotOptions, SnapshotWhen, CommitOutcome } from './snapshots/store.js';
export type { SnapshotInfo } from './snapshots/history.js';
export { DEFAULT_SNAPSHOT_EXCLUDES } from './snapshots/ignore.js';
export type {
  WorkspaceGit,
  CloneOptions,
  CloneResult,
  PushOptions,
  PushResult,
  PullOptions,
  PullResult,
  GitProgress,
  GitProgressListener,
  GitAuth,
  GitAuthor,
  GitCredentials,
  RemoteOptions,
  ProbeResult,
  SetAuthorOptions,
  SetAuthorResult,
} from './git/index.js';
export type { SkippedFile } from './snapshots/skipped.js';
export type { TextEncodingName } from './text/codec.js';
export type { WorkspacePath, PathResolver, ResolveMode } from './workspace/paths.js';
export {
  runAgent,
  AgentError,
  openAIProvider,
  anthropicProvider,
  openAIResponsesProvider,
  createProvider,
  systemPrompt,
  TranscriptRecorder,
  toJsonl,
  NoteQueue,
  type AgentInbox,
  type AgentNote,
  type AgentMedia,
  type ProviderCaps,
  type AgentRunOptions,
  type AgentOutcome,
  type AgentToolset,
  type NativeTools,
  type AgentErrorCode,
  type AgentEvent,
  type AgentListener,
  type StopReason,
  type AgentWorkspace,
  type AgentMessage,
  type AgentToolCall,
  type AgentToolResult,
  type ModelProvider,
  type ModelRequest,
  type ModelTurn,
  type Usage,
  type RetryInfo,
  type OpenAIOptions,
  type AnthropicOptions,
  type ProviderOptions,
  type ApiKind,
  type TranscriptLine,
  type RetryPolicy,
  type HttpOptions,
} from './agent/index.js';
