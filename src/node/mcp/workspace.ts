import { toolset, type Toolset, type ToolsetName } from '../../toolsets/index.js';
import type { NodeToolset } from '../node-tools.js';

/** The named toolset with Node's tools: real processes behind run_command, the task tools (canonical only) and manifest tools. */
export function nodeToolset(name: ToolsetName, node: NodeToolset, artifactDir?: string): Toolset {
  // The task tools say which toolsets offer them; a seed toolset keeps to its own list.
  return toolset(name, {
    runCommand: node.tools.find((t) => t.slot === 'process'),
    ...(artifactDir !== undefined ? { artifactDir } : {}),
    extra: node.tools.filter((t) => t.slot !== 'process'),
  });
}
