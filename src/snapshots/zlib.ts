import { joinBytes } from '../fs/join-bytes.js';
import { nativeFor } from '../fs/platform-native.js';
import type { WorkspaceFs } from '../fs/types.js';

/**
 * Objects this small are stored in zlib's uncompressed block format: with its 11 bytes of framing
 * such an object still fills one 4 KiB disk block as a loose file, and setting up a compressor
 * (or a CompressionStream round trip) costs more than compressing it: a profile of a first
 * snapshot of 10,000 source files spent half its time in per-call zlib set-up. In a pack it
 * costs bytes (about twice a source file's compressed size), still far less than git's own
 * first commit, which writes one loose file of at least a disk block per file. git reads any
 * valid zlib stream.
 */
const STORE_LIMIT = 4096 - 11;

/** Bytes a stored zlib stream adds to its content: the zlib header, the block header, the Adler-32. */
export const STORED_FRAMING = 11;

/** Whether `compress` stores content of this many bytes uncompressed. */
export function isStoredSize(length: number): boolean {
  return length <= STORE_LIMIT;
}

/**
 * Below this size an object is compressed here even when many are on their way: handing it to a
 * worker thread (Node's async zlib builds a stream per call) costs this thread as much as
 * compressing it at level 1, and the thread's callbacks come on top. A profile of a 100-file
 * patch's snapshot (24 KB files) spent more of its time in that set-up than in compressing.
 */
const OFF_THREAD_MIN = 64 * 1024;

/**
 * zlib-wrap an object: stored when small, else compressed by the backend's native zlib or
 * CompressionStream. `offThread`: many objects are on their way, so a platform that compresses on
 * worker threads (Node's zlib) does so for the large ones, while the caller goes on.
 */
export function compress(fs: WorkspaceFs, content: Uint8Array, offThread = false): Uint8Array | Promise<Uint8Array> {
  if (content.length <= STORE_LIMIT) return zlibStored(content);
  const native = nativeFor(fs);
  if (offThread && content.length >= OFF_THREAD_MIN && native?.deflateAsync) return native.deflateAsync(content);
  return native ? native.deflate(content) : deflate(content);
}

/** A zlib stream (RFC 1950) of one uncompressed deflate block (RFC 1951, BTYPE 00); up to 65535 bytes. */
export function zlibStored(content: Uint8Array): Uint8Array {
  const out = new Uint8Array(content.length + STORED_FRAMING);
  putStored(content, out, 0);
  return out;
}

/** Write `zlibStored(content)` into `out` at `at` (a pack's entry, without a buffer of its own). */
export function putStored(content: Uint8Array, out: Uint8Array, at: number): void {
  const n = content.length;
  if (n > 0xffff) throw new RangeError('a stored block holds at most 65535 bytes');
  out[at] = 0x78; // deflate, 32 KiB window
  out[at + 1] = 0x01; // check bits: 0x7801 is a multiple of 31
  out[at + 2] = 0x01; // final block, stored
  out[at + 3] = n & 0xff;
  out[at + 4] = n >>> 8;
  out[at + 5] = ~n & 0xff;
  out[at + 6] = (~n >>> 8) & 0xff;
  out.set(content, at + 7);
  let a = 1;
  let b = 0;
  for (let i = 0; i < n; i++) {
    a = (a + content[i]!) % 65521;
    b = (b + a) % 65521;
  }
  const sum = ((b << 16) | a) >>> 0;
  const end = at + 7 + n;
  out[end] = sum >>> 24;
  out[end + 1] = (sum >>> 16) & 0xff;
  out[end + 2] = (sum >>> 8) & 0xff;
  out[end + 3] = sum & 0xff;
}

/** zlib-compress with the platform's CompressionStream (Node 18+ and every current browser). */
export async function deflate(content: Uint8Array): Promise<Uint8Array> {
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  void writer.write(content as Uint8Array<ArrayBuffer>);
  void writer.close();
  return collect(stream.readable.getReader());
}

async function collect(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return joinBytes(chunks);
}

/**
 * Undo `compress`: the content of a zlib stream that ends exactly where `data` ends. A stream of
 * one stored block (what `compress` writes for small objects) is copied out without a decompressor;
 * anything else goes to the backend's native zlib or the platform's DecompressionStream.
 */
export function inflate(fs: WorkspaceFs, data: Uint8Array): Uint8Array | Promise<Uint8Array> {
  const stored = storedContent(data);
  if (stored) return stored;
  const native = nativeFor(fs)?.inflate;
  return native ? native(data) : decompress(data);
}

/** The content of a zlib stream that is a single final stored block, or null for any other stream. */
function storedContent(data: Uint8Array): Uint8Array | null {
  if (data.length < 11 || (data[0]! & 0x0f) !== 8 || (data[2]! & 0x07) !== 1) return null;
  const n = data[3]! | (data[4]! << 8);
  if ((data[5]! | (data[6]! << 8)) !== (~n & 0xffff) || data.length !== 7 + n + 4) return null;
  // a stream with a preset dictionary (FDICT) is not this shape; callers check the content's hash
  return (data[1]! & 0x20) === 0 ? data.slice(7, 7 + n) : null;
}

async function decompress(data: Uint8Array): Promise<Uint8Array> {
  const stream = new DecompressionStream('deflate');
  const writer = stream.writable.getWriter();
  // the write's and close's rejections surface through the reader as well
  writer.write(data as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  return collect(stream.readable.getReader());
}
