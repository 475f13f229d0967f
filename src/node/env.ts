/** Name fragments that mark a variable as a credential; it is not passed to programs. */
export const CREDENTIAL_MARKERS = ['TOKEN', 'SECRET', 'KEY', 'PASSWORD', 'PASSWD', 'CREDENTIAL'];

/** Prefixes of Sandpit's own variables: a program gets fresh ones from the engine, never the parent's. */
const ENGINE_PREFIXES = ['SANDPIT_', 'ZAGENT_'];

/**
 * The environment a program gets: the parent's minus anything that looks like a credential (or
 * is named in `alsoRemove`, exactly or as a `PREFIX*` pattern), plus the variables the call adds.
 */
export function programEnv(
  parent: NodeJS.ProcessEnv,
  extra: Record<string, string> = {},
  alsoRemove: readonly string[] = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isCredentialName(name, alsoRemove)) continue;
    if (ENGINE_PREFIXES.some((p) => name.toUpperCase().startsWith(p))) continue;
    env[name] = value;
  }
  return Object.assign(env, extra);
}

export function isCredentialName(name: string, alsoRemove: readonly string[] = []): boolean {
  const upper = name.toUpperCase();
  if (CREDENTIAL_MARKERS.some((m) => upper.includes(m))) return true;
  return alsoRemove.some((pattern) => {
    const p = pattern.toUpperCase();
    return p.endsWith('*') ? upper.startsWith(p.slice(0, -1)) : upper === p;
  });
}
