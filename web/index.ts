/** The browser entry for pages: a workspace in a Web Worker, and the browser backends for direct use. */
export {
  connectWorkspace,
  whenWarm,
  type WarmState,
  type ConnectOptions,
  type RemoteWorkspace,
  type RemoteForks,
  type ModuleWorker,
} from './client.js';
export type { RemoteReview, RemoteReviewInbox } from './client-review.js';
export type {
  BackendKind,
  ChangeNotice,
  TaskNoteEvent,
  ImportProgress,
  WorkspaceVerbs,
  Answered,
  WorkerToolset,
  ForkSummary,
  ForkDiff,
  ForkDiffFile,
  ForkView,
} from './protocol.js';
export type { BackendDescriptor, OpenedBackend } from '../src/fs/backends.js';
export type { PreviewEntry } from './preview/read-file.js';
export type {
  PreviewAnswerRequest,
  PreviewChannelContext,
  PreviewChannelPort,
  PreviewPort,
} from './preview/messages.js';
export type { ScriptCopyLimits } from '../src/shell/commands/shell/node.js';
export { createOpfsFs, type OpfsFsOptions, type OpfsDirectoryHandle } from '../src/fs/opfs.js';
export { createIndexedDbFs, type IndexedDbFs, type IndexedDbFsOptions } from '../src/fs/indexeddb.js';
export { createPageRunner, type PageRunnerOptions } from './page-runner.js';
