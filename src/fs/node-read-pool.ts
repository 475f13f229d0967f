import { Worker } from 'node:worker_threads';
import { makeStat } from './stat.js';
import type { PlainFile } from './types.js';

/**
 * Many small files read on a helper thread, so the system calls of a search (an open, fstat,
 * read and close per file) run beside the main thread's scanning instead of before it. One
 * thread, started on first use and never keeping the process alive; where it cannot start, or
 * fails, the reads are done in place.
 *
 * The thread opens exactly the paths it is given with O_NOFOLLOW and O_NONBLOCK, as the
 * in-place read does: a caller below a root passes `/proc/self/fd/<folder>/<name>` paths whose
 * folder descriptors it keeps open until the answer is back, so where a read lands is decided
 * by the descriptor, not by a path a racing process could change.
 */

/** Fields of each answer, in the metadata array. */
const FIELDS = 11;
/** The thread's code (CommonJS: an eval worker has no module loader). */
const SOURCE = `
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
const FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (O_NOCTTY || 0);
parentPort.on('message', ({ id, paths: given, max }) => {
  const paths = typeof given === 'string' ? given.split('\\0') : given;
  const n = paths.length;
  const meta = new Float64Array(n * ${FIELDS});
  const fds = new Array(n).fill(-1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    let fd;
    try { fd = fs.openSync(paths[i], FLAGS); } catch { continue; }
    try {
      const s = fs.fstatSync(fd);
      if (!s.isFile()) { fs.closeSync(fd); continue; }
      const m = i * ${FIELDS};
      meta[m] = s.size > max ? 1 : 2;
      meta[m + 1] = s.mode; meta[m + 2] = s.size; meta[m + 3] = s.ino; meta[m + 4] = s.mtimeMs;
      meta[m + 5] = s.ctimeMs; meta[m + 6] = s.uid; meta[m + 7] = s.gid; meta[m + 8] = s.dev; meta[m + 9] = s.nlink;
      if (s.size > max) { fs.closeSync(fd); continue; }
      fds[i] = fd;
      total += s.size;
    } catch { fs.closeSync(fd); meta[i * ${FIELDS}] = 0; }
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const fd = fds[i];
    if (fd === -1) continue;
    const m = i * ${FIELDS};
    const size = meta[m + 2];
    let got = 0;
    try {
      while (got < size) { const r = fs.readSync(fd, out, at + got, size - got, got); if (r === 0) break; got += r; }
    } catch { meta[m] = 0; }
    fs.closeSync(fd);
    meta[m + 10] = at;
    meta[m + 2] = got;
    at += size;
  }
  parentPort.postMessage({ id, meta, out }, [meta.buffer, out.buffer]);
});
`;

type Pending = { resolve: (files: Array<PlainFile | null>) => void; reject: (error: unknown) => void };

let worker: Worker | null | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function helper(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(SOURCE, { eval: true });
    worker.unref();
    worker.on('message', ({ id, meta, out }: { id: number; meta: Float64Array; out: Uint8Array }) => {
      const waiting = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) worker?.unref();
      waiting?.resolve(decode(meta, out));
    });
    const fail = (error: unknown) => {
      worker = null;
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('read helper exited')));
  } catch {
    worker = null;
  }
  return worker;
}

function decode(meta: Float64Array, out: Uint8Array): Array<PlainFile | null> {
  const files: Array<PlainFile | null> = [];
  for (let m = 0; m < meta.length; m += FIELDS) {
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
 * Read `paths` (each opened without following a final link) on the helper thread: for each a
 * regular file's lstat and bytes (null bytes over `maxBytes`), or null for anything else. Null
 * as a whole when there is no helper thread: the caller reads in place.
 */
export function readOnHelper(paths: Array<string | Buffer>, maxBytes: number): Promise<Array<PlainFile | null>> | null {
  const w = helper();
  if (w === null) return null;
  const id = nextId++;
  if (pending.size === 0) w.ref();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // one string clones far cheaper than an array of them; a path is never NUL
    const plain = paths.every((p) => typeof p === 'string');
    w.postMessage({ id, paths: plain ? paths.join('\0') : paths, max: maxBytes });
  });
}
