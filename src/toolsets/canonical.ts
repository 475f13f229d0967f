import type { ToolDefinition } from '../tools/define.js';
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
import { snapshotTool } from '../tools/snapshot.js';
import { listSnapshots } from '../tools/list-snapshots.js';
import { diffSnapshots } from '../tools/diff-snapshots.js';
import { restoreSnapshotTool } from '../tools/restore-snapshot.js';
import { undoTool } from '../tools/undo.js';
import { searchFilesTool } from '../tools/search-files.js';
import { writeFile } from '../tools/write-file.js';

/** The canonical toolset: the tool table in DESIGN.md. */
export const canonicalTools: ToolDefinition[] = [
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
  snapshotTool, listSnapshots, diffSnapshots, restoreSnapshotTool, undoTool,
];
