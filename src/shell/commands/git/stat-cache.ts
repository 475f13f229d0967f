import type { FsStat } from '../../../fs/types.js';

/** What a file's stat was when its content was last found to have this blob id. */
interface Seen {
  mtimeMs: number;
  size: number;
  ino: number;
  mode: string;
  oid: string;
}

/**
 * The stat of files whose content the shell's git has hashed, per backend and path, for as long as
 * the workspace lives. It plays the part of the stat data `git status` writes back into the index,
 * without writing `.git/index` (which would make every `git status` a change in the review log):
 * a file whose stat has not moved since it hashed to the index's blob id is not read again.
 */
const seenByBackend = new WeakMap<object, Map<string, Seen>>();

/** Whether `stat` is the stat `path` had when it last hashed to `oid`. */
export function seenUnchanged(backend: object, path: string, stat: FsStat, mode: string, oid: string): boolean {
  const seen = seenByBackend.get(backend)?.get(path);
  return (
    seen !== undefined &&
    seen.oid === oid &&
    seen.mode === mode &&
    seen.size === stat.size &&
    seen.mtimeMs === stat.mtimeMs &&
    seen.ino === stat.ino
  );
}

/**
 * Remember that `path`, with this stat, hashed to `oid`. A file modified within the last second is
 * not remembered: written again within the same clock tick it would keep its time and look
 * unchanged ever after (git's "racily clean" case).
 */
export function rememberSeen(backend: object, path: string, stat: FsStat, mode: string, oid: string): void {
  if (!(stat.mtimeMs < Date.now() - 1000)) return;
  let seen = seenByBackend.get(backend);
  if (!seen) seenByBackend.set(backend, (seen = new Map()));
  seen.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, mode, oid });
}
