import {
  toolset,
  type NativeToolsetName,
  type Toolset,
  type ToolsetName,
  type ToolsetOptions,
} from '../../toolsets/index.js';
import type { NodeToolset } from '../node-tools.js';

/** The named toolset with Node's tools: real processes behind run_command, the task tools (canonical only) and manifest tools. */
export function nodeToolset(
  name: ToolsetName | NativeToolsetName,
  node: NodeToolset,
  artifactDir?: string,
  native: Pick<ToolsetOptions, 'maxCharacters' | 'bashTimeoutSeconds'> = {},
): Toolset {
  // The task tools say which toolsets offer them; a seed toolset keeps to its own list.
  return toolset(name, {
    ...native,
    runCommand: node.tools.find((t) => t.slot === 'process'),
    ...(artifactDir !== undefined ? { artifactDir } : {}),
    extra: node.tools.filter((t) => t.slot !== 'process'),
  });
}
