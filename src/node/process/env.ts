/** Name fragments that mark a variable as a credential; it is not passed to programs. */
export const CREDENTIAL_MARKERS = ['TOKEN', 'SECRET', 'KEY', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'WEBHOOK', 'COOKIE'];

// Whole `_`-separated words that mark a credential: NPM_CONFIG__AUTH, SSH_AUTH_SOCK, but not GIT_AUTHOR_NAME.
const CREDENTIAL_WORDS = new Set(['AUTH', 'AUTHTOKEN', 'PAT', 'DSN']);

// Values that are credentials whatever their name: a URL with a password (postgres://u:p@host),
// a Slack or Discord webhook (its path is the secret), a private key.
const CREDENTIAL_VALUES = [
  /^[a-z][a-z0-9+.-]*:\/\/[^/\s@]*:[^/\s@]+@/i,
  /hooks\.slack\.com\/(services|workflows|triggers)\//i,
  /discord(app)?\.com\/api\/webhooks\//i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

/** Prefixes of Sandpit's own variables: a program gets fresh ones from the engine, never the parent's. */
const ENGINE_PREFIXES = ['SANDPIT_', 'ZAGENT_'];

/** What a program starts with inside the OS sandbox when the policy adds nothing. */
export const SANDBOX_ENV_ALLOW = ['PATH', 'HOME', 'LANG', 'TERM'];

/**
 * The environment a program gets without the OS sandbox: the parent's minus anything that looks
 * like a credential by name or by value (or is named in `alsoRemove`, exactly or as a `PREFIX*`
 * pattern), plus the variables the call adds.
 */
export function programEnv(
  parent: NodeJS.ProcessEnv,
  extra: Record<string, string> = {},
  alsoRemove: readonly string[] = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isCredential(name, value, alsoRemove)) continue;
    if (isEngineName(name)) continue;
    env[name] = value;
  }
  return Object.assign(env, extra);
}

/**
 * The environment a program gets inside the OS sandbox: only the allow-listed names (PATH, LANG,
 * TERM and what the policy adds) from the parent, HOME pointing into the sandbox, then what the
 * call adds. An allow-list cannot miss a credential it has never heard of.
 */
export function allowListedEnv(
  parent: NodeJS.ProcessEnv,
  home: string,
  allow: readonly string[] = [],
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...SANDBOX_ENV_ALLOW, ...allow]) {
    const value = parent[name];
    if (value !== undefined && name !== 'HOME') env[name] = value;
  }
  env.HOME = home;
  return Object.assign(env, extra);
}

/** Whether a variable is withheld from programs: a credential-like name, a credential-like value, or named by the caller. */
export function isCredential(name: string, value: string, alsoRemove: readonly string[] = []): boolean {
  return isCredentialName(name, alsoRemove) || CREDENTIAL_VALUES.some((pattern) => pattern.test(value));
}

export function isCredentialName(name: string, alsoRemove: readonly string[] = []): boolean {
  const upper = name.toUpperCase();
  if (CREDENTIAL_MARKERS.some((m) => upper.includes(m))) return true;
  if (upper.split('_').some((word) => CREDENTIAL_WORDS.has(word))) return true;
  return alsoRemove.some((pattern) => {
    const p = pattern.toUpperCase();
    return p.endsWith('*') ? upper.startsWith(p.slice(0, -1)) : upper === p;
  });
}

/** A name in Sandpit's own namespace (SANDPIT_*, ZAGENT_*). */
export function isEngineName(name: string): boolean {
  const upper = name.toUpperCase();
  return ENGINE_PREFIXES.some((p) => upper.startsWith(p));
}

/** What PATH is inside the OS sandbox when no folder of the host's survives the filter. */
const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * PATH for the OS sandbox: the host's folders minus relative ones and those inside any of
 * `privateDirs` (the home folder, the folder holding the workspace, Sandpit's own working folder),
 * whose names tell a command who runs it and where; system folders stay, so programs are found.
 */
export function sandboxPath(path: string | undefined, privateDirs: readonly string[]): string {
  const inside = (dir: string, top: string) => top !== '/' && (dir === top || dir.startsWith(`${top}/`));
  const kept = (path ?? '')
    .split(':')
    .filter((dir) => dir.startsWith('/') && !privateDirs.some((top) => inside(dir.replace(/\/+$/, ''), top)));
  return kept.length > 0 ? [...new Set(kept)].join(':') : FALLBACK_PATH;
}
