import { toHex } from '../fs/hash/hex.js';
import { SYNC_HASH_BYTES, sha256HexSync } from '../fs/hash/sha256.js';

export { SYNC_HASH_BYTES, sha256HexSync };

/** Hex SHA-256 of bytes: in plain JS for small inputs, with WebCrypto for large ones. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= SYNC_HASH_BYTES) return sha256HexSync(bytes);
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return toHex(new Uint8Array(digest));
}
