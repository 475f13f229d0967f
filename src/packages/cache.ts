/** Where fetched tarballs are kept, keyed by their integrity, so a reinstall needs no network. */
export interface TarballCache {
  /** the tarball kept under this integrity, if any (checked against it again before use) */
  get(key: string): Promise<Uint8Array | undefined>;
  /** keep a fetched tarball under its integrity */
  put(key: string, data: Uint8Array): Promise<void>;
}

/** A cache in memory (Node, or a browser without Cache Storage). */
export function memoryTarballCache(): TarballCache {
  const held = new Map<string, Uint8Array>();
  return {
    get: async (key) => held.get(key),
    put: async (key, data) => {
      held.set(key, data);
    },
  };
}

/** Cache Storage keys must be http(s) requests: a made-up origin that is never fetched. */
const keyUrl = (key: string) => `https://tarballs.sandpit.invalid/${encodeURIComponent(key)}`;

/**
 * The part of the browser's `CacheStorage` the tarball cache uses, named here so the package's
 * declarations type-check without the DOM library.
 */
export interface CacheStorageLike {
  open(name: string): Promise<{
    match(url: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | undefined>;
    put(url: string, response: Response): Promise<void>;
  }>;
}

/** A cache in the browser's Cache Storage: it outlives the page, so a reload installs offline. */
export function cacheStorageTarballCache(storage: CacheStorageLike, name = 'sandpit-npm-tarballs'): TarballCache {
  const open = storage.open(name);
  return {
    async get(key) {
      const hit = await (await open).match(keyUrl(key));
      return hit ? new Uint8Array(await hit.arrayBuffer()) : undefined;
    },
    async put(key, data) {
      await (await open).put(keyUrl(key), new Response(data as BodyInit));
    },
  };
}

let shared: TarballCache | undefined;

/** The cache an install uses unless given one: Cache Storage where present, else one in memory for the process. */
export function defaultTarballCache(): TarballCache {
  if (!shared) {
    const storage = (globalThis as { caches?: CacheStorage }).caches;
    shared = storage ? cacheStorageTarballCache(storage) : memoryTarballCache();
  }
  return shared;
}
