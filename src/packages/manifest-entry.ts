import type { LockEntry, PackumentVersion } from './types.js';

/** npm's bin map: a string bin is named after the package (its scope dropped); paths lose a leading `./`. */
export function normalizeBin(name: string, bin: PackumentVersion['bin']): Record<string, string> | undefined {
  if (!bin) return undefined;
  const map = typeof bin === 'string' ? { [name.replace(/^@[^/]+\//, '')]: bin } : bin;
  const out: Record<string, string> = {};
  for (const [key, path] of Object.entries(map)) {
    const cleanKey = key.split('/').pop()!;
    const cleanPath = path
      .replace(/\\/g, '/')
      .split('/')
      .filter((p) => p !== '' && p !== '.')
      .join('/');
    if (cleanKey && cleanPath && !cleanKey.startsWith('.') && !cleanPath.split('/').includes('..'))
      out[cleanKey] = cleanPath;
  }
  return Object.keys(out).length ? out : undefined;
}

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

/** Whether a package.json asks for an install script (npm does not run them here; it lists them). */
export function hasInstallScript(manifest: { scripts?: Record<string, string>; hasInstallScript?: boolean }): boolean {
  return manifest.hasInstallScript === true || INSTALL_SCRIPTS.some((s) => !!manifest.scripts?.[s]);
}

/** The lock entry of a registry version, in npm's field order. */
export function entryOfManifest(m: PackumentVersion): LockEntry {
  const entry: LockEntry = { version: m.version, resolved: m.dist.tarball };
  if (m.dist.integrity) entry.integrity = m.dist.integrity;
  if (hasInstallScript(m)) entry.hasInstallScript = true;
  if (typeof m.license === 'string') entry.license = m.license;
  const deps = { ...(m.dependencies ?? {}) };
  for (const name of Object.keys(m.optionalDependencies ?? {})) delete deps[name];
  if (Object.keys(deps).length) entry.dependencies = deps;
  if (m.optionalDependencies && Object.keys(m.optionalDependencies).length)
    entry.optionalDependencies = { ...m.optionalDependencies };
  if (m.peerDependencies && Object.keys(m.peerDependencies).length) entry.peerDependencies = { ...m.peerDependencies };
  if (m.peerDependenciesMeta && Object.keys(m.peerDependenciesMeta).length)
    entry.peerDependenciesMeta = { ...m.peerDependenciesMeta };
  const bin = normalizeBin(m.name, m.bin);
  if (bin) entry.bin = bin;
  if (m.engines && Object.keys(m.engines).length) entry.engines = { ...m.engines };
  if (m.os?.length) entry.os = [...m.os];
  if (m.cpu?.length) entry.cpu = [...m.cpu];
  if (m.deprecated) entry.deprecated = m.deprecated;
  return entry;
}

/** The platform an install is for, as package.json's `os` and `cpu` name them. */
export interface Platform {
  os: string;
  cpu: string;
}

function allows(list: string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  const denied = list.filter((v) => v.startsWith('!')).map((v) => v.slice(1));
  if (denied.includes(value)) return false;
  const allowed = list.filter((v) => !v.startsWith('!'));
  return allowed.length === 0 || allowed.includes(value);
}

/** Whether a package may be installed on `platform` (its `os` and `cpu` lists, `!` negations included). */
export function platformAllows(entry: { os?: string[]; cpu?: string[] }, platform: Platform): boolean {
  return allows(entry.os, platform.os) && allows(entry.cpu, platform.cpu);
}

/** The platform of the host: Node's when running in Node, else `browser` (native packages do not run there). */
export function hostPlatform(): Platform {
  const proc = (globalThis as { process?: { platform?: string; arch?: string; versions?: { node?: string } } }).process;
  if (proc?.versions?.node && proc.platform && proc.arch) return { os: proc.platform, cpu: proc.arch };
  return { os: 'browser', cpu: 'browser' };
}
