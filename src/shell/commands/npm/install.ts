import { PackageError } from '../../../packages/errors.js';
import { HIDDEN_LOCK, type InstallCommand, planInstall, type ProjectReader } from '../../../packages/install.js';
import type { InstallPlan } from '../../../packages/plan.js';
import { DEFAULT_REGISTRY, registryFromNpmrc } from '../../../packages/registry.js';
import { type CommandContext, errorText, UsageError } from '../../context.js';
import { type ShellFs, shellPath } from '../../overlay.js';
import { parseNpmArgs } from './options.js';

/** The project folder as the installer reads it: the shell's view (its pending writes included). */
export function projectReader(fs: ShellFs, folder: string): ProjectReader {
  return {
    readText: async (path) => {
      const full = shellPath(folder, path);
      const st = await fs.stat(full).catch(() => null);
      if (st?.type !== 'file') return null;
      return new TextDecoder().decode(await fs.readFile(full));
    },
  };
}

async function mkdirs(fs: ShellFs, path: string, made: Set<string>): Promise<void> {
  const parts = path.split('/').filter(Boolean);
  let sofar = '';
  for (const part of parts) {
    sofar += `/${part}`;
    if (made.has(sofar)) continue;
    const st = await fs.stat(sofar);
    if (!st) await fs.mkdir(sofar);
    else if (st.type !== 'dir') {
      await fs.remove(sofar);
      await fs.mkdir(sofar);
    }
    made.add(sofar);
  }
}

/** Empty a package folder, keeping its own node_modules (nested packages that stay). */
async function clearPackage(fs: ShellFs, folder: string): Promise<void> {
  const st = await fs.stat(folder).catch(() => null);
  if (!st) return;
  if (st.type !== 'dir') return fs.remove(folder);
  for (const name of await fs.readdir(folder)) if (name !== 'node_modules') await fs.remove(`${folder}/${name}`);
}

/** Remove a folder when it is empty (a scope folder or node_modules a removal left behind). */
async function removeIfEmpty(fs: ShellFs, folder: string): Promise<void> {
  const st = await fs.stat(folder).catch(() => null);
  if (st?.type === 'dir' && (await fs.readdir(folder)).length === 0) await fs.remove(folder);
}

