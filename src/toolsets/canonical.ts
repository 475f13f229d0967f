import type { ToolDefinition } from '../tools/define.js';
import { readFile } from '../tools/read-file.js';

/** The canonical toolset: the tool table in DESIGN.md. */
export const canonicalTools: ToolDefinition[] = [
  readFile,
];
