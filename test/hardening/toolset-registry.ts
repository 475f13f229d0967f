import { TOOLSET_NAMES, toolset, type ToolsetOptions } from '../../src/toolsets/index.js';
import { canonicalTools } from '../../src/toolsets/canonical.js';
import type { ToolDefinition } from '../../src/index.js';

export interface NamedToolset {
  name: string;
  tools: ToolDefinition[];
}

/** Every registered toolset as users get it, without touching the disk (so it runs in Chromium too). */
export function registeredToolsets(options: ToolsetOptions = {}): NamedToolset[] {
  const found: NamedToolset[] = [{ name: 'canonical', tools: canonicalTools }];
  for (const name of TOOLSET_NAMES) {
    if (name === 'canonical') continue;
    found.push({ name, tools: toolset(name, options).tools });
  }
  return found;
}
