/** The encodings text tools read and write. */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';
export const TEXT_ENCODINGS: readonly TextEncodingName[] = ['utf-8', 'utf-16le', 'utf-16be', 'latin1'];

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  bom: boolean;
}

export type DecodeFailure = { kind: 'binary' } | { kind: 'decode'; encoding: TextEncodingName; byteOffset: number };

const BINARY_SNIFF_BYTES = 8192;

export function detectBom(bytes: Uint8Array): { encoding: TextEncodingName; length: number } | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { encoding: 'utf-8', length: 3 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/** A NUL in the first 8 KiB marks a file as binary (UTF-16 files are exempt: they are full of NULs). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) !== -1;
}

/**
 * Strict decoding: a BOM decides the encoding, else `requested`, else UTF-8. A byte sequence
 * that does not decode is a failure, never replaced with U+FFFD.
 */
export function decodeText(bytes: Uint8Array, requested?: TextEncodingName): DecodedText | DecodeFailure {
  const bom = detectBom(bytes);
  const encoding = bom?.encoding ?? requested ?? 'utf-8';
  const isUtf16 = encoding === 'utf-16le' || encoding === 'utf-16be';
  if (!isUtf16 && looksBinary(bytes)) return { kind: 'binary' };
  const body = bom ? bytes.subarray(bom.length) : bytes;
  if (encoding === 'latin1') return { text: decodeLatin1(body), encoding, bom: false };
  if (isUtf16 && body.length % 2 === 1)
    return { kind: 'decode', encoding, byteOffset: body.length - 1 + (bom?.length ?? 0) };
  try {
    const text = strictDecoder(encoding).decode(body);
    return { text, encoding, bom: bom !== null };
  } catch {
    return { kind: 'decode', encoding, byteOffset: firstBadOffset(body, encoding) + (bom?.length ?? 0) };
  }
}

export function isDecodeFailure(value: DecodedText | DecodeFailure): value is DecodeFailure {
  return 'kind' in value;
}

/** Encode text back into the file's encoding; null when a character cannot be represented. */
export function encodeText(text: string, encoding: TextEncodingName, bom: boolean): Uint8Array | null {
  let body: Uint8Array | null;
  switch (encoding) {
    case 'utf-8':
      body = text.isWellFormed() ? new TextEncoder().encode(text) : null;
      break;
    case 'latin1':
      body = encodeLatin1(text);
      break;
    default:
      body = encodeUtf16(text, encoding === 'utf-16be');
  }
  if (!body || !bom || encoding === 'latin1') return body;
  const mark = encoding === 'utf-8' ? [0xef, 0xbb, 0xbf] : encoding === 'utf-16le' ? [0xff, 0xfe] : [0xfe, 0xff];
  const out = new Uint8Array(mark.length + body.length);
  out.set(mark, 0);
  out.set(body, mark.length);
  return out;
}

const decoders = new Map<string, TextDecoder>();

/** One strict decoder per encoding: without `stream`, each decode() starts afresh, so reuse is safe. */
function strictDecoder(encoding: string): TextDecoder {
  let decoder = decoders.get(encoding);
  if (!decoder) decoders.set(encoding, (decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true })));
  return decoder;
}

function decodeLatin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

function encodeLatin1(text: string): Uint8Array | null {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return null;
    out[i] = c;
  }
  return out;
}

function encodeUtf16(text: string, bigEndian: boolean): Uint8Array | null {
  if (!text.isWellFormed()) return null;
  const out = new Uint8Array(text.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), !bigEndian);
  return out;
}

function firstBadOffset(bytes: Uint8Array, encoding: TextEncodingName): number {
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return firstUnpairedSurrogate(bytes, encoding === 'utf-16le');
  if (encoding !== 'utf-8') return 0;
  let lo = 0;
  let hi = bytes.length;
  // In stream mode an unfinished sequence at the end is not an error, so "decodes" is monotonic.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  // The prefix may end in an unfinished sequence that the next byte broke: that sequence is the bad one.
  let start = lo;
  while (start > 0 && lo - start < 3 && (bytes[start - 1]! & 0xc0) === 0x80) start--;
  const lead = start > 0 ? bytes[start - 1]! : 0;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  if (lead >= 0xc0 && lo - (start - 1) < needed) return start - 1;
  return lo;
}

/** Byte offset of the first unpaired surrogate in UTF-16 code units (the only way even-length UTF-16 fails). */
function firstUnpairedSurrogate(bytes: Uint8Array, littleEndian: boolean): number {
  const unit = (i: number) => (littleEndian ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    const u = unit(i);
    if (u >= 0xdc00 && u <= 0xdfff) return i;
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = i + 3 < bytes.length ? unit(i + 2) : -1;
      if (next < 0xdc00 || next > 0xdfff) return i;
      i += 2;
    }
  }
  return 0;
}
