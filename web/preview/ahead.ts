import type { ServedFile } from './file-server.js';
import { PREVIEW_PREFIX } from './messages.js';

/**
 * The request paths (below the session's prefix, with their query, as the Service Worker names a
 * request) of the URLs a served file makes the browser fetch next: a page's scripts and
 * stylesheets, a module's static imports. `filePath` is the file's own request path, the base its
 * relative URLs resolve against; a root-relative URL means the previewed folder's root (or the
 * server's `@fs/` space), as the Service Worker reads it. Other origins' URLs are left out.
 */
export function requestPathsOf(prefix: string, filePath: string, urls: readonly string[]): string[] {
  const base = new URL(`${prefix}${filePath.replace(/[?#].*$/, '')}`, 'http://preview.invalid');
  const paths = new Set<string>();
  for (const link of urls) {
    let url: URL;
    try {
      url = new URL(link, base);
    } catch {
      continue;
    }
    if (url.origin !== base.origin) continue;
    if (url.pathname.startsWith(prefix)) paths.add(url.pathname.slice(prefix.length) + url.search);
    else if (!url.pathname.startsWith(PREVIEW_PREFIX)) paths.add(url.pathname.slice(1) + url.search);
  }
  return [...paths];
}

/** What one page load has sent ahead: each path once, and nothing more once a newer load has begun. */
export class AheadLoad {
  private readonly claimed = new Set<string>();
  /** set when a newer page load starts: what is still to send for this one is not sent */
  stale = false;

  /** The paths of `paths` not sent ahead yet in this load, now counted as sent. */
  claim(paths: readonly string[]): string[] {
    const fresh = paths.filter((path) => !this.claimed.has(path));
    for (const path of fresh) this.claimed.add(path);
    return fresh;
  }
}

/** The URLs a served file makes the browser fetch next: a page's links, a module's static imports. */
export const nextUrlsOf = (served: ServedFile): string[] =>
  served.status === 200 ? [...(served.links ?? []), ...(served.imports ?? [])] : [];

/**
 * Serve `paths` (announced to the Service Worker already) and, as each one is served, the files
 * it makes the browser fetch next, level after level, without waiting for the browser to parse
 * one module before its imports are asked for: the whole static module graph of a page goes to
 * the Service Worker in one pass. `send` gets each file with the paths it announces in turn
 * (never announced twice in a load); a stale load sends null for what is left, so the Service
 * Worker asks again instead of waiting.
 */
export async function serveAhead(
  load: AheadLoad,
  prefix: string,
  paths: readonly string[],
  referrer: string,
  serve: (path: string, referrer: string) => Promise<ServedFile>,
  send: (path: string, served: ServedFile | null, announced: string[]) => void,
): Promise<void> {
  await Promise.all(
    paths.map(async (path) => {
      if (load.stale) return send(path, null, []);
      const served = await serve(path, referrer);
      const next = load.stale ? [] : load.claim(requestPathsOf(prefix, path, nextUrlsOf(served)));
      send(path, served, next);
      await serveAhead(load, prefix, next, path.replace(/[?#].*$/, ''), serve, send);
    }),
  );
}
