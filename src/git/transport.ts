import http from 'isomorphic-git/http/web';
import type { GitAuth, GitCredentials } from './redact.js';

/** How to reach a remote, shared by clone, pull and push. */
export interface RemoteOptions {
  /** an http(s) URL; credentials in it are taken out and used as `auth` */
  url?: string;
  /** credentials, or a function that gives them for a URL */
  auth?: GitAuth;
  /**
   * A CORS proxy for browsers talking to hosts that send no CORS headers (isomorphic-git's
   * `corsProxy`: requests go to `${corsProxy}/${host}/${path}`).
   */
  corsProxy?: string;
}

/**
 * isomorphic-git's fetch-based client: the same one serves Node (which has fetch) and the
 * browser, so the browser entry needs nothing from `node:`.
 */
export { http };

/**
 * The onAuth callback isomorphic-git calls after a 401. Secrets the caller returns are added to
 * `secrets` (so messages can be scrubbed) and never stored anywhere else.
 */
export function authCallback(auth: GitAuth | undefined, fromUrl: GitCredentials | null, secrets: string[]) {
  if (!auth && !fromUrl) return undefined;
  return async (url: string) => {
    const given = typeof auth === 'function' ? await auth(url) : (auth ?? fromUrl ?? undefined);
    if (!given) return { cancel: true };
    for (const s of [given.token, given.password]) if (s && s.length >= 3) secrets.push(s, encodeURIComponent(s));
    if (given.token) return { username: given.username || 'x-access-token', password: given.token };
    return { username: given.username ?? '', password: given.password ?? '' };
  };
}
