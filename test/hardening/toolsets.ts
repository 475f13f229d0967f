import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ToolDefinition } from '../../src/index.js';
import { registeredToolsets, type NamedToolset } from './toolset-registry.js';
import type { ToolsetOptions } from '../../src/toolsets/index.js';

export type { NamedToolset } from './toolset-registry.js';

const toolsetDir = fileURLToPath(new URL('../../src/toolsets/', import.meta.url));

function isTool(value: unknown): value is ToolDefinition {
  const t = value as ToolDefinition | null;
  return (
    !!t &&
    typeof t === 'object' &&
    typeof t.name === 'string' &&
    typeof t.run === 'function' &&
    !!t.schema &&
    typeof t.schema === 'object'
  );
}

function isToolList(value: unknown): value is ToolDefinition[] {
  return Array.isArray(value) && value.length > 0 && value.every(isTool);
}

/** Tool lists found in one export: a list itself, or a registry of lists (object, Map, array of {name, tools}). */
function listsIn(name: string, value: unknown): NamedToolset[] {
  if (isToolList(value)) return [{ name, tools: value }];
  if (value instanceof Map) return [...value].flatMap(([k, v]) => listsIn(String(k), v));
  if (Array.isArray(value)) {
    return value.flatMap((v) => {
      const entry = v as { name?: unknown; tools?: unknown } | null;
      return entry && typeof entry.name === 'string' ? listsIn(entry.name, entry.tools) : [];
    });
  }
  if (value && typeof value === 'object' && !isTool(value)) {
    const entry = value as { name?: unknown; tools?: unknown };
    if (typeof entry.name === 'string' && isToolList(entry.tools)) return [{ name: entry.name, tools: entry.tools }];
    return Object.entries(value).flatMap(([k, v]) => (isToolList(v) ? [{ name: k, tools: v }] : []));
  }
  return [];
}

/**
 * Every toolset in src/toolsets, found by importing each module and keeping the exported tool
 * lists (and registries of them), so a toolset added later is fuzzed without editing this file.
 */
export async function discoverToolsets(options: Record<string, unknown> = {}): Promise<NamedToolset[]> {
  // the registry builds each toolset as users get it; a tool list exported anywhere else joins too
  const found = registeredToolsets(options as ToolsetOptions);
  const seen = new Set<unknown>(found.map((f) => f.tools));
  const files = readdirSync(toolsetDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
  for (const file of files) {
    const mod = (await import(/* @vite-ignore */ pathToFileURL(`${toolsetDir}${file}`).href)) as Record<
      string,
      unknown
    >;
    for (const [exportName, value] of Object.entries(mod)) {
      for (const set of listsIn(exportName, value)) {
        if (seen.has(set.tools)) continue;
        seen.add(set.tools);
        const name = set.name.replace(/Tools$|Toolset$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) || file;
        if (found.some((f) => f.name === name && sameTools(f.tools, set.tools))) continue;
        found.push({ name: found.some((f) => f.name === name) ? `${name}@${file}` : name, tools: set.tools });
      }
    }
  }
  return found;
}

function sameTools(a: ToolDefinition[], b: ToolDefinition[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}
