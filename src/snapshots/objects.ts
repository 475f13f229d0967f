import { joinBytes } from '../fs/join-bytes.js';
import { nameFromBytes, nameToBytes } from '../fs/name-bytes.js';
import { hasFsCode } from '../fs/errors.js';
import { readTyped, type GitAccess } from './object-reader.js';
import type { WorkspaceFs } from '../fs/types.js';
import type { PackWriter } from './pack.js';
import { compress } from './zlib.js';
import { fromHex, hexInto, objectId, toHex, wrapObject, type GitObjectType } from './sha1.js';
import type { Spares } from './spares.js';

/** One entry of a git tree. Modes are git's: 100644, 100755, 120000 (symlink), 040000 (tree). */
export interface TreeEntry {
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree';
}

export const TREE_MODE = '040000';
/** Past this many new objects in one snapshot they go to a pack instead of loose files. */
const LOOSE_LIMIT = 32;

/**
 * How a snapshot's loose objects are written: the spare files to use (Node hosts), and the fan-out
 * folders known to exist. `packAll`: everything goes into one pack however few the objects (a new
 * repository's first commit, see ObjectSink).
 */
export interface LooseWrites {
  spares: Spares | null;
  dirs: Set<string>;
  packAll?: boolean;
}

const ASCII = /^[\x00-\x7f]*$/;

/** Serialise a tree as git does: entries sorted by name, folders compared as `name/`. */
export function serializeTree(entries: TreeEntry[]): Uint8Array {
  if (entries.every((e) => ASCII.test(e.path) && ASCII.test(e.mode))) return serializeAscii(entries);
  const encoder = new TextEncoder();
  const sorted = entries
    // names are kept as their bytes: a name that is not UTF-8 comes back escaped (name-bytes.ts) and goes in as it was
    .map((e) => ({ e, key: nameToBytes(e.type === 'tree' ? `${e.path}/` : e.path), name: nameToBytes(e.path) }))
    .sort((a, b) => compareBytes(a.key, b.key));
  const parts: Uint8Array[] = [];
  for (const { e, name } of sorted) {
    const head = encoder.encode(`${e.mode.replace(/^0+/, '')} `);
    const part = new Uint8Array(head.length + name.length + 21);
    part.set(head);
    part.set(name, head.length);
    part.set(fromHex(e.oid), head.length + name.length + 1);
    parts.push(part);
  }
  return joinBytes(parts);
}

/**
 * A tree whose names are all ASCII (nearly every tree): each name is its own bytes, so entries
 * sort as strings and are written straight into one buffer, with no encoder call or buffer per
 * entry (a snapshot writes every folder on a changed path, 100 entries each in a 50,000-file tree).
 */
