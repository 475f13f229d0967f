import { loadToolset } from '../toolsets/load.js';
import type { NativeToolsetName, Toolset, ToolsetName, ToolsetOptions } from '../toolsets/toolset-core.js';
import type { NodeToolset } from './node-tools-core.js';

/** What the named toolset takes from Node's tools: real processes behind run_command, the task and manifest tools. */
export function nodeToolsetOptions(
  node: NodeToolset,
  artifactDir?: string,
  native: Pick<ToolsetOptions, 'maxCharacters' | 'bashTimeoutSeconds'> = {},
): ToolsetOptions {
  // The task tools say which toolsets offer them; a seed toolset keeps to its own list.
  return {
    ...native,
    runCommand: node.tools.find((t) => t.name === 'run_command'),
    ...(artifactDir !== undefined ? { artifactDir } : {}),
    extra: node.tools.filter((t) => t.name !== 'run_command'),
  };
}

/** nodeToolset, loading only the named toolset's modules. */
export function loadNodeToolset(
  name: ToolsetName | NativeToolsetName,
  node: NodeToolset,
  artifactDir?: string,
  native: Pick<ToolsetOptions, 'maxCharacters' | 'bashTimeoutSeconds'> = {},
): Promise<Toolset> {
  return loadToolset(name, nodeToolsetOptions(node, artifactDir, native));
}
