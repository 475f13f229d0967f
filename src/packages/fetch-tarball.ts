import type { TarballCache } from './cache.js';
import { PackageError } from './errors.js';
import { checkIntegrity } from './integrity.js';
import { gunzip, readTar, type TarFile } from './tar.js';

/** What a tarball fetch needs to know about a package. */
export interface TarballSpec {
  name: string;
  version: string;
  resolved: string;
  integrity?: string;
  shasum?: string;
}

/** A fetched and checked tarball, unpacked. */
export interface FetchedPackage {
  integrity: string;
  files: TarFile[];
  /** bytes that came over the network (0 from the cache) */
  fetchedBytes: number;
}

/**
 * Fetch one tarball (from the cache when it holds this integrity), check it, unpack it. Every
 * failure names the package: a 404 is NOT_FOUND, the network and a bad checksum are IO_ERROR.
 */
export async function fetchPackage(
  spec: TarballSpec,
  cache: TarballCache,
  fetchFn: typeof fetch,
  offline = false,
): Promise<FetchedPackage> {
  const label = `${spec.name}@${spec.version}`;
  const key = spec.integrity ?? spec.resolved;
  let data = await cache.get(key).catch(() => undefined);
  let fetchedBytes = 0;
  let integrity: string;
  if (data) {
    // A cache entry is checked like a download: a damaged cache must not install damaged files.
    integrity = await checkIntegrity(label, data, spec.integrity, spec.shasum);
  } else {
    if (offline) throw new PackageError('NOT_FOUND', label, 'is not in the tarball cache and the install is offline');
    const response = await fetchFn(spec.resolved).catch((error: unknown) => {
      throw new PackageError(
        'IO_ERROR',
        label,
        `could not fetch its tarball (${error instanceof Error ? error.message : String(error)})`,
        'Check the network and the registry address.',
      );
    });
    if (response.status === 404) throw new PackageError('NOT_FOUND', label, 'its tarball is not in the registry (404)');
    if (!response.ok)
      throw new PackageError('IO_ERROR', label, `the registry answered ${response.status} for its tarball`);
    data = new Uint8Array(await response.arrayBuffer());
    fetchedBytes = data.length;
    integrity = await checkIntegrity(label, data, spec.integrity, spec.shasum);
    await cache.put(key, data).catch(() => {});
  }
  let tar: Uint8Array;
  try {
    tar = await gunzip(data);
  } catch {
    throw new PackageError('IO_ERROR', label, 'its tarball is not valid gzip');
  }
  return { integrity, files: readTar(label, tar), fetchedBytes };
}
