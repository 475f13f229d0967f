import type { GitHttpRequest, HttpClient } from 'isomorphic-git';
import webHttp from 'isomorphic-git/http/web';
import { joinBytes } from '../fs/join-bytes.js';
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
 * browser, so the browser entry needs nothing from `node:`. A request that only reads (the ref
 * list, a fetch's pack) is sent once more when the connection drops before any answer: Node's
 * fetch reuses a kept-alive connection that the server may be closing at that moment (a loaded
 * machine's timers make it likely), and git itself would simply reconnect. A push is never sent
 * twice.
 */
export const http: HttpClient = {
  async request(request) {
    if (!onlyReads(request)) return webHttp.request(request);
    const bytes = request.body ? await collect(request.body) : undefined;
    const attempt = () => webHttp.request({ ...request, body: bytes ? once(bytes) : undefined });
    try {
      return await attempt();
    } catch (error) {
      if (!droppedBeforeAnswer(error)) throw error;
      return attempt();
    }
  },
};

function onlyReads(request: GitHttpRequest): boolean {
  const method = (request.method ?? 'GET').toUpperCase();
  return method === 'GET' || (method === 'POST' && /\/git-upload-pack$/.test(new URL(request.url).pathname));
}

/** Node's fetch fails with a TypeError whose cause names the socket's end; a browser retries such a request itself. */
function droppedBeforeAnswer(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return error instanceof TypeError && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE');
}

async function collect(body: AsyncIterableIterator<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return joinBytes(parts);
}

async function* once(bytes: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield bytes;
}

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
