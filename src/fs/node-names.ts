import { hasEscapedBytes, nameToBytes } from './name-bytes.js';

/** A path as Node's fs takes it: the string itself, or its original bytes when it holds escaped ones (see name-bytes.ts). */
export function native(path: string): string | Buffer {
  if (!hasEscapedBytes(path)) return path;
  const bytes = nameToBytes(path);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