function serializeAscii(entries: TreeEntry[]): Uint8Array {
  const sorted = entries
    .map((e) => ({ e, key: e.type === 'tree' ? `${e.path}/` : e.path, mode: e.mode.replace(/^0+/, '') }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let length = 0;
  for (const { e, mode } of sorted) length += mode.length + e.path.length + 22;
  const out = new Uint8Array(length);
  let at = 0;
  for (const { e, mode } of sorted) {
    for (let i = 0; i < mode.length; i++) out[at++] = mode.charCodeAt(i);
    out[at++] = 32;
    for (let i = 0; i < e.path.length; i++) out[at++] = e.path.charCodeAt(i);
    out[at++] = 0;
    hexInto(e.oid, out, at);
    at += 20;
  }
  return out;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Where one snapshot's new objects go. Ids are computed here, synchronously, so trees and the
 * commit can be built before anything is compressed. A handful of objects are then written
 * loose, all compressed at once (isomorphic-git's writeBlob/writeTree compress one object at a
 * time, which made a one-file snapshot cost several compressor round trips in a row); past
 * LOOSE_LIMIT everything streams into packfiles, so a first snapshot of a big tree is a few
 * large writes. A new repository's first commit is always one pack (`packAll`): its objects would
 * each be a file in a fan-out folder of its own (256 of them, so nearly every object makes one),
 * where a pack is two files in a folder the repository already has. On OPFS a file made is the
 * dearest call, and most workspaces are opened once and changed a little.
 */
export class ObjectSink {
  private pending: Array<{ oid: string; type: GitObjectType; bytes: Uint8Array }> = [];
  private pack: PackWriter | null = null;
  private packing: Promise<void> | null = null;
  private readonly known = new Set<string>();
  count = 0;

  constructor(
    private readonly access: GitAccess,
    private readonly loose: LooseWrites = { spares: null, dirs: new Set() },
  ) {}

  /** Queue a blob; `oid` may be passed when the caller has already hashed it. */
  async blob(bytes: Uint8Array, oid = objectId('blob', bytes)): Promise<string> {
    const put = this.put(oid, 'blob', bytes);
    if (put) await put;
    return oid;
  }

  async tree(entries: TreeEntry[]): Promise<string> {
    const bytes = serializeTree(entries);
    const oid = objectId('tree', bytes);
    const put = this.put(oid, 'tree', bytes);
    if (put) await put;
    return oid;
  }

  async commit(text: string): Promise<string> {
    const bytes = new TextEncoder().encode(text);
    const oid = objectId('commit', bytes);
    const put = this.put(oid, 'commit', bytes);
    if (put) await put;
    return oid;
  }

  /** Take an object; a promise only when the caller must wait (the pack's code loading, a full pack flushed). */
  private put(oid: string, type: GitObjectType, bytes: Uint8Array): undefined | Promise<void> {
    if (this.known.has(oid)) return;
    this.known.add(oid);
    this.count++;
    if (this.pack) return this.pack.add(oid, type, bytes);
    this.pending.push({ oid, type, bytes });
    if (this.pending.length > LOOSE_LIMIT) return (this.packing ??= this.startPack());
  }

  /** Switch to a pack; objects put while its code loads wait in `pending` and go into it too. */
  private async startPack(): Promise<void> {
    // Loaded only by a snapshot this big (a first one, an import), so a worker's first load does not carry it.
    const { PackWriter } = await import('./pack.js');
    const pack = new PackWriter(this.access.fs.promises, `${this.access.gitdir}/objects/pack`);
    this.pack = pack;
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) {
      const full = pack.add(p.oid, p.type, p.bytes);
      if (full) await full;
    }
  }

  /** Write everything still pending; after this every id handed out is readable. */
  async finish(): Promise<void> {
    if (this.loose.packAll && this.pending.length > 0) this.packing ??= this.startPack();
    await this.packing;
    if (this.pack) {
      await this.pack.flush();
      return;
    }
    const fs = this.access.fs.promises;
    const objects = `${this.access.gitdir}/objects`;
    const file = (oid: string) => `${objects}/${oid.slice(0, 2)}/${oid.slice(2)}`;
    // An object already on disk (an edit undone by hand, a file put back) is neither compressed nor
    // written. A commit names its parent and the time, so it is new: writing it again would be harmless.
    const present = await Promise.all(
      this.pending.map(
        (p) =>
          p.type !== 'commit' &&
          fs.lstat(file(p.oid)).then(
            () => true,
            () => false,
          ),
      ),
    );
    const pending = this.pending.filter((_, i) => !present[i]);
    this.pending = [];
    const compressed = await Promise.all(
      pending.map((p) => compress(fs, wrapObject(p.type, p.bytes), pending.length > 1)),
    );
    // Every write settles before the first failure is thrown, so none lands after the call returned.
    const settled = await Promise.allSettled(
      pending.map(async (p, i) => {
        const dir = `${objects}/${p.oid.slice(0, 2)}`;
        if (await this.loose.spares?.place(dir, file(p.oid), compressed[i]!)) this.loose.dirs.add(dir);
        else await writeInFolder(fs, dir, file(p.oid), compressed[i]!, this.loose.dirs);
      }),
    );
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/**
 * Write `file`, making its fan-out folder first unless it is known to exist (then no mkdir call at
 * all); a known folder removed behind our back (`git prune` drops empty ones) is made again.
 */
async function writeInFolder(
  fs: WorkspaceFs,
  dir: string,
  file: string,
  bytes: Uint8Array,
  dirs: Set<string>,
): Promise<void> {
  const known = dirs.has(dir);
  if (!known) await makeDir(fs, dir);
  try {
    await fs.writeFile(file, bytes);
  } catch (error) {
    if (!known || !hasFsCode(error, 'ENOENT')) throw error;
    await makeDir(fs, dir);
    await fs.writeFile(file, bytes);
  }
  dirs.add(dir);
}

async function makeDir(fs: WorkspaceFs, dir: string): Promise<void> {
  await fs.mkdir(dir).catch((e) => {
    if (!hasFsCode(e, 'EEXIST')) throw e;
  });
}

export { toHex };
export type { GitAccess };

/** One entry of a stored tree, as the tree says it, unsafe names included. */
export interface StoredTreeEntry {
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

/**
 * Read a tree's entries without refusing names git would not check out. isomorphic-git's
 * readTree throws on a `.git` entry anywhere, which failed a whole clone over one nested `.git`
 * folder; callers decide per path what to skip (and list) instead.
 */
export async function readTreeEntries(access: GitAccess, oid: string): Promise<StoredTreeEntry[]> {
  return parseTreeEntries(await readTyped(access, oid, 'tree'), oid);
}

/** A tree object's entries, from its content. */
export function parseTreeEntries(bytes: Uint8Array, oid: string): StoredTreeEntry[] {
  const out: StoredTreeEntry[] = [];
  for (let at = 0; at < bytes.length; ) {
    const space = bytes.indexOf(32, at);
    const nul = bytes.indexOf(0, space + 1);
    if (space === -1 || nul === -1 || nul + 21 > bytes.length) throw new Error(`tree ${oid} is malformed`);
    let mode = asciiOrNull(bytes, at, space) ?? new TextDecoder().decode(bytes.subarray(at, space));
    if (mode === '40000') mode = TREE_MODE;
    const kind = mode === TREE_MODE ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    out.push({
      mode,
      path: asciiOrNull(bytes, space + 1, nul) ?? nameFromBytes(bytes.subarray(space + 1, nul)),
      oid: toHex(bytes.subarray(nul + 1, nul + 21)),
      type: kind,
    });
    at = nul + 21;
  }
  return out;
}

/** Bytes `[start, end)` as a string when they are all ASCII (a name's usual case, no decoder call), else null. */
function asciiOrNull(bytes: Uint8Array, start: number, end: number): string | null {
  let s = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) return null;
    s += String.fromCharCode(b);
  }
  return s;
}
