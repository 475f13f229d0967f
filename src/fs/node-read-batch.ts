import type * as NodeFs from 'node:fs';
import { makeStat } from './stat.js';
import type { PlainFile } from './types.js';

/** Fields of each answer, in the metadata array. */
export const FIELDS = 11;

/** The files of one batch: each one's numbers in `meta` (FIELDS a file), the bytes of all in `out`. */
export interface BatchAnswer {
  meta: Float64Array;
  out: Uint8Array;
}

/**
 * Read a batch of files, each opened exactly at its path without following a final link and
 * without waiting on a FIFO: a regular file's fstat numbers and bytes (none over its group's
 * `maxBytes`), nothing for anything else. `groups` holds [count, maxBytes] of each read asked
 * for, in order; `checks` [link, path] of each (or two nulls): that read's folder must still be at
 * that path once its files are open, or none of them is answered.
 *
 * The same code runs on a read helper thread (its source is made from this function's, so it
 * must use nothing but its arguments and builtins) and on the calling thread when it reads in
 * place: a search's own thread reads while it would otherwise wait, at the helper's cost per file.
 */
export function readBatch(
  fs: typeof NodeFs,
  paths: Array<string | Buffer>,
  groups: readonly number[],
  checks: ReadonlyArray<string | null> | undefined,
): BatchAnswer {
  const fields = 11;
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
  const flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (O_NOCTTY || 0);
  const n = paths.length;
  const meta = new Float64Array(n * fields);
  const fds: number[] = new Array(n).fill(-1);
  let total = 0;
  let g = 0;
  let upTo = groups[0]!;
  let max = groups[1]!;
  for (let i = 0; i < n; i++) {
    while (i >= upTo) {
      g += 2;
      upTo += groups[g]!;
      max = groups[g + 1]!;
    }
    let fd: number;
    try {
      fd = fs.openSync(paths[i]!, flags);
    } catch {
      continue;
    }
    try {
      const s = fs.fstatSync(fd);
      if (!s.isFile()) {
        fs.closeSync(fd);
        continue;
      }
      const m = i * fields;
      meta[m] = s.size > max ? 1 : 2;
      meta[m + 1] = s.mode;
      meta[m + 2] = s.size;
      meta[m + 3] = s.ino;
      meta[m + 4] = s.mtimeMs;
      meta[m + 5] = s.ctimeMs;
      meta[m + 6] = s.uid;
      meta[m + 7] = s.gid;
      meta[m + 8] = s.dev;
      meta[m + 9] = s.nlink;
      if (s.size > max) {
        fs.closeSync(fd);
        continue;
      }
      fds[i] = fd;
      total += s.size;
    } catch {
      fs.closeSync(fd);
      meta[i * fields] = 0;
    }
  }
  // now that its files are open, each read's folder must still be where it was found earlier
  if (checks !== undefined) {
    for (let r = 0, i = 0; 2 * r < groups.length; r++) {
      const end = i + groups[2 * r]!;
      let still = checks[2 * r] === null;
      if (!still) {
        try {
          still = fs.readlinkSync(checks[2 * r]!) === checks[2 * r + 1];
        } catch {}
      }
      for (; i < end; i++) {
        if (still) continue;
        const m = i * fields;
        if (fds[i] !== -1) {
          fs.closeSync(fds[i]!);
          fds[i] = -1;
          total -= meta[m + 2]!;
        }
        meta[m] = 0;
      }
    }
  }
  // not zero-filled first (every byte is read over): a search's reads were 40 MB of memset
  const out = total === 0 ? new Uint8Array(0) : new Uint8Array(Buffer.allocUnsafeSlow(total).buffer, 0, total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const fd = fds[i]!;
    if (fd === -1) continue;
    const m = i * fields;
    const size = meta[m + 2]!;
    let got = 0;
    try {
      while (got < size) {
        const r = fs.readSync(fd, out, at + got, size - got, got);
        if (r === 0) break;
        got += r;
      }
    } catch {
      meta[m] = 0;
    }
    fs.closeSync(fd);
    // a file that shrank since its fstat leaves no stale bytes behind it
    if (got < size) out.fill(0, at + got, at + size);
    meta[m + 10] = at;
    meta[m + 2] = got;
    at += size;
  }
  return { meta, out };
}

/** The answers for files `from` to `to` of a batch. */
export function decodeBatch(meta: Float64Array, out: Uint8Array, from: number, to: number): Array<PlainFile | null> {
  const files: Array<PlainFile | null> = [];
  for (let m = from * FIELDS; m < to * FIELDS; m += FIELDS) {
    const kind = meta[m];
    if (kind === 0) {
      files.push(null);
      continue;
    }
    const stat = makeStat('file', {
      mode: meta[m + 1]!,
      size: meta[m + 2]!,
      ino: meta[m + 3]!,
      mtimeMs: meta[m + 4]!,
      ctimeMs: meta[m + 5]!,
      uid: meta[m + 6]!,
      gid: meta[m + 7]!,
      dev: meta[m + 8]!,
      nlink: meta[m + 9]!,
    });
    files.push({ stat, bytes: kind === 1 ? null : out.subarray(meta[m + 10]!, meta[m + 10]! + meta[m + 2]!) });
  }
  return files;
}

/**
 * `/proc/self/fd/...` paths made `/proc/<pid>/fd/...`: '/proc/self' is a link the kernel follows
 * on every open, and the folder it names (the same process's descriptors, as this procfs numbers
 * them) spares each file's open a microsecond. Self-contained: a helper thread's source is made
 * from it too.
 */
export function viaOwnProc(fs: typeof NodeFs): <P extends string | Buffer>(path: P) => P {
  let own: string | null = null;
  try {
    own = `/proc/${fs.readlinkSync('/proc/self')}/fd/`;
  } catch {}
  const selfFd = '/proc/self/fd/';
  return <P extends string | Buffer>(p: P): P =>
    (own !== null && typeof p === 'string' && p.startsWith(selfFd) ? own + p.slice(selfFd.length) : p) as P;
}
