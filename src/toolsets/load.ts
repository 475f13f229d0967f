import {
  buildToolset,
  type NativeToolsetName,
  type Toolset,
  type ToolsetBuilders,
  type ToolsetName,
  type ToolsetOptions,
} from './toolset-core.js';

/** Only the builder the named toolset needs, its module loaded now (canonical's needs none). */
async function buildersFor(name: ToolsetName | NativeToolsetName): Promise<ToolsetBuilders> {
  if (name === 'file_manager') return { fileManagerTools: (await import('./file-manager.js')).fileManagerTools };
  if (name === 'fs_process') return { fsProcessTools: (await import('./fs-process.js')).fsProcessTools };
  if (name === 'cowork') return { coworkTools: (await import('./cowork.js')).coworkTools };
  if (name === 'openai' || name === 'anthropic') return import('./native/index.js');
  return {};
}

/**
 * The same toolset as `toolset(name, options)`, loading only the modules it needs: a process that
 * serves one toolset (`sandpit mcp`, `sandpit call`) starts without compiling the others.
 */
export async function loadToolset(
  name: ToolsetName | NativeToolsetName,
  options: ToolsetOptions = {},
): Promise<Toolset> {
  return buildToolset(name, options, await buildersFor(name));
}
