import { gunzip as inflate } from '../archive/gzip.js';
import { TarFormatError, tarEntries } from '../archive/tar-read.js';
import { PackageError } from './errors.js';

/** One file of a package tarball, its path relative to the package folder. */
export interface TarFile {
  path: string;
  data: Uint8Array;
  executable: boolean;
}

/** Inflate a package tarball with the platform's own DecompressionStream (no WebAssembly, no zlib port). */
export const gunzip = (data: Uint8Array): Promise<Uint8Array> => inflate(data);

/**
 * The path inside the package: npm drops the tarball's first folder (`package/`). A path that
 * would leave the package (`..`, absolute, a drive) is refused, naming the package.
 */
function packagePath(name: string, raw: string): string | null {
  const parts = raw.replace(/\\/g, '/').split('/');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) throw escaping(name, raw);
  const rest = parts.slice(1).filter((p) => p !== '' && p !== '.');
  if (rest.some((p) => p === '..')) throw escaping(name, raw);
  return rest.length ? rest.join('/') : null;
}

const escaping = (name: string, raw: string) =>
  new PackageError('OUTSIDE_WORKSPACE', name, `its tarball holds a path outside the package ('${raw}'); refused`);

/**
 * The regular files of a package tarball (ustar, pax long names, GNU long names), read by the
 * archive reader the shell's `tar` shares. Links, devices and FIFOs are skipped, as npm skips
 * them; folders are implied by the files' paths.
 */
export function readTar(name: string, tar: Uint8Array): TarFile[] {
  let entries: ReturnType<typeof tarEntries>;
  try {
    entries = tarEntries(tar);
  } catch (error) {
    if (error instanceof TarFormatError)
      throw new PackageError('IO_ERROR', name, `its tarball is damaged (${error.message})`);
    throw error;
  }
  const files: TarFile[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    const path = packagePath(name, entry.name);
    if (path) files.push({ path, data: entry.data.slice(), executable: (entry.mode & 0o111) !== 0 });
  }
  return files;
}
