/** The kinds of dependency spec that are not a registry range or tag, as npm-package-arg names them. */
export type ForeignSpec = 'git' | 'file' | 'URL' | 'alias' | 'workspace';

/**
 * What a spec is when it is not a registry range or tag (`git+https:`, `github:u/r`, `u/r`,
 * `file:`, `link:`, a path or a `.tgz`, `https:`, `npm:` aliases, `workspace:`); undefined for a
 * range or a tag. The installer fetches only from the registry, so these are refused by name.
 */
export function foreignSpec(spec: string): ForeignSpec | undefined {
  const s = spec.trim();
  if (/^(file:|link:|\.{0,2}\/|~\/)/.test(s) || /\.(tgz|tar\.gz|tar)$/.test(s))
    return /^https?:/.test(s) ? 'URL' : 'file';
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:)/.test(s) || /^[\w.-]+\/[\w.-]+(#.*)?$/.test(s)) return 'git';
  if (/^https?:/.test(s)) return 'URL';
  if (s.startsWith('npm:')) return 'alias';
  if (s.startsWith('workspace:')) return 'workspace';
  return undefined;
}
