import { PackageError } from './errors.js';
import { foreignSpec } from './spec-kind.js';
import { parseRange, parseVersion } from './semver.js';
import type { ProjectManifest } from './types.js';

/** A package named on the command line: `name`, `name@range`, `name@tag`, `@scope/name@range`. */
export interface RequestedPackage {
  name: string;
  spec: string;
}

/** Split `NAME[@RANGE|@TAG]` (a scoped name keeps its leading `@`). */
export function parseRequest(text: string): RequestedPackage {
  const whole = foreignSpec(text);
  if (whole)
    throw new PackageError(
      'NOT_SUPPORTED',
      text,
      `is a ${whole} spec: only registry versions and tags are installed here`,
      'Name a package from the registry, with a version or tag.',
    );
  const at = text.indexOf('@', 1);
  const name = at === -1 ? text : text.slice(0, at);
  const spec = at === -1 ? '' : text.slice(at + 1);
  const foreign = foreignSpec(spec);
  if (foreign)
    throw new PackageError(
      'NOT_SUPPORTED',
      text,
      `'${spec}' is a ${foreign} spec: only registry versions and tags are installed here`,
      'Name a version or tag from the registry.',
    );
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name))
    throw new PackageError(
      'INVALID_ARGUMENTS',
      text,
      'is not a package name (git, file and URL specs are not supported)',
    );
  return { name, spec };
}

/**
 * What npm saves for a requested package: a tag, a bare name or an exact version saves
 * `^VERSION`; a range saves `^VERSION` when that stays inside it, else the range as given.
 */
export function savedRange(spec: string, version: string): string {
  const caret = `^${version}`;
  if (spec === '' || spec === '*' || spec === 'latest' || !parseRange(spec) || parseVersion(spec)) return caret;
  const v = parseVersion(version);
  const open = /^(\^|>=?)\s*\d/.test(spec.trim()) && !/[<\s|]/.test(spec.trim().slice(2));
  const majorOnly = v && v.major > 0 && new RegExp(`^${v.major}(\\.[x*])?(\\.[x*])?$`).test(spec.trim());
  return open || majorOnly ? caret : spec;
}

const sorted = (deps: Record<string, string>) =>
  Object.fromEntries(Object.entries(deps).sort(([a], [b]) => a.localeCompare(b, 'en')));

export type SaveField = 'dependencies' | 'devDependencies' | 'optionalDependencies' | 'peerDependencies';
const FIELDS: SaveField[] = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/** package.json with `name` saved at `range` (in the field it already sits in, else `field`), names sorted as npm sorts them. */
export function withSaved(manifest: ProjectManifest, name: string, range: string, field: SaveField): ProjectManifest {
  const out = { ...manifest };
  const home = FIELDS.find((f) => out[f]?.[name] !== undefined && f !== 'peerDependencies') ?? field;
  out[home] = sorted({ ...(out[home] ?? {}), [name]: range });
  return out;
}

/** package.json without `name` in any dependency field (an emptied field is dropped, as npm drops it). */
export function withRemoved(manifest: ProjectManifest, name: string): ProjectManifest {
  const out = { ...manifest };
  for (const field of FIELDS) {
    if (out[field]?.[name] === undefined) continue;
    const { [name]: _gone, ...rest } = out[field]!;
    if (Object.keys(rest).length) out[field] = rest;
    else delete out[field];
  }
  return out;
}

/** package.json text in the file's own indentation and final newline. */
export function manifestText(manifest: ProjectManifest, original: string | null): string {
  const indent = original ? (/^[ \t]+(?=")/m.exec(original)?.[0] ?? 2) : 2;
  const eol = original?.includes('\r\n') ? '\r\n' : '\n';
  return `${JSON.stringify(manifest, null, indent).replace(/\n/g, eol)}${eol}`;
}
