import type { Lockfile } from '../../../packages/types.js';
import { type CommandContext, UsageError } from '../../context.js';
import { projectReader } from './install.js';

/** `npm ls`: the project and its direct dependencies as installed (the lock's top level), missing ones marked. */
export async function ls(ctx: CommandContext, args: string[]): Promise<number> {
  if (args.length) throw new UsageError(`npm error \`npm ls\` takes no arguments here (got '${args[0]}')`);
  const reader = projectReader(ctx.shell.state.fs, ctx.shell.state.cwd);
  const text = await reader.readText('package.json');
  if (text === null) {
    ctx.err('npm error code NOT_FOUND\nnpm error there is no package.json in this folder\n');
    return 1;
  }
  const manifest = JSON.parse(text) as Record<string, Record<string, string> | string | undefined>;
  const lock = JSON.parse((await reader.readText('package-lock.json')) ?? '{"packages":{}}') as Lockfile;
  const names = new Set<string>();
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies'] as const) {
    for (const name of Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})) names.add(name);
  }
  const label = `${manifest.name ?? '(unnamed)'}${manifest.version ? `@${manifest.version}` : ''}`;
  ctx.out(`${label} ${ctx.shell.state.cwd}\n`);
  const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en'));
  const optional = new Set(Object.keys((manifest.optionalDependencies as Record<string, string> | undefined) ?? {}));
  let missing = 0;
  for (const [i, name] of sorted.entries()) {
    const branch = i === sorted.length - 1 ? '└──' : '├──';
    const installed = lock.packages?.[`node_modules/${name}`];
    const present = installed ? await reader.readText(`node_modules/${name}/package.json`) : null;
    if (installed && present !== null) ctx.out(`${branch} ${name}@${installed.version}\n`);
    else if (optional.has(name)) ctx.out(`${branch} UNMET OPTIONAL DEPENDENCY ${name}\n`);
    else {
      missing++;
      ctx.out(`${branch} UNMET DEPENDENCY ${name}\n`);
    }
  }
  ctx.out('\n');
  return missing ? 1 : 0;
}
