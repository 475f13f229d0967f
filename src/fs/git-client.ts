import type { WorkspaceFs } from './types.js';

/** What isomorphic-git's `fs` option takes: a promise client whose readFile also answers text reads. */
export interface GitFsClient {
  /** the backend, with readFile honouring `'utf8'` and `{ encoding: 'utf8' }` */
  promises: WorkspaceFs;
}

const decoder = new TextDecoder();

function asksForText(options: unknown): boolean {
  const encoding =
    typeof options === 'string' ? options : (options as { encoding?: unknown } | null | undefined)?.encoding;
  return encoding === 'utf8' || encoding === 'utf-8';
}

/**
 * Hand a backend to isomorphic-git (`git.log({ fs: gitFsClient(fs), ... })`). `WorkspaceFs.readFile`
 * gives bytes only, so that a backend is one plain object with no overloads; git also reads its
 * refs and config as text, which this wrapper decodes. Every other method is the backend's own.
 */
export function gitFsClient(fs: WorkspaceFs): GitFsClient {
  // isomorphic-git probes for a promise API with a bare readFile() each time it wraps the client
  // (once per object read): answer that probe without a backend call or a fresh error's stack
  const probe = Object.assign(new Error('readFile needs a path'), { code: 'EINVAL' });
  const readFile = async (path: string, options?: unknown): Promise<Uint8Array> => {
    if (typeof path !== 'string') throw probe;
    const bytes = await fs.readFile(path);
    // isomorphic-git types readFile as a bare Function and uses the string it asked for.
    return (asksForText(options) ? decoder.decode(bytes) : bytes) as Uint8Array;
  };
  const bound = new Map<PropertyKey, unknown>();
  const promises = new Proxy(fs, {
    get(target, key) {
      if (key === 'readFile') return readFile;
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      // Bound once, so a backend written as a class keeps its `this` and git's repeated look-ups stay cheap.
      if (!bound.has(key)) bound.set(key, (value as (...args: unknown[]) => unknown).bind(target));
      return bound.get(key);
    },
  });
  return { promises };
}
