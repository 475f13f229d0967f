/** Bytes as lowercase hex and back: object ids, digests, integrity, the contract suite's byte views. */

/** Each byte's two hex digits, by the byte. */
export const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!]!;
  return s;
}

export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  hexInto(hex, out, 0);
  return out;
}

// a hex digit's value by its character code (0 for anything else)
const NIBBLE = new Uint8Array(128);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) NIBBLE[65 + i] = NIBBLE[97 + i] = 10 + i;

/** Write the bytes of `hex` into `out` at `at` (a tree's entries, without a buffer per id). */
export function hexInto(hex: string, out: Uint8Array, at: number): void {
  for (let i = 0; i + 1 < hex.length; i += 2)
    out[at + i / 2] = (NIBBLE[hex.charCodeAt(i) & 127]! << 4) | NIBBLE[hex.charCodeAt(i + 1) & 127]!;
}
