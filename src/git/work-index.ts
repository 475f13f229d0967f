import { nameFromBytes, nameToBytes } from '../fs/name-bytes.js';
import type { FsStat } from '../fs/types.js';
import { hexInto, sha1Digest, toHex } from '../snapshots/sha1.js';

/** One file of a checkout as git's index records it: what is staged, and the file's stat when written. */
export interface IndexRow {
  path: string;
  oid: string;
  /** '100644', '100755', '120000', '160000' (a submodule's commit) */
  mode: string;
  /** the written file's stat (null: unknown, so git hashes the file on its next look) */
  stat: FsStat | null;
  /** not in the work tree on purpose (a file the clone skipped, a submodule): git's skip-worktree bit */
  skipWorktree?: boolean;
  /** an index read back: its stat words (40 bytes), kept as they were to the nanosecond, and used before `stat` */
  statWords?: Uint8Array;
  /** an index read back: git's intent-to-add bit */
  intentToAdd?: boolean;
  /** an index read back: the merge stage (0 unless a merge stopped on a conflict) */
  stage?: number;
}

/** git's skip-worktree and intent-to-add bits, in the extended flags a version 3 entry carries. */
const SKIP_WORKTREE = 0x4000;
const INTENT_TO_ADD = 0x2000;
const extendedOf = (r: IndexRow) => r.skipWorktree === true || r.intentToAdd === true;
/** An entry's length: 62 bytes, 2 more of extended flags, the name, 1 to 8 NULs up to a multiple of 8. */
const entryLength = (name: Uint8Array, extended: boolean) =>
  Math.floor((62 + (extended ? 2 : 0) + name.length + 8) / 8) * 8;
const u32 = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) % 2 ** 32 : 0);

/** git sorts index entries by their names' bytes, not by UTF-16 code units, then by stage. */
function byteOrder(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * A version 2 index (`DIRC`) holding every row with its stat data, so the real git and the
 * shell's git take an untouched file as unchanged without hashing it; version 3, as git writes
 * it, when a row has extended flags (skip-worktree). Ends with the SHA-1 of everything before it.
 */
export function serializeIndex(rows: readonly IndexRow[]): Uint8Array {
  // the rows are sorted through their positions and written straight from them: a clone's index
  // of 2,000 files cost 20-40 ms when each row was copied with its name and its stat words made
  // into an array first
  const n = rows.length;
  const names: Uint8Array[] = new Array(n);
  const extended: boolean[] = new Array(n);
  const order: number[] = new Array(n);
  let length = 12;
  let anyExtended = false;
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    const name = (names[i] = nameToBytes(r.path));
    const ext = (extended[i] = extendedOf(r));
    anyExtended ||= ext;
    length += entryLength(name, ext);
    order[i] = i;
  }
  order.sort((a, b) => byteOrder(names[a]!, names[b]!) || (rows[a]!.stage ?? 0) - (rows[b]!.stage ?? 0));
  const out = new Uint8Array(length + 20);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('DIRC'));
  view.setUint32(4, anyExtended ? 3 : 2);
  view.setUint32(8, n);
  let at = 12;
  for (const i of order) {
    const r = rows[i]!;
    const name = names[i]!;
    const ext = extended[i]!;
    if (r.statWords) out.set(r.statWords.subarray(0, 40), at);
    else if (r.stat) writeStatWords(view, at, r.stat);
    view.setUint32(at + 24, Number.parseInt(r.mode, 8));
    hexInto(r.oid, out, at + 40);
    view.setUint16(at + 60, Math.min(name.length, 0xfff) | ((r.stage ?? 0) << 12) | (ext ? 0x4000 : 0));
    if (ext) view.setUint16(at + 62, (r.skipWorktree ? SKIP_WORKTREE : 0) | (r.intentToAdd ? INTENT_TO_ADD : 0));
    out.set(name, at + (ext ? 64 : 62));
    at += entryLength(name, ext);
  }
  out.set(sha1Digest(out.subarray(0, length)), length);
  return out;
}

/** ctime, mtime (seconds and nanoseconds), dev, ino, (mode: set apart), uid, gid and size, as git's index records them. */
function writeStatWords(view: DataView, at: number, s: FsStat): void {
  const ctime = s.ctimeMs ?? 0;
  const mtime = s.mtimeMs ?? 0;
  view.setUint32(at, u32(ctime / 1000));
  view.setUint32(at + 4, u32((ctime % 1000) * 1e6));
  view.setUint32(at + 8, u32(mtime / 1000));
  view.setUint32(at + 12, u32((mtime % 1000) * 1e6));
  view.setUint32(at + 16, u32(s.dev ?? 0));
  view.setUint32(at + 20, u32(s.ino ?? 0));
  view.setUint32(at + 28, u32(s.uid ?? 0));
  view.setUint32(at + 32, u32(s.gid ?? 0));
  view.setUint32(at + 36, u32(s.size ?? 0));
}

/**
 * The entries of an index (versions 2 and 3) with their stat words as they were, so writing them
 * back with `serializeIndex` changes only what the caller changed. Extensions (git's cached
 * trees, untracked cache) are dropped: git rebuilds them. A damaged index, a split or a sparse
 * one is an error.
 */
export function parseIndex(data: Uint8Array): IndexRow[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length < 32 || view.getUint32(0) !== 0x44495243) throw new Error('the index is not a git index');
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new Error(`index version ${version} is not supported`);
  if (toHex(sha1Digest(data.subarray(0, data.length - 20))) !== toHex(data.subarray(data.length - 20)))
    throw new Error('the index is damaged: its checksum does not match');
  const out: IndexRow[] = [];
  let at = 12;
  for (let i = view.getUint32(8); i > 0; i--) {
    const flags = view.getUint16(at + 60);
    const extended = (flags & 0x4000) !== 0;
    const more = extended ? view.getUint16(at + 62) : 0;
    const nameAt = at + 62 + (extended ? 2 : 0);
    const end = data.indexOf(0, nameAt);
    if (end < 0) throw new Error('the index is damaged: an entry has no end');
    const name = data.subarray(nameAt, end);
    out.push({
      path: nameFromBytes(name),
      oid: toHex(data.subarray(at + 40, at + 60)),
      mode: view
        .getUint32(at + 24)
        .toString(8)
        .padStart(6, '0'),
      stat: null,
      statWords: data.slice(at, at + 40),
      stage: (flags >> 12) & 3,
      ...((more & SKIP_WORKTREE) !== 0 ? { skipWorktree: true } : {}),
      ...((more & INTENT_TO_ADD) !== 0 ? { intentToAdd: true } : {}),
    });
    at += entryLength(name, extended);
  }
  // a split index ('link') holds only changes over a shared one, a sparse one ('sdir') folders for
  // files: rewritten as a whole index they would lose entries, so they are not read at all
  for (; at + 8 <= data.length - 20; at += 8 + view.getUint32(at + 4)) {
    const signature = new TextDecoder().decode(data.subarray(at, at + 4));
    if (signature === 'link' || signature === 'sdir')
      throw new Error(`index extension '${signature}' is not supported`);
  }
  return out;
}
