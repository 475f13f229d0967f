import {
  toolset,
  type NativeToolsetName,
  type Toolset,
  type ToolsetName,
  type ToolsetOptions,
} from '../../toolsets/index.js';
import type { NodeToolset } from '../node-tools.js';
import { nodeToolsetOptions } from '../toolset-load.js';

/** The named toolset with Node's tools: real processes behind run_command, the task tools (canonical only) and manifest tools. */
export function nodeToolset(
  name: ToolsetName | NativeToolsetName,
  node: NodeToolset,
  artifactDir?: string,
  native: Pick<ToolsetOptions, 'maxCharacters' | 'bashTimeoutSeconds'> = {},
): Toolset {
  return toolset(name, nodeToolsetOptions(node, artifactDir, native));
}
