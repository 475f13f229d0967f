import { TOOLSET_NAMES, toolset } from '../toolsets/index.js';
import { taskTools } from '../tools/task-tools.js';
import { loadManifests } from './manifests/load.js';
import { manifestTool } from './manifests/tool.js';
import { GIT_TOOL_NAMES } from './git-tools.js';
import { makeNodeTools, type ManifestSupport, type NodeToolset, type NodeToolsOptions } from './node-tools-core.js';
import { ProcessTaskRegistry } from './process/tasks.js';

export { mergeTools, type NodeToolset, type NodeToolsOptions } from './node-tools-core.js';

/**
 * Names no manifest may take: every built-in tool of every toolset, Node's task tools included.
 * Listed on first use (it builds every toolset), so a start that loads no manifests goes without.
 */
export const BUILTIN_TOOL_NAMES: readonly string[] = listedOnFirstUse(() => [
  ...new Set([
    ...TOOLSET_NAMES.flatMap((name) => toolset(name).tools.map((t) => t.name)),
    ...taskTools(new ProcessTaskRegistry()).map((t) => t.name),
    ...GIT_TOOL_NAMES,
  ]),
]);

/** A read-only array whose items are made by `make` when it is first read. */
function listedOnFirstUse(make: () => string[]): readonly string[] {
  let list: string[] | undefined;
  const items = () => (list ??= make());
  return new Proxy([] as string[], {
    get: (_target, key) => {
      const value = Reflect.get(items(), key);
      return typeof value === 'function' ? value.bind(items()) : value;
    },
    has: (_target, key) => Reflect.has(items(), key),
    ownKeys: () => Reflect.ownKeys(items()),
    getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(items(), key),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}

/** What nodeTools loads manifest tools with; the CLI imports it only when given a tools folder. */
export const manifestSupport: ManifestSupport = { reserved: BUILTIN_TOOL_NAMES, loadManifests, manifestTool };

/**
 * Build the Node tools for one workspace. Use a fresh toolset per workspace: it owns that
 * workspace's background tasks.
 */
export function nodeTools(options: NodeToolsOptions = {}): NodeToolset {
  return makeNodeTools(options, manifestSupport);
}
