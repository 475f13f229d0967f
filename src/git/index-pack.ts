import { ToolError } from '../contract/index.js';
import { objectId, sha1Digest, toHex } from '../snapshots/sha1.js';
import { applyDelta, deltaResultSize, OFS_DELTA, readEntryHeader, REF_DELTA } from '../snapshots/delta.js';
import { inflateAt, inflateWhole, WHOLE_LIMIT, WholeInflater } from './pack-inflate.js';
import { crc32 } from '../fs/hash/crc32.js';
import { writePackIndex } from '../snapshots/pack-index.js';
import { Sha1Stream } from './sha1-stream.js';
import { yieldToHost } from '../workspace/host-yield.js';

export type PackObjectType = 'commit' | 'tree' | 'blob' | 'tag';
const TYPES: Record<number, PackObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };

interface Entry {
  offset: number;
  dataStart: number;
  crc: number;
  /** 1-4 an object, 6 or 7 a delta */
  kind: number;
  /** what the entry's header states: the object's size, or the delta's own */
  size: number;
  /** the object's size: for a delta, the size of what it makes */
  resultSize: number;
  baseOffset?: number;
  baseOid?: string;
  oid?: string;
}

/** A pack's index, and the size of every object in it, read without holding any big object whole. */
export interface IndexedPack {
  /** the pack's checksum, which names its files (`pack-<sha>.pack`, `.idx`) */
  sha: string;
  /** the version 2 `.idx` file */
  idx: Uint8Array;
  /** object id to inflated size */
  sizes: Map<string, number>;
  /**
   * One object's content, inflated straight into a buffer of its size (null if the pack lacks
   * it): one copy, where isomorphic-git's reader makes three. Over `maxObjectBytes` is TOO_LARGE.
   */
  read(oid: string): Promise<Uint8Array | null>;
  /** One object's type and content, as `read` gives the content (null if the pack lacks it). */
  object(oid: string): Promise<{ type: PackObjectType; data: Uint8Array } | null>;
}

export interface IndexPackOptions {
  /** no object bigger than this is ever held whole; one that must be (a delta's base) is TOO_LARGE */
  maxObjectBytes: number;
  /** objects a thin pack's deltas are based on, from the repository it is fetched into */
  readExternal?: (oid: string) => Promise<{ type: PackObjectType; object: Uint8Array } | null>;
}

/**
 * Index a pack as `git index-pack` does, in bounded memory. Every object's id is hashed while
 * it inflates, piece by piece, and every delta's while its copies are read, so a blob of
 * gigabytes costs a few buffers; only a delta's base is ever held whole, and a base over
 * `maxObjectBytes` stops the index with TOO_LARGE before it is inflated.
 */
export function indexPack(pack: Uint8Array, options: IndexPackOptions): Promise<IndexedPack> {
  return new PackIndexer(options).finish(pack);
}

/** The most bytes an entry's header takes: its type and size, then a base's offset or id. */
const HEADER_MAX = 32;

/**
 * `indexPack` in two parts, so a pack is read while it arrives, as `git index-pack --stdin`
 * does: `advance` reads the entries whose bytes have all come (a prefix of the pack, growing),
 * and `finish` checks the whole pack and does the rest. What `advance` reads is exactly what
 * `finish` would have read; an entry it cannot read yet (or ever: a damaged one) waits for
 * `finish`, which reports it as `indexPack` always has.
 */
export class PackIndexer {
  private readonly entries: Entry[] = [];
  private readonly byOffset = new Map<number, Entry>();
  private readonly byOid = new Map<string, Entry>();
  private readonly inflater = new WholeInflater();
  private readonly kept = new KeptObjects();
  private at = 12;
  private count = -1;
  /** `advance` met something only `finish` may judge (a bad header, an object too big to try twice) */
  private stopped = false;
  /** an entry that could not be read yet is tried again once the bytes after its start have doubled */
  private retryAt = 0;

  constructor(private readonly options: IndexPackOptions) {}

  /** Read the entries whose bytes are all in `prefix`, the pack's first bytes. Never throws. */
  async advance(prefix: Uint8Array): Promise<void> {
    if (this.stopped || prefix.length < this.retryAt) return;
    if (this.count < 0) {
      if (prefix.length < 12) return;
      const view = new DataView(prefix.buffer, prefix.byteOffset, 12);
      const version = view.getUint32(4);
      if (view.getUint32(0) !== 0x5041434b || (version !== 2 && version !== 3)) {
        this.stopped = true;
        return;
      }
      this.count = view.getUint32(8);
    }
    const whole = Math.min(WHOLE_LIMIT, this.options.maxObjectBytes);
    while (this.entries.length < this.count && prefix.length - this.at >= HEADER_MAX) {
      // an entry too big to inflate whole is inflated once, by `finish`, not tried again with each piece
      const { kind, size } = readEntryHeader(prefix, this.at);
      if (size > whole || !(TYPES[kind] || kind === OFS_DELTA || kind === REF_DELTA)) {
        this.stopped = true;
        return;
      }
      try {
        this.take(await readEntry(prefix, this.at, this.inflater, this.kept, whole));
      } catch {
        // so a big object arriving in many pieces is inflated a few times, not once per piece
        this.retryAt = this.at + 2 * (prefix.length - this.at);
        return;
      }
    }
  }

