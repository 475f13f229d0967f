import { toHex } from '../fs/hash/hex.js';
import { PackageError } from './errors.js';

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** The `sha512-...` integrity string of some bytes, as npm writes it. */
export async function integrityOf(data: Uint8Array): Promise<string> {
  return `sha512-${base64(new Uint8Array(await crypto.subtle.digest('SHA-512', data as BufferSource)))}`;
}

/**
 * Check tarball bytes against a packument's `integrity` (any of its sha512 hashes; sha1 from
 * `shasum` for old packages). Throws IO_ERROR naming the package when none matches.
 */
export async function checkIntegrity(
  name: string,
  data: Uint8Array,
  integrity: string | undefined,
  shasum?: string,
): Promise<string> {
  const own = await integrityOf(data);
  const wanted = (integrity ?? '').split(/\s+/).filter((h) => h.startsWith('sha512-'));
  if (wanted.length > 0) {
    if (wanted.includes(own)) return own;
    throw new PackageError(
      'IO_ERROR',
      name,
      `integrity check failed: the tarball's sha512 is ${own}, the registry says ${wanted[0]}`,
      'The tarball or the lock is corrupt or was tampered with; nothing was installed.',
    );
  }
  if (shasum) {
    const sha1 = toHex(new Uint8Array(await crypto.subtle.digest('SHA-1', data as BufferSource)));
    if (sha1 !== shasum.toLowerCase())
      throw new PackageError('IO_ERROR', name, `integrity check failed: sha1 ${sha1}, the registry says ${shasum}`);
  }
  return own;
}
