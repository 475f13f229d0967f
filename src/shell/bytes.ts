const decoder = new TextDecoder('utf-8');
const strict = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/**
 * The shell's streams are text, and a byte that is not part of UTF-8 (`printf '\xff'`, a gzip
 * stream, a binary file through `cat`) travels in them as one lone surrogate U+DC80..U+DCFF (the
 * "surrogateescape" scheme): writing the text back gives the same bytes, and only what is shown
 * to the caller turns them into U+FFFD, as a terminal shows them.
 */
const RAW = 0xdc00;
const HAS_RAW = /[\udc80-\udcff]/;

/** One byte as the shell's streams carry it: itself below 0x80, an escape above. */
export const rawByte = (byte: number): string => String.fromCharCode(byte < 0x80 ? byte : RAW + byte);

/** The length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i]!;
  const cont = (k: number) => i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const d = b[i + 1] ?? 0;
    if ((c === 0xe0 && d < 0xa0) || (c === 0xed && d >= 0xa0)) return 0;
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const d = b[i + 1] ?? 0;
    if ((c === 0xf0 && d < 0x90) || (c === 0xf4 && d >= 0x90)) return 0;
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** File bytes as the shell's text: UTF-8 decoded, every other byte kept as its escape. */
export function decodeLossy(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    let out = '';
    let start = 0;
    for (let i = 0; i < bytes.length; ) {
      if (bytes[i]! < 0x80) {
        i++;
        continue;
      }
      const n = sequenceAt(bytes, i);
      if (n) {
        i += n;
        continue;
      }
      out += decoder.decode(bytes.subarray(start, i)) + rawByte(bytes[i]!);
      start = ++i;
    }
    return out + decoder.decode(bytes.subarray(start));
  }
}

/** The shell's text as bytes: UTF-8, with each escaped byte written as itself. */
export function encodeUtf8(text: string): Uint8Array {
  if (!HAS_RAW.test(text)) return encoder.encode(text);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc80 || c > 0xdcff) continue;
    const prev = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (prev >= 0xd800 && prev <= 0xdbff) continue;
    parts.push(encoder.encode(text.slice(start, i)), Uint8Array.of(c - RAW));
    start = i + 1;
  }
  parts.push(encoder.encode(text.slice(start)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Text as the caller sees it: escaped bytes that form UTF-8 together decode, the rest are U+FFFD. */
export const displayText = (text: string): string => (HAS_RAW.test(text) ? decoder.decode(encodeUtf8(text)) : text);