  /** Index the whole pack, going on from what `advance` read. */
  async finish(pack: Uint8Array, checksum?: string): Promise<IndexedPack> {
    const { options } = this;
    const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
    if (pack.length < 32 || view.getUint32(0) !== 0x5041434b) throw corrupt('it does not start with PACK');
    const version = view.getUint32(4);
    if (version !== 2 && version !== 3) throw corrupt(`version ${version} is not supported`);
    const sha = toHex(pack.subarray(pack.length - 20));
    if ((checksum ?? toHex(sha1Digest(pack.subarray(0, pack.length - 20)))) !== sha)
      throw corrupt('its checksum does not match');
    const count = view.getUint32(8);
    const { entries, byOffset, byOid, inflater, kept } = this;
    let at = this.at;
    for (let i = entries.length; i < count; i++) {
      const read = await readEntry(pack, at, inflater, kept, Math.min(WHOLE_LIMIT, options.maxObjectBytes));
      this.take(read);
      at = read.end;
      // a turn of the event loop now and then for other calls; setTimeout waited a millisecond or more each time
      if (i % 512 === 511) await yieldToHost();
    }
    if (at !== pack.length - 20) throw corrupt('it holds more bytes than its objects');
    const resolver = new DeltaResolver(pack, byOffset, byOid, options, inflater);
    let pending = entries.filter((e) => !e.oid);
    let external = false;
    while (pending.length > 0) {
      const waiting: Entry[] = [];
      for (const e of pending) if (!(await resolver.hash(e, external))) waiting.push(e);
      if (waiting.length === pending.length) {
        if (external)
          throw corrupt(`a delta's base ${waiting[0]!.baseOid ?? ''} is in neither the pack nor the repository`);
        external = true;
      }
      pending = waiting;
    }
    const lines = entries.map((e) => ({ oid: e.oid!, offset: e.offset, crc: e.crc }));
    const object = async (oid: string) => {
      const early = kept.take(oid);
      if (early) return early;
      const entry = byOid.get(oid);
      return entry ? await resolver.materialize(entry, true) : null;
    };
    const read = async (oid: string) => (await object(oid))?.data ?? null;
    const sizes = new Map(entries.map((e) => [e.oid!, e.resultSize]));
    return { sha, idx: writePackIndex(lines, sha), sizes, read, object };
  }

  private take({ entry, end }: { entry: Entry; end: number }): void {
    this.entries.push(entry);
    this.byOffset.set(entry.offset, entry);
    if (entry.oid) this.byOid.set(entry.oid, entry);
    this.at = end;
  }
}

/**
 * Small objects' content as indexing inflated it, for the checkout's first read of each (taken,
 * not shared), so a clone inflates a source file once, not twice. Bounded: past KEEP_BYTES in
 * all, objects are inflated again when read.
 */
class KeptObjects {
  private readonly objects = new Map<string, { type: PackObjectType; data: Uint8Array }>();
  private bytes = 0;

  keep(oid: string, type: PackObjectType, data: Uint8Array): void {
    if (data.length > KEEP_OBJECT || this.bytes + data.length > KEEP_BYTES || this.objects.has(oid)) return;
    this.objects.set(oid, { type, data });
    this.bytes += data.length;
  }

  take(oid: string): { type: PackObjectType; data: Uint8Array } | undefined {
    const object = this.objects.get(oid);
    if (object) {
      this.objects.delete(oid);
      this.bytes -= object.data.length;
    }
    return object;
  }
}

const KEEP_BYTES = 32 * 1024 * 1024;
const KEEP_OBJECT = 256 * 1024;

async function readEntry(
  pack: Uint8Array,
  offset: number,
  inflater: WholeInflater,
  kept: KeptObjects,
  whole: number,
): Promise<{ entry: Entry; end: number }> {
  const { kind, size, dataStart: at, baseOffset, baseOid } = readEntryHeader(pack, offset);
  const entry: Entry = { offset, dataStart: at, crc: 0, kind, size, resultSize: size };
  if (kind === OFS_DELTA) entry.baseOffset = baseOffset;
  else if (kind === REF_DELTA) entry.baseOid = baseOid;
  else if (!TYPES[kind]) throw corrupt(`the entry at offset ${offset} has type ${kind}`);
  let inflated;
  if (TYPES[kind] && size <= whole) {
    // a small object whole, in one step: hashed at once, and its content kept for the checkout
    const { data, end } = inflater.inflate(pack, at, size);
    entry.oid = objectId(TYPES[kind]!, data);
    if (kind === 2 || kind === 3) kept.keep(entry.oid, TYPES[kind]!, data);
    inflated = { end, length: size };
  } else if (TYPES[kind]) {
    const sha = new Sha1Stream().update(new TextEncoder().encode(`${TYPES[kind]} ${size}\0`));
    inflated = await inflateAt(pack, at, (piece) => sha.update(piece), size);
    entry.oid = sha.hex();
  } else {
    const head: number[] = [];
    inflated = await inflateAt(
      pack,
      at,
      (piece) => {
        for (let i = 0; i < piece.length && head.length < 20; i++) head.push(piece[i]!);
      },
      size,
    );
    entry.resultSize = deltaResultSize(Uint8Array.from(head));
  }
  if (inflated.length !== size)
    throw corrupt(`the entry at offset ${offset} inflates to ${inflated.length} bytes, not the ${size} it states`);
  entry.crc = crc32(pack.subarray(offset, inflated.end));
  return { entry, end: inflated.end };
}

