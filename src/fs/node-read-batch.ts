import type * as NodeFs from 'node:fs';
import type { LiteralBytes, LiteralLineSearch } from './literal-lines.js';
import { makeStat } from './stat.js';
import type { PlainFile } from './types.js';

/** Fields of each answer, in the metadata array. */
export const FIELDS = 13;

/**
 * The files of one batch: each one's numbers in `meta` (FIELDS a file), the bytes of all in `out`,
 * and the lines holding the literal asked for in `lines` (four numbers a line).
 */
export interface BatchAnswer {
  meta: Float64Array;
  out: Uint8Array;
  lines: Float64Array;
}

/** What a batch looks for in its files as it reads them: a literal, with the line search that finds it. */
export interface BatchLiteral {
  literal: LiteralBytes;
  lines: LiteralLineSearch['lines'];
}

/**
 * Read a batch of files, each opened exactly at its path without following a final link and
 * without waiting on a FIFO: a regular file's fstat numbers and bytes (none over its group's
 * `maxBytes`), nothing for anything else. `groups` holds [count, maxBytes] of each read asked
 * for, in order; `checks` [link, path] of each (or two nulls): that read's folder must still be at
 * that path once its files are open, or none of them is answered. With `find`, each file read
 * whole is searched for the literal's lines there and then (a search's scan, on this thread).
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
  find?: BatchLiteral,
): BatchAnswer {
  const fields = 13;
  // more lines in one file than this are left to the reader, who stops at what its page can hold
  const mostLines = 1000;
  const found: number[] = [];
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
    meta[m + 11] = -1;
    if (find !== undefined && meta[m] === 2) {
      const first = found.length;
      const n = find.lines(out.subarray(at, at + got), find.literal, 0, mostLines + 1, found);
      if (n >= 0 && n <= mostLines) {
        meta[m + 11] = n;
        meta[m + 12] = first;
      } else found.length = first;
    }
    at += size;
  }
  return { meta, out, lines: new Float64Array(found) };
}

const NO_LINES = new Float64Array(0);
const NO_BYTES = new Uint8Array(0);

/** The answers for files `from` to `to` of a batch. */
export function decodeBatch({ meta, out, lines }: BatchAnswer, from: number, to: number): Array<PlainFile | null> {
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
    const n = meta[m + 11]!;
    if (kind === 1) files.push({ stat, bytes: null });
    // no view of a file found without the literal: its bytes are not looked at again
    else if (n === 0) files.push({ stat, bytes: NO_BYTES, literalLines: NO_LINES });
    else {
      const bytes = out.subarray(meta[m + 10]!, meta[m + 10]! + meta[m + 2]!);
      const first = meta[m + 12]!;
      files.push(n < 0 ? { stat, bytes } : { stat, bytes, literalLines: lines.subarray(first, first + 4 * n) });
    }
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
