import type { ToolDefinition } from '../tools/define.js';
import { appendFile } from '../tools/append-file.js';
import { createDirectory } from '../tools/create-directory.js';
import { deletePath } from '../tools/delete-path.js';
import { editFile } from '../tools/edit-file.js';
import { exists } from '../tools/exists.js';
import { fileBytes } from '../tools/file-bytes.js';
import { movePath } from '../tools/move-path.js';
import { readFile } from '../tools/read-file.js';
import { writeFile } from '../tools/write-file.js';

/** The canonical toolset: the tool table in DESIGN.md. */
export const canonicalTools: ToolDefinition[] = [
  readFile,
  writeFile,
  appendFile,
  editFile,
  exists,
  createDirectory,
  movePath,
  deletePath,
  fileBytes,
];