const CACHE_BYTES = 64 * 1024 * 1024;

/** Resolves deltas to object ids, keeping recently made bases (small ones only) for the next. */
class DeltaResolver {
  private readonly cache = new Map<number, { type: PackObjectType; data: Uint8Array }>();
  private cached = 0;

  constructor(
    private readonly pack: Uint8Array,
    private readonly byOffset: Map<number, Entry>,
    private readonly byOid: Map<string, Entry>,
    private readonly options: IndexPackOptions,
    private readonly inflater: WholeInflater,
  ) {}

  /** Hash a delta's result without building it; false when its base is not known yet. */
  async hash(e: Entry, external: boolean): Promise<boolean> {
    const base = await this.baseOf(e, external);
    if (!base) return false;
    const delta = await this.inflate(e, e.size);
    const sha = new Sha1Stream().update(new TextEncoder().encode(`${base.type} ${e.resultSize}\0`));
    applyDelta(base.data, delta, (piece) => sha.update(piece));
    e.oid = sha.hex();
    this.byOid.set(e.oid, e);
    return true;
  }

  async materialize(e: Entry, external: boolean): Promise<{ type: PackObjectType; data: Uint8Array } | null> {
    const hit = this.cache.get(e.offset);
    if (hit) {
      this.cache.delete(e.offset);
      this.cache.set(e.offset, hit);
      return hit;
    }
    if (e.resultSize > this.options.maxObjectBytes) throw tooLargeBase(e.resultSize, this.options.maxObjectBytes);
    let made: { type: PackObjectType; data: Uint8Array };
    if (TYPES[e.kind]) made = { type: TYPES[e.kind]!, data: await this.inflate(e, e.size) };
    else {
      const base = await this.baseOf(e, external);
      if (!base) return null;
      const delta = await this.inflate(e, e.size);
      const data = new Uint8Array(e.resultSize);
      let at = 0;
      applyDelta(base.data, delta, (piece) => {
        data.set(piece, at);
        at += piece.length;
      });
      made = { type: base.type, data };
    }
    this.remember(e.offset, made);
    return made;
  }

  private async baseOf(e: Entry, external: boolean): Promise<{ type: PackObjectType; data: Uint8Array } | null> {
    if (e.kind === OFS_DELTA) {
      const base = this.byOffset.get(e.baseOffset!);
      if (!base)
        throw corrupt(`the delta at offset ${e.offset} names a base at ${e.baseOffset}, where no object starts`);
      return this.materialize(base, external);
    }
    const inPack = this.byOid.get(e.baseOid!);
    if (inPack) return this.materialize(inPack, external);
    if (!external || !this.options.readExternal) return null;
    const found = await this.options.readExternal(e.baseOid!);
    return found ? { type: found.type, data: found.object } : null;
  }

  private inflate(e: Entry, size: number): Promise<Uint8Array> {
    if (size > this.options.maxObjectBytes) throw tooLargeBase(size, this.options.maxObjectBytes);
    if (size <= WHOLE_LIMIT) return Promise.resolve(this.inflater.inflate(this.pack, e.dataStart, size).data);
    return inflateWhole(this.pack, e.dataStart, size);
  }

  private remember(offset: number, made: { type: PackObjectType; data: Uint8Array }): void {
    if (made.data.length > CACHE_BYTES / 4) return;
    this.cache.set(offset, made);
    this.cached += made.data.length;
    for (const [key, old] of this.cache) {
      if (this.cached <= CACHE_BYTES) break;
      this.cache.delete(key);
      this.cached -= old.data.length;
    }
  }
}

function corrupt(why: string): Error {
  return new ToolError('IO_ERROR', `the pack the remote sent is damaged: ${why}`, {
    hint: 'Try again; if it persists, the remote repository may be corrupt.',
  });
}

function tooLargeBase(size: number, cap: number): ToolError {
  return new ToolError(
    'TOO_LARGE',
    `the repository holds an object of ${size} bytes that must be unpacked whole (other objects are stored as changes to it), over the clone's file cap of ${cap} bytes; nothing was written`,
    {
      hint: 'Raise maxFileBytes if the workspace can hold a file that big, or clone another ref.',
    },
  );
}
