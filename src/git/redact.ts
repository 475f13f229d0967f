import { ToolError } from '../contract/index.js';

/** What a caller hands over to reach a remote: a token (sent as HTTP basic auth) or a user and password. */
export interface GitCredentials {
  /** sent as the password; `username` defaults to `x-access-token`, which GitHub, Gitea and most hosts accept */
  token?: string;
  /** the user name (default `x-access-token` with a token) */
  username?: string;
  /** the password */
  password?: string;
}

/**
 * Credentials, given directly or by a callback that runs only when the server asks (an HTTP 401),
 * so a token can come from a prompt or a vault and never be kept anywhere.
 */
export type GitAuth =
  | GitCredentials
  | ((url: string) => GitCredentials | undefined | Promise<GitCredentials | undefined>);

/**
 * Check a remote URL and take any `user:password@` out of it. Only http(s) is spoken (the
 * transport is isomorphic-git's, which is HTTP only). The returned URL is safe to store and show.
 */
export function splitRemoteUrl(raw: unknown): { url: string; auth: GitCredentials | null } {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new ToolError('INVALID_ARGUMENTS', 'a git remote URL is required', {
      hint: 'Give an http(s) URL such as https://github.com/owner/repo.git.',
    });
  }
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw new ToolError('INVALID_ARGUMENTS', 'the git remote is not a valid URL', {
      hint: 'Give an http(s) URL such as https://github.com/owner/repo.git.',
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `git remotes are reached over http(s) only, not ${parsed.protocol.replace(/:$/, '')}`,
      {
        hint: 'Use the https:// URL of the repository (ssh and file remotes are not supported).',
      },
    );
  }
  const auth =
    parsed.username || parsed.password
      ? { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) }
      : null;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString().replace(/\/$/, ''), auth };
}

/** Every secret string a set of credentials holds, for scrubbing messages. */
export function secretsOf(...all: Array<GitCredentials | null | undefined>): string[] {
  const out: string[] = [];
  for (const c of all)
    for (const s of [c?.token, c?.password]) if (s && s.length >= 3) out.push(s, encodeURIComponent(s));
  return out;
}

/** Replace every secret (and any `user:pass@` left in a URL) in a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(/(https?:\/\/)[^/@\s]*@/gi, '$1');
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}
