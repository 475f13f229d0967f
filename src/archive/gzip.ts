/**
 * gzip through the platform's own CompressionStream and DecompressionStream (browsers and Node
 * both have them): no WebAssembly, no zlib port in the bundle.
 */

/** Why gzip data cannot be inflated: not gzip at all, or damaged or cut short. */
export class GzipError extends Error {
  constructor(readonly kind: 'not-gzip' | 'corrupt' | 'truncated') {
    super(
      kind === 'not-gzip'
        ? 'not in gzip format'
        : kind === 'truncated'
          ? 'unexpected end of file'
          : 'invalid compressed data--format violated',
    );
  }
}

/** Whether bytes start as a gzip stream does. */
export const isGzip = (data: Uint8Array): boolean => data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;

async function through(data: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const piped = new Blob([data as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

/** Inflate gzip data; GzipError when it is not gzip or is damaged. */
export async function gunzip(data: Uint8Array): Promise<Uint8Array> {
  if (!isGzip(data)) throw new GzipError('not-gzip');
  try {
    return await through(data, new DecompressionStream('gzip'));
  } catch (error) {
    throw new GzipError(/end of (file|stream|input)/i.test(String(error)) ? 'truncated' : 'corrupt');
  }
}

/**
 * Deflate into a gzip stream. With `name`, the header carries the original file's name and
 * modification time (seconds), as `gzip FILE` writes them.
 */
export async function gzip(data: Uint8Array, origin?: { name: string; mtime: number }): Promise<Uint8Array> {
  const packed = await through(data, new CompressionStream('gzip'));
  if (!origin) return packed;
  const name = new TextEncoder().encode(origin.name);
  const out = new Uint8Array(packed.length + name.length + 1);
  out.set(packed.subarray(0, 10));
  out[3] = out[3]! | 0x08;
  new DataView(out.buffer).setUint32(4, origin.mtime >>> 0, true);
  out[9] = 3;
  out.set(name, 10);
  out.set(packed.subarray(10), 11 + name.length);
  return out;
}
