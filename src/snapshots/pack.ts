import type { WorkspaceFs } from '../fs/types.js';
import { sha1Digest, toHex, type GitObjectType } from './sha1.js';
import { crc32 } from '../fs/hash/crc32.js';
import { writePackIndex } from './pack-index.js';
import { compress, isStoredSize, putStored, STORED_FRAMING } from './zlib.js';

/**
 * A packed object waiting to be written: its id, and either its zlib-compressed content (being
 * compressed off the main thread, where the platform can) or, for a small object, the content
 * itself, framed as a stored zlib block straight into the pack.
 */
interface Entry {
  oid: string;
  type: GitObjectType;
  size: number;
  deflated: Uint8Array | Promise<Uint8Array> | null;
  stored: Uint8Array | null;
}

const TYPE_CODE: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3 };
/** One pack is flushed past this much content, so memory stays bounded on a big import. */
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

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly packDir: string,
  ) {}

  /**
   * Take an object for the pack. Nothing is awaited here unless the pack is full and flushed: a
   * larger object is compressed on the platform's worker threads while the caller goes on
   * (hashing, reading, building trees), and `flush` waits for all of them.
   */
  add(oid: string, type: GitObjectType, content: Uint8Array): undefined | Promise<void> {
    if (this.seen.has(oid)) return;
    this.seen.add(oid);
    if (isStoredSize(content.length)) {
      this.entries.push({ oid, type, size: content.length, deflated: null, stored: content });
    } else {
      const deflated = compress(this.fs, content, true);
      // a failure is thrown by flush, which awaits it; until then it is not unhandled
      if (deflated instanceof Promise) deflated.catch(() => {});
      this.entries.push({ oid, type, size: content.length, deflated, stored: null });
    }
    this.bytes += content.length;
    if (this.bytes >= FLUSH_BYTES) return this.flush();
  }

  /** Write what is pending as one pack and its index. */
  async flush(): Promise<void> {
    if (this.entries.length === 0) return;
    const entries = this.entries;
    this.entries = [];
    this.bytes = 0;
    const deflated = await Promise.all(entries.map((e) => e.deflated));
    const { pack, offsets, crcs } = buildPack(entries, deflated);
    const packSum = pack.subarray(pack.length - 20);
    const name = `pack-${toHex(packSum)}`;
    await this.fs.writeFile(`${this.packDir}/${name}.pack`, pack);
    // The index goes last: readers find packs through their index files.
    const lines = entries.map((e, i) => ({ oid: e.oid, offset: offsets[i]!, crc: crcs[i]! }));
    await this.fs.writeFile(`${this.packDir}/${name}.idx`, writePackIndex(lines, toHex(packSum)));
    this.written += entries.length;
  }
}

function buildPack(
  entries: Entry[],
  deflated: Array<Uint8Array | null>,
): { pack: Uint8Array; offsets: number[]; crcs: number[] } {
  const headers = entries.map((e) => entryHeader(TYPE_CODE[e.type], e.size));
  const lengths = entries.map((e, i) => deflated[i]?.length ?? e.size + STORED_FRAMING);
  let total = 12 + 20;
  for (let i = 0; i < entries.length; i++) total += headers[i]!.length + lengths[i]!;
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
    const stored = entries[i]!.stored;
    if (stored) putStored(stored, pack, at);
    else pack.set(deflated[i]!, at);
    at += lengths[i]!;
    offsets.push(start);
    crcs.push(crc32(pack.subarray(start, at)));
  }
  pack.set(sha1Digest(pack.subarray(0, at)), at);
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
