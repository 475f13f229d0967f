import type { ArgsOf, ResultOf } from '../contract/index.js';
import type { ToolDefinition } from '../tools/schema/define.js';
import { appendFile } from '../tools/append-file.js';
import { applyPatchTool } from '../tools/apply-patch.js';
import { createDirectory } from '../tools/create-directory.js';
import { deletePath } from '../tools/delete-path.js';
import { editFile } from '../tools/edit-file.js';
import { exists } from '../tools/exists.js';
import { fileBytes } from '../tools/file-bytes.js';
import { globTool } from '../tools/glob.js';
import { listDirectory } from '../tools/list-directory.js';
import { movePath } from '../tools/move-path.js';
import { readFile } from '../tools/read-file.js';
import { runCommand } from '../tools/run-command.js';
import { snapshotTool } from '../tools/history/snapshot.js';
import { listSnapshots } from '../tools/history/list-snapshots.js';
import { diffSnapshots } from '../tools/history/diff-snapshots.js';
import { restoreSnapshotTool } from '../tools/history/restore-snapshot.js';
import { undoTool } from '../tools/history/undo.js';
import { searchFilesTool } from '../tools/search-files.js';
import { writeFile } from '../tools/write-file.js';

// Each tool keeps its own types here; the export below names them through CanonicalTools, so the
// reference shows one readable type instead of nineteen expanded schemas.
const CANONICAL_TOOL_TUPLE = [
  readFile,
  writeFile,
  appendFile,
  editFile,
  applyPatchTool,
  exists,
  createDirectory,
  movePath,
  deletePath,
  fileBytes,
  listDirectory,
  globTool,
  searchFilesTool,
  runCommand,
  snapshotTool,
  listSnapshots,
  diffSnapshots,
  restoreSnapshotTool,
  undoTool,
] as const;

/** The canonical tools by name, each with the types its schemas declare. */
export type CanonicalTools = { [T in (typeof CANONICAL_TOOL_TUPLE)[number] as T['name']]: T };

/** The canonical tools with their own types, in table order (`canonicalTools` is the same list as plain definitions). */
export const CANONICAL_TOOLS: ReadonlyArray<CanonicalTools[CanonicalToolName]> = CANONICAL_TOOL_TUPLE;

/** The canonical toolset: the tool table in DESIGN.md. */
export const canonicalTools: ToolDefinition[] = [...CANONICAL_TOOLS];
/** A canonical tool's name. */
export type CanonicalToolName = keyof CanonicalTools;
/** The arguments a canonical tool takes. */
export type CanonicalArgs<N extends CanonicalToolName> = ArgsOf<CanonicalTools[N]>;
/** The result a canonical tool gives on success. */
export type CanonicalResult<N extends CanonicalToolName> = ResultOf<CanonicalTools[N]>;
