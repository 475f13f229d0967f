/** Output handed to the sink per piece: zeros inflate about a thousandfold, so a piece is bounded by this, not by the input. */
const PIECE = 1024 * 1024;

/**
 * NativeHelpers.inflateStream on Node's zlib (passed in, so it loads with the first use): the
 * stream at the start of `data` inflated on the thread pool, each piece handed to `sink` as it
 * comes. zlib stops at the stream's end and counts the input it took, whatever follows it.
 */
export function inflateStream(
  zlib: typeof import('node:zlib'),
  data: Uint8Array,
  sink: (piece: Uint8Array) => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflater = zlib.createInflate({ chunkSize: PIECE });
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      inflater.destroy();
      reject(error);
    };
    inflater.on('data', (piece: Buffer) => {
      if (failed) return;
      try {
        sink(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
      } catch (error) {
        fail(error);
      }
    });
    inflater.on('error', fail);
    inflater.on('end', () => {
      if (!failed) resolve(inflater.bytesWritten);
    });
    inflater.end(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  });
}
