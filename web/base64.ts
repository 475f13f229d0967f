/**
 * File bytes as they cross the worker boundary: base64 text, so the boundary carries only plain
 * JSON. Chunked, because String.fromCharCode takes a bounded number of arguments.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A file on the wire: its workspace path and its bytes in base64. */
export interface WireFile {
  path: string;
  base64: string;
}
