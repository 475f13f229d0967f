import type { WorkspaceFs } from '../fs/types.js';
import { fromHex, sha1, toHex, type GitObjectType } from './sha1.js';
import { crc32 } from '../fs/crc32.js';

/** A packed object waiting to be written: its id and its zlib-compressed content. */
interface Entry {
  oid: string;
  type: GitObjectType;
  size: number;
  deflated: Uint8Array;
}

const TYPE_CODE: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3 };
/** One pack is flushed past this much compressed data, so memory stays bounded on a big import. */
const FLUSH_BYTES = 32 * 1024 * 1024;

/**
 * Writes many objects as git packfiles (version 2, with a version 2 index) instead of one loose
 * file each: a first snapshot of a big tree costs a few large writes, not one per file. Real git
 * and isomorphic-git both read the result.
 */
export class PackWriter {
  private entries: Entry[] = [];
  private bytes = 0;
  private readonly seen = new Set<string>();
  /** how many objects went into packs */
  written = 0;

  constructor(private readonly fs: WorkspaceFs, private readonly packDir: string) {}

  async add(oid: string, type: GitObjectType, content: Uint8Array): Promise<void> {
    if (this.seen.has(oid)) return;
    this.seen.add(oid);
    const deflated = await compress(this.fs, content);
    this.entries.push({ oid, type, size: content.length, deflated });
    this.bytes += deflated.length;
    if (this.bytes >= FLUSH_BYTES) await this.flush();
  }

  /** Write what is pending as one pack and its index. */
  async flush(): Promise<void> {
    if (this.entries.length === 0) return;
    const entries = this.entries;
    this.entries = [];
    this.bytes = 0;
    const { pack, offsets, crcs } = buildPack(entries);
    const packSum = pack.subarray(pack.length - 20);
    const name = `pack-${toHex(packSum)}`;
    await this.fs.writeFile(`${this.packDir}/${name}.pack`, pack);
    // The index goes last: readers find packs through their index files.
    await this.fs.writeFile(`${this.packDir}/${name}.idx`, buildIndex(entries, offsets, crcs, packSum));
    this.written += entries.length;
  }
}

function buildPack(entries: Entry[]): { pack: Uint8Array; offsets: number[]; crcs: number[] } {
  const headers = entries.map((e) => entryHeader(TYPE_CODE[e.type], e.size));
  let total = 12 + 20;
  for (let i = 0; i < entries.length; i++) total += headers[i]!.length + entries[i]!.deflated.length;
  const pack = new Uint8Array(total);
  const view = new DataView(pack.buffer);
  pack.set([0x50, 0x41, 0x43, 0x4b]);
  view.setUint32(4, 2);
  view.setUint32(8, entries.length);
  const offsets: number[] = [];
  const crcs: number[] = [];
  let at = 12;
  for (let i = 0; i < entries.length; i++) {
    const start = at;
    pack.set(headers[i]!, at);
    at += headers[i]!.length;
    pack.set(entries[i]!.deflated, at);
    at += entries[i]!.deflated.length;
    offsets.push(start);
    crcs.push(crc32(pack.subarray(start, at)));
  }
  pack.set(sha1(pack.subarray(0, at)), at);
  return { pack, offsets, crcs };
}

function entryHeader(type: number, size: number): Uint8Array {
  const out: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  out.push(byte);
  return Uint8Array.from(out);
}

function buildIndex(entries: Entry[], offsets: number[], crcs: number[], packSum: Uint8Array): Uint8Array {
  const order = entries.map((_, i) => i).sort((a, b) => (entries[a]!.oid < entries[b]!.oid ? -1 : 1));
  const n = entries.length;
  const large = order.filter((i) => offsets[i]! >= 0x80000000);
  const size = 8 + 256 * 4 + n * 20 + n * 4 + n * 4 + large.length * 8 + 40;
  const idx = new Uint8Array(size);
  const view = new DataView(idx.buffer);
  idx.set([0xff, 0x74, 0x4f, 0x63]);
  view.setUint32(4, 2);
  const fanout = new Uint32Array(256);
  for (const e of entries) fanout[parseInt(e.oid.slice(0, 2), 16)]!++;
  let running = 0;
  for (let b = 0; b < 256; b++) { running += fanout[b]!; view.setUint32(8 + b * 4, running); }
  const names = 8 + 1024;
  const crcAt = names + n * 20;
  const offAt = crcAt + n * 4;
  const largeAt = offAt + n * 4;
  let nextLarge = 0;
  order.forEach((i, k) => {
    idx.set(fromHex(entries[i]!.oid), names + k * 20);
    view.setUint32(crcAt + k * 4, crcs[i]!);
    const offset = offsets[i]!;
    if (offset < 0x80000000) {
      view.setUint32(offAt + k * 4, offset);
    } else {
      view.setUint32(offAt + k * 4, 0x80000000 | nextLarge);
      view.setBigUint64(largeAt + nextLarge * 8, BigInt(offset));
      nextLarge++;
    }
  });
  const end = largeAt + large.length * 8;
  idx.set(packSum, end);
  idx.set(sha1(idx.subarray(0, end + 20)), end + 20);
  return idx;
}

/**
 * Objects this small are stored in zlib's uncompressed block format: they fill one disk block
 * either way, and setting up a compressor (or a CompressionStream round trip) costs more than
 * the object. git reads any valid zlib stream.
 */
const STORE_LIMIT = 512;

/** zlib-wrap an object: stored when small, else compressed by the backend's native zlib or CompressionStream. */
export function compress(fs: WorkspaceFs, content: Uint8Array): Uint8Array | Promise<Uint8Array> {
  if (content.length <= STORE_LIMIT) return zlibStored(content);
  return fs.native ? fs.native.deflate(content) : deflate(content);
}

/** A zlib stream (RFC 1950) of one uncompressed deflate block (RFC 1951, BTYPE 00); up to 65535 bytes. */
export function zlibStored(content: Uint8Array): Uint8Array {
  const n = content.length;
  if (n > 0xffff) throw new RangeError('a stored block holds at most 65535 bytes');
  const out = new Uint8Array(2 + 5 + n + 4);
  out[0] = 0x78; // deflate, 32 KiB window
  out[1] = 0x01; // check bits: 0x7801 is a multiple of 31
  out[2] = 0x01; // final block, stored
  out[3] = n & 0xff; out[4] = n >>> 8;
  out[5] = ~n & 0xff; out[6] = (~n >>> 8) & 0xff;
  out.set(content, 7);
  let a = 1;
  let b = 0;
  for (let i = 0; i < n; i++) { a = (a + content[i]!) % 65521; b = (b + a) % 65521; }
  new DataView(out.buffer).setUint32(7 + n, ((b << 16) | a) >>> 0);
  return out;
}

/** zlib-compress with the platform's CompressionStream (Node 18+ and every current browser). */
export async function deflate(content: Uint8Array): Promise<Uint8Array> {
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  void writer.write(content as Uint8Array<ArrayBuffer>);
  void writer.close();
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) { out.set(chunk, at); at += chunk.length; }
  return out;
}
