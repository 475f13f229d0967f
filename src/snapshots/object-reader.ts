import { hasFsCode } from '../fs/errors.js';
import type { GitFsClient } from '../fs/git-client.js';
import type { WorkspaceFs } from '../fs/types.js';
import { parseCommitText, type CommitFields } from './commit-text.js';
import { applyDelta, deltaResultSize, OFS_DELTA, readEntryHeader, REF_DELTA } from './delta.js';
import { PackIndex } from './pack-index.js';
import { objectId } from './sha1.js';
import { inflate } from './zlib.js';

/** The shadow repository in the shape isomorphic-git takes, plus the cache that keeps parsed pack indexes and packs warm. */
export interface GitAccess {
  fs: GitFsClient;
  gitdir: string;
  cache: object;
}

/** The four kinds of git object. */
export type StoredObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** One object as the repository holds it: its type and its content (without git's header). */
export interface StoredObject {
  type: StoredObjectType;
  content: Uint8Array;
}

const TYPES: Record<number, StoredObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** Delta bases kept per pack for the next delta on them, and the size of the largest one kept. */
const BASE_CACHE_BYTES = 16 * 1024 * 1024;
const BASE_CACHE_ENTRY = 4 * 1024 * 1024;

/**
 * Read an object of the shadow repository: loose (`objects/xx/...`) or in a pack with its version 2
 * index, deltas included (what a clone, a fetch or `git gc` leaves). The content is checked against
 * its id, so a damaged object is an error, never wrong bytes. The snapshot store reads its history,
 * trees and blobs here, so isomorphic-git loads only when a git verb runs.
 */
export function readObject(access: GitAccess, oid: string): Promise<StoredObject> {
  return readerFor(access).read(oid);
}

/**
 * Whether the repository holds an object, without reading it: a loose file, or an entry in a pack
 * index. Packs are listed once per reader, so give a fresh cache to see packs written since.
 */
export function hasObject(access: GitAccess, oid: string): Promise<boolean> {
  return readerFor(access).has(oid);
}

/** Read an object that must be of one type (a blob, a tree, a commit). */
export async function readTyped(access: GitAccess, oid: string, type: StoredObjectType): Promise<Uint8Array> {
  const object = await readObject(access, oid);
  if (object.type !== type) throw new Error(`object ${oid} is a ${object.type}, not a ${type}`);
  return object.content;
}

/** Read and parse a commit. */
export async function readCommit(access: GitAccess, oid: string): Promise<CommitFields> {
  return parseCommitText(oid, await readTyped(access, oid, 'commit'));
}

// One reader per repository and cache object: the cache object lives as long as the store's access,
// so the parsed indexes and loaded packs are kept as isomorphic-git kept them in that object.
const readers = new WeakMap<object, Map<string, ObjectReader>>();

function readerFor(access: GitAccess): ObjectReader {
  let byDir = readers.get(access.cache);
  if (!byDir) readers.set(access.cache, (byDir = new Map()));
  let reader = byDir.get(access.gitdir);
  if (!reader) byDir.set(access.gitdir, (reader = new ObjectReader(access.fs.promises, access.gitdir)));
  return reader;
}

interface Pack {
  name: string;
  index: PackIndex;
  bytes: Promise<Uint8Array> | null;
  bases: Map<number, StoredObject>;
  basesBytes: number;
}

/**
 * Packs parsed by any reader, by name. A pack's name is its own checksum and every object read from
 * it is checked against its id, so a pack of that name is the same pack wherever it is found: the
 * forks of one workspace (each its own reader over the same objects) and a reopened store share
 * one parsed index and one copy of the bytes instead of loading the whole pack again each.
 */
const sharedPacks = new Map<string, Pack>();
const SHARED_PACKS = 4;

function sharedPack(name: string): Pack | undefined {
  const pack = sharedPacks.get(name);
  if (pack) {
    sharedPacks.delete(name);
    sharedPacks.set(name, pack); // the newest at the end, so the oldest goes first
  }
  return pack;
}

function share(pack: Pack): void {
  sharedPacks.set(pack.name, pack);
  for (const name of sharedPacks.keys()) {
    if (sharedPacks.size <= SHARED_PACKS) break;
    sharedPacks.delete(name);
  }
}

class ObjectReader {
  /** the packs known, by index file name; listed again when an object is in none of them */
  private packs = new Map<string, Pack>();
  private listing: Promise<void> | null = null;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly gitdir: string,
  ) {}

  async read(oid: string): Promise<StoredObject> {
    if (!/^[0-9a-f]{40}$/.test(oid)) throw new Error(`'${oid.slice(0, 64)}' is not an object id`);
    // git knows the empty tree without storing it; a snapshot cache starts from it
    if (oid === EMPTY_TREE) return { type: 'tree', content: new Uint8Array(0) };
    // The packs already known first: an object in one is found by a lookup in memory, where a try
    // for its loose file failed with an error built for nothing (a merge read 20 such objects). A
    // pack entry that does not read back whole still gives way to a loose copy of the object.
    let packFailure: unknown = null;
    try {
      const packed = await this.readPacked(oid, false);
      if (packed && objectId(packed.type, packed.content) === oid) return packed;
      if (packed) packFailure = new Error(`object ${oid} is corrupt: its content does not hash to its id`);
    } catch (error) {
      packFailure = error;
    }
    const object = (await this.readLoose(oid)) ?? (packFailure ? null : await this.readPacked(oid, true));
    if (!object) throw packFailure ?? new Error(`object ${oid} is not in the repository`);
    if (objectId(object.type, object.content) !== oid)
      throw new Error(`object ${oid} is corrupt: its content does not hash to its id`);
    return object;
  }

  private listed = false;

  async has(oid: string): Promise<boolean> {
    if (oid === EMPTY_TREE) return true;
    const loose = `${this.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
    if (
      await this.fs.lstat(loose).then(
        () => true,
        () => false,
      )
    )
      return true;
    if (!this.listed) {
      await (this.listing ??= this.list().finally(() => (this.listing = null)));
      this.listed = true;
    }
    for (const pack of this.packs.values()) if (pack.index.offsetOf(oid) >= 0) return true;
    return false;
  }

  private async readLoose(oid: string): Promise<StoredObject | null> {
    const file = `${this.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
    const deflated = await this.fs
      .readFile(file)
      .catch((e) => (hasFsCode(e, 'ENOENT', 'ENOTDIR') ? null : Promise.reject(e)));
    if (!deflated) return null;
    const wrapped = await inflated(this.fs, deflated, () => new Error(`object ${oid} is corrupt: it does not inflate`));
    const nul = wrapped.indexOf(0);
    const m = /^(blob|tree|commit|tag) (\d+)$/.exec(new TextDecoder().decode(wrapped.subarray(0, Math.max(0, nul))));
    if (nul < 0 || !m || Number(m[2]) !== wrapped.length - nul - 1)
      throw new Error(`object ${oid} is corrupt: its header is malformed`);
    return { type: m[1] as StoredObjectType, content: wrapped.subarray(nul + 1) };
  }

  /** The object from the packs known; with `relist`, from the packs on disk now. */
  private async readPacked(oid: string, relist: boolean): Promise<StoredObject | null> {
    if (relist) await (this.listing ??= this.list().finally(() => (this.listing = null)));
    for (const pack of this.packs.values()) {
      const offset = pack.index.offsetOf(oid);
      if (offset < 0) continue;
      const bytes = await this.packBytes(pack);
      if (bytes) return this.readAt(pack, bytes, offset);
    }
    return null;
  }

  /** The pack's bytes, loaded once; null when the pack is gone (a `git gc` removed it): it is forgotten. */
  private async packBytes(pack: Pack): Promise<Uint8Array | null> {
    pack.bytes ??= this.fs.readFile(`${this.gitdir}/objects/pack/${pack.name.slice(0, -4)}.pack`);
    try {
      return await pack.bytes;
    } catch (error) {
      pack.bytes = null;
      if (!hasFsCode(error, 'ENOENT')) throw error;
      this.packs.delete(pack.name);
      if (sharedPacks.get(pack.name) === pack) sharedPacks.delete(pack.name);
      return null;
    }
  }

  private async list(): Promise<void> {
    const dir = `${this.gitdir}/objects/pack`;
    const names = await this.fs.readdir(dir).catch((e) => (hasFsCode(e, 'ENOENT', 'ENOTDIR') ? [] : Promise.reject(e)));
    const present = new Set(names.filter((n) => /^pack-[0-9a-f]+\.idx$/.test(n)));
    for (const name of this.packs.keys()) if (!present.has(name)) this.packs.delete(name);
    for (const name of present) {
      if (this.packs.has(name)) continue;
      const known = sharedPack(name);
      if (known) {
        this.packs.set(name, known);
        continue;
      }
      const bytes = await this.fs.readFile(`${dir}/${name}`).catch(() => null);
      if (!bytes) continue;
      let index: PackIndex;
      try {
        index = new PackIndex(bytes, name);
      } catch (error) {
        // a version 1 index (its first byte is a fan-out count's, 0) is refused; a version 2 one
        // still being written (empty or cut short) is read again on the next miss
        if (bytes.length > 0 && bytes[0] !== 0xff) throw error;
        continue;
      }
      const pack: Pack = { name, index, bytes: null, bases: new Map(), basesBytes: 0 };
      this.packs.set(name, pack);
      share(pack);
    }
  }

  /** The object whose entry starts at `offset`, its deltas applied. */
  private async readAt(pack: Pack, bytes: Uint8Array, offset: number): Promise<StoredObject> {
    const damaged = (why: string) => new Error(`the pack ${pack.name.slice(0, -4)} is damaged: ${why}`);
    const { kind, size, dataStart: at, baseOffset, baseOid } = readEntryHeader(bytes, offset);
    let base: Promise<StoredObject> | null = null;
    if (kind === OFS_DELTA) {
      if (baseOffset! < 0 || baseOffset! >= offset)
        throw damaged(`the delta at ${offset} names a base outside the pack`);
      base = this.readBase(pack, bytes, baseOffset!);
    } else if (kind === REF_DELTA) {
      base = this.read(baseOid!);
    } else if (!TYPES[kind]) throw damaged(`the entry at ${offset} has type ${kind}`);
    const data = await inflated(this.fs, bytes.subarray(at, pack.index.endOf(offset, bytes.length)), () =>
      damaged(`the entry at ${offset} does not inflate`),
    );
    if (data.length !== size) throw damaged(`the entry at ${offset} inflates to ${data.length} bytes, not ${size}`);
    if (!base) return { type: TYPES[kind]!, content: data };
    const from = await base;
    const content = new Uint8Array(deltaResultSize(data));
    let written = 0;
    applyDelta(from.content, data, (piece) => {
      if (written + piece.length > content.length) throw damaged(`the delta at ${offset} makes more than it states`);
      content.set(piece, written);
      written += piece.length;
    });
    return { type: from.type, content };
  }

  /** A delta's base in the same pack, kept a while: the deltas of one chain share their bases. */
  private async readBase(pack: Pack, bytes: Uint8Array, offset: number): Promise<StoredObject> {
    const hit = pack.bases.get(offset);
    if (hit) return hit;
    const made = await this.readAt(pack, bytes, offset);
    if (made.content.length <= BASE_CACHE_ENTRY) {
      pack.bases.set(offset, made);
      pack.basesBytes += made.content.length;
      for (const [key, old] of pack.bases) {
        if (pack.basesBytes <= BASE_CACHE_BYTES) break;
        pack.bases.delete(key);
        pack.basesBytes -= old.content.length;
      }
    }
    return made;
  }
}

async function inflated(fs: WorkspaceFs, data: Uint8Array, failure: () => Error): Promise<Uint8Array> {
  try {
    return await inflate(fs, data);
  } catch {
    throw failure();
  }
}
