import { compareVersions, parseRange, parseVersion, satisfies } from './semver.js';
import type { Packument, PackumentVersion } from './types.js';
import { PackageError } from './errors.js';

/**
 * The version npm would choose for `spec` (a range or a dist-tag), as npm-pick-manifest does:
 * a tag names its version; for a range, `latest` wins when it satisfies, else the highest
 * satisfying version, preferring ones not deprecated.
 */
export function pickVersion(packument: Packument, spec: string): PackumentVersion {
  const name = packument.name;
  const wanted = spec.trim() === '' ? '*' : spec.trim();
  const tags = packument['dist-tags'] ?? {};
  const range = parseRange(wanted);
  if (!range) {
    const tagged = tags[wanted];
    const manifest = tagged ? packument.versions[tagged] : undefined;
    if (!manifest)
      throw new PackageError(
        'NOT_FOUND',
        name,
        `no version or dist-tag '${wanted}'`,
        'Check the name and the version.',
      );
    return manifest;
  }
  const latest = tags.latest ? packument.versions[tags.latest] : undefined;
  if (latest && satisfies(latest.version, range) && !latest.deprecated) return latest;
  const candidates = Object.values(packument.versions)
    .map((m) => ({ m, v: parseVersion(m.version) }))
    .filter((c) => c.v && satisfies(c.v, range))
    .sort((a, b) => Number(!!a.m.deprecated) - Number(!!b.m.deprecated) || compareVersions(b.v!, a.v!));
  const chosen = candidates[0]?.m ?? (latest && satisfies(latest.version, range) ? latest : undefined);
  if (!chosen) {
    const known = Object.keys(packument.versions).slice(-5).join(', ');
    throw new PackageError(
      'NOT_FOUND',
      name,
      `no version matches '${wanted}'${known ? ` (latest versions: ${known})` : ''}`,
      'Pick a range the registry has.',
    );
  }
  return chosen;
}