/** Write a plan into the shell's overlay: the command line's writes become one change when it ends. */
export async function applyPlan(fs: ShellFs, folder: string, plan: InstallPlan): Promise<void> {
  const at = (rel: string) => shellPath(folder, rel);
  if (plan.clearAll && (await fs.stat(at('node_modules')))) await fs.remove(at('node_modules'));
  for (const location of plan.clear) await clearPackage(fs, at(location));
  // deepest first, then the scope and node_modules folders they leave empty, as npm leaves none
  for (const location of [...plan.remove].sort((a, b) => b.length - a.length)) {
    if (await fs.stat(at(location)).catch(() => null)) await fs.remove(at(location));
    const parent = location.slice(0, location.lastIndexOf('/'));
    if (parent.slice(parent.lastIndexOf('/') + 1).startsWith('@')) await removeIfEmpty(fs, at(parent));
  }
  for (const bin of plan.binFolders) if (await fs.stat(at(bin)).catch(() => null)) await fs.remove(at(bin));
  const made = new Set<string>();
  const encoder = new TextEncoder();
  const writes = [
    ...plan.files,
    ...(plan.hiddenLock !== null
      ? [{ path: HIDDEN_LOCK, data: encoder.encode(plan.hiddenLock), executable: false }]
      : []),
    ...(plan.lock !== undefined
      ? [{ path: 'package-lock.json', data: encoder.encode(plan.lock), executable: false }]
      : []),
    ...(plan.packageJson !== undefined
      ? [{ path: 'package.json', data: encoder.encode(plan.packageJson), executable: false }]
      : []),
  ];
  for (const write of writes) {
    const full = at(write.path);
    await mkdirs(fs, full.slice(0, full.lastIndexOf('/')), made);
    await fs.writeFile(full, write.data, undefined, write.executable);
  }
  if (plan.hiddenLock === null) {
    if (await fs.stat(at(HIDDEN_LOCK)).catch(() => null)) await fs.remove(at(HIDDEN_LOCK));
    await removeIfEmpty(fs, at('node_modules'));
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summary(plan: InstallPlan, seconds: number): string {
  const parts = [
    plan.added.length ? `added ${plural(plan.added.length, 'package')}` : '',
    plan.removed.length ? `removed ${plural(plan.removed.length, 'package')}` : '',
    plan.changed.length ? `changed ${plural(plan.changed.length, 'package')}` : '',
  ].filter(Boolean);
  let text = `\n${parts.length ? parts.join(', ') : 'up to date'}, audited ${plural(plan.total + 1, 'package')} in ${seconds}s\n`;
  if (plan.installScripts.length)
    text += `\n${plural(plan.installScripts.length, 'package')} had install scripts, which were not run: ${plan.installScripts.join(', ')}\n`;
  if (plan.skipped.length) text += `\nskipped optional packages for another platform: ${plan.skipped.join(', ')}\n`;
  return text;
}

/** Which registry: the flag, then `npm_config_registry`, then `.npmrc`, then the host's setting, then the public one. */
async function chooseRegistry(ctx: CommandContext, reader: ProjectReader, flag: string | undefined): Promise<string> {
  const env = ctx.env.get('npm_config_registry') ?? ctx.env.get('NPM_CONFIG_REGISTRY');
  const npmrc = registryFromNpmrc((await reader.readText('.npmrc')) ?? '');
  return flag ?? env ?? npmrc ?? ctx.shell.state.packages?.registry ?? DEFAULT_REGISTRY;
}

async function run(ctx: CommandContext, command: InstallCommand, registryFlag: string | undefined): Promise<number> {
  const state = ctx.shell.state;
  const reader = projectReader(state.fs, state.cwd);
  const started = Date.now();
  try {
    const settings = state.packages ?? {};
    const plan = await planInstall(reader, command, {
      registry: await chooseRegistry(ctx, reader, registryFlag),
      ...(settings.cache ? { cache: settings.cache } : {}),
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
      onProgress: (p) =>
        state.progress?.(p.done, p.total || undefined, `${p.phase} ${p.done}/${p.total} packages, ${p.bytes} bytes`),
    });
    ctx.shell.checkTime();
    await applyPlan(state.fs, state.cwd, plan);
    ctx.out(summary(plan, Math.round((Date.now() - started) / 100) / 10));
    return 0;
  } catch (error) {
    if (error instanceof PackageError) {
      ctx.err(
        `npm error code ${error.code}\nnpm error ${error.message}\n${error.hint ? `npm error ${error.hint}\n` : ''}`,
      );
      return 1;
    }
    if (error instanceof UsageError) throw error;
    if (error instanceof Error && error.constructor.name.endsWith('Signal')) throw error;
    ctx.err(`npm error ${errorText(error)}\n`);
    return 1;
  }
}

/** `npm install [NAME[@RANGE|@TAG]...]`: the whole tree from package.json, saving named packages to it. */
export async function install(ctx: CommandContext, args: string[]): Promise<number> {
  const parsed = parseNpmArgs(args, true);
  const saveTo = parsed.saveDev ? 'devDependencies' : parsed.saveOptional ? 'optionalDependencies' : 'dependencies';
  return run(ctx, { kind: 'install', add: parsed.words, saveTo }, parsed.registry);
}

/** `npm ci`: exactly the lock's tree, in a fresh node_modules; refused when the lock and package.json disagree. */
export async function ci(ctx: CommandContext, args: string[]): Promise<number> {
  const parsed = parseNpmArgs(args, false);
  if (parsed.words.length) throw new UsageError('npm error `npm ci` takes no package names');
  return run(ctx, { kind: 'ci' }, parsed.registry);
}

/** `npm uninstall NAME...`: removed from package.json, the lock and node_modules. */
export async function uninstall(ctx: CommandContext, args: string[]): Promise<number> {
  const parsed = parseNpmArgs(args, false);
  if (!parsed.words.length) throw new UsageError('npm error `npm uninstall` needs a package name');
  return run(ctx, { kind: 'uninstall', names: parsed.words }, parsed.registry);
}
