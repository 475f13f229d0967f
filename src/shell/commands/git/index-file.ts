import { toHex } from '../../../snapshots/sha1.js';
import { GitFatal, type GitFile, type Repo } from './repo.js';

/** One entry of git's index: what is staged at a path, and the file's stat when it was staged. */
export interface IndexEntry extends GitFile {
  mtimeSec: number;
  /** the nanoseconds of the modification time, 0 where the writer kept only seconds */
  mtimeNsec: number;
  size: number;
  /** git's skip-worktree bit: left out of the work tree on purpose (a file a clone skipped), taken as unchanged */
  skipWorktree?: boolean;
}

/**
 * The last index parsed per backend, by its path and its own trailing checksum (the SHA-1 of
 * everything before it): agents run `git status` after every step, and the index rarely moved.
 */
const lastParsed = new WeakMap<object, { key: string; entries: Map<string, IndexEntry> }>();

/**
 * Read `.git/index` (versions 2 and 3) straight from its bytes: faster than a tree walk, and it
 * keeps the stat data that lets `status` and `diff` skip files whose stat has not moved. A copy
 * the caller may change, or with `shared` the parsed entries themselves (the same object while the
 * index is unchanged), which the caller only reads: copying 10,000 entries cost a status 2 ms.
 */
export async function readIndex(repo: Repo, shared = false): Promise<Map<string, IndexEntry>> {
  const sfs = repo.ctx.shell.state.fs;
  let data: Uint8Array;
  try {
    data = await sfs.readFile(`${repo.gitdir}/index`);
  } catch {
    return new Map();
  }
  const sum = data.length >= 32 ? toHex(data.subarray(data.length - 20)) : '';
  const key = `${sfs.backendPath(repo.gitdir)}\0${data.length}\0${sum}`;
  const last = lastParsed.get(sfs.backend);
  if (last?.key === key && !/^0+$/.test(sum)) return shared ? last.entries : new Map(last.entries);
  const entries = parseIndex(data);
  lastParsed.set(sfs.backend, { key, entries });
  return shared ? entries : new Map(entries);
}

function parseIndex(data: Uint8Array): Map<string, IndexEntry> {
  const out = new Map<string, IndexEntry>();
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length < 12 || view.getUint32(0) !== 0x44495243) throw new GitFatal('index file corrupt');
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3)
    throw new GitFatal(`index version ${version} is not supported by this shell's git`);
  const count = view.getUint32(8);
  const decoder = new TextDecoder();
  let at = 12;
  for (let i = 0; i < count; i++) {
    const mtimeSec = view.getUint32(at + 8);
    const mtimeNsec = view.getUint32(at + 12);
    const mode = view.getUint32(at + 24);
    const size = view.getUint32(at + 36);
    const oid = toHex(data.subarray(at + 40, at + 60));
    const flags = view.getUint16(at + 60);
    const extended = (flags & 0x4000) !== 0;
    const skipWorktree = extended && (view.getUint16(at + 62) & 0x4000) !== 0;
    const nameAt = at + 62 + (extended ? 2 : 0);
    let end = nameAt;
    while (data[end] !== 0) end++;
    const path = decoder.decode(data.subarray(nameAt, end));
    const stage = (flags >> 12) & 3;
    // a submodule's commit (a gitlink) is kept in the index by isomorphic-git's writes; this shell has no submodules
    if (stage === 0 && mode !== 0o160000)
      out.set(path, {
        oid,
        mode: mode.toString(8).padStart(6, '0'),
        mtimeSec,
        mtimeNsec,
        size,
        ...(skipWorktree ? { skipWorktree } : {}),
      });
    const length = end - at;
    at += length + (8 - (length % 8));
  }
  return out;
}
