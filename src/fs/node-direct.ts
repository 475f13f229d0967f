import * as fs from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { native } from './node-names.js';
import { toFsStat } from './stat.js';
import { literalLines, type LiteralBytes } from './literal-lines.js';
import { decodeBatch, readBatch, viaOwnProc, type BatchAnswer } from './node-read-batch.js';
import type { PlainFile } from './types.js';
import { nodeBuiltin } from './node-builtin.js';
import type { FolderCheck } from './node-beneath.js';

const { O_RDONLY, O_WRONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
/** Without O_NOFOLLOW (Windows) an open would follow a link, so these paths are not offered. */
export const DIRECT_IO = typeof O_NOFOLLOW === 'number' && typeof O_NONBLOCK === 'number';
// O_NONBLOCK: a FIFO planted at the path must not hang the open; fstat then turns it away.
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (O_NOCTTY ?? 0);
const WRITE_FLAGS = O_WRONLY | O_NOFOLLOW | O_NONBLOCK | (O_NOCTTY ?? 0);

/**
 * `base/rel` read through one descriptor when no component of `rel` is a link: the folders on the
 * way are lstat-ed, the file itself is opened with O_NOFOLLOW and fstat-ed, which spares the
 * separate lstat a resolve-then-read costs. Anything unusual is null: the caller's slow path then
 * produces the precise answer.
 */
export function readPlain(base: string, rel: string, maxBytes: number): PlainFile | null {
  const parts = rel.split('/');
  let path = base.endsWith('/') ? base.slice(0, -1) : base;
  for (let i = 0; i < parts.length - 1; i++) {
    path = `${path}/${parts[i]}`;
    if (!fs.lstatSync(native(path), { throwIfNoEntry: false })?.isDirectory()) return null;
  }
  return readPlainAt(`${path}/${parts[parts.length - 1]}`, maxBytes);
}

/** The file at `path` through one descriptor opened without following a link, or null when it is anything unusual. */
export function readPlainAt(path: string, maxBytes: number): PlainFile | null {
  let fd: number;
  try {
    fd = fs.openSync(native(path), READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const s = fs.fstatSync(fd);
    if (!s.isFile()) return null;
    const stat = toFsStat(s);
    if (s.size > maxBytes) return { stat, bytes: null };
    return { stat, bytes: readUpTo(fd, s.size) };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** The first `size` bytes (fewer if the file shrank since its fstat). */
function readUpTo(fd: number, size: number): Uint8Array {
  const buffer = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const n = fs.readSync(fd, buffer, at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, at);
}

/**
 * Write over an existing file of `currentSize` bytes, in place (see WorkspaceFs.writeInPlace). A
 * rename over a file makes ext4 and others flush the new file first and costs a fresh inode; an
 * in-place write needs neither.
 */
export function writeInPlace(path: string, data: Uint8Array, currentSize: number): boolean {
  if (data.length < currentSize) return false;
  let fd: number;
  try {
    fd = fs.openSync(native(path), WRITE_FLAGS);
  } catch {
    return false;
  }
  try {
    const s = fs.fstatSync(fd);
    if (!s.isFile() || s.size !== currentSize) return false;
    for (let at = 0; at < data.length; ) at += fs.writeSync(fd, data, at, data.length - at, at);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/*
 * Many small files read on a helper thread, so the system calls of a search (an open, fstat,
 * read and close per file) run beside the main thread's scanning instead of before it. Up to two
 * threads, started as reads need them and never keeping the process alive; where none can start,
 * or one fails, the reads are done in place.
 *
 * The thread opens exactly the paths it is given with O_NOFOLLOW and O_NONBLOCK, as the
 * in-place read does: a caller below a root passes `/proc/self/fd/<folder>/<name>` paths whose
 * folder descriptors it keeps open until the answer is back, so where a read lands is decided
 * by the descriptor, not by a path a racing process could change. A read may come with a check
 * (a descriptor's link and the path it must read): once the files are open, a folder no longer
 * at that path makes every file of that read null.
 */

/**
 * Node's memchr for one byte where Uint8Array#indexOf compares byte by byte: a fifth of the time
 * on a file's bytes. Self-contained: the read helper thread's source is made from it too.
 */
export function nativeIndexOfByte(bytes: Uint8Array, byte: number, from: number): number {
  return from >= bytes.length ? -1 : Buffer.prototype.indexOf.call(bytes, byte, from);
}

/** The thread's code (CommonJS: an eval worker has no module loader); its reads are readBatch's. */
const SOURCE = `
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
const readBatch = ${readBatch.toString()};
const viaOwn = (${viaOwnProc.toString()})(fs);
const { lines } = (${literalLines.toString()})(${nativeIndexOfByte.toString()}, require('node:buffer').isUtf8);
parentPort.on('message', ({ id, paths: given, dirs, groups, checks, literal }) => {
  const paths = typeof given === 'string' ? given.split('\\0') : given;
  const n = paths.length;
  if (dirs !== undefined) {
    // names of each read's folder, in order: the paths are made here, not on the caller's thread
    let i = 0;
    for (let d = 0; d < dirs.length; d++) {
      const prefix = viaOwn(dirs[d]) + '/';
      for (const end = i + groups[2 * d]; i < end; i++) paths[i] = prefix + paths[i];
    }
  } else for (let i = 0; i < n; i++) paths[i] = viaOwn(paths[i]);
  const viaChecks = checks && checks.map((c, i) => (i % 2 === 0 && c !== null ? viaOwn(c) : c));
  const answer = readBatch(fs, paths, groups, viaChecks, literal && { literal, lines });
  parentPort.postMessage({ id, ...answer }, [answer.meta.buffer, answer.out.buffer, answer.lines.buffer]);
});
`;

/** One readOnHelper call: its files' place in a message, and who waits for them. */
interface Request {
  /** the folder that `paths` (then names joined by NUL) are in, or null when they are whole paths */
  dir: string | null;
  /** a folder descriptor's link and the path it must still read once the files are open, or null */
  check: FolderCheck | null;
  paths: string | Array<string | Buffer>;
  /** the literal whose lines are found as the files are read (PlainReadOptions.literal), or null */
  literal: LiteralBytes | null;
  count: number;
  maxBytes: number;
  resolve: (files: Array<PlainFile | null>) => void;
  reject: (error: unknown) => void;
}

/** One helper thread and the reads it has not answered yet (by message, each with its requests in order). */
interface Helper {
  worker: Worker;
  pending: Map<number, Request[]>;
}

/**
 * Up to two threads: the system calls of a batch (an open, fstat, read and close per file) cost
 * about as much as the main thread's scan of its bytes, so one thread left the scan waiting. The
 * second starts only when a batch arrives while the first is busy (a small search never pays
 * for it), and only where a core is left for it beside the caller's thread and the first: on two
 * cores the three busy threads took turns, each wake of a helper preempted the search's own
 * thread, and a search of 10,000 files took 1.61x ripgrep's time with two helpers, 1.25x with one.
 */
let maxHelpers: number | undefined;
function helperLimit(): number {
  if (maxHelpers === undefined) {
    const os = nodeBuiltin<typeof import('node:os')>('node:os');
    const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    maxHelpers = Math.max(1, Math.min(2, cores - 1));
  }
  return maxHelpers;
}

/** For tests: allow `limit` helper threads whatever the cores (two, to see answers cross threads); undefined restores the default. */
export function setReadHelperLimit(limit: number | undefined): void {
  maxHelpers = limit;
}

/** The threads running; null once none can start. */
let helpers: Helper[] | null = [];
// Files read in place (batches that fit: a big first folder would hold the event loop) before a helper
// starts: a thread's start (75-100 ms of CPU on Node 20) is worth thousands of small reads.
const READ_IN_PLACE_FIRST = 256;
let readInPlace = 0;
/** Set when a thread failed: no new one is started after that. */
let helperFailed = false;
let nextId = 0;

function startHelper(): Helper | null {
  let worker: Worker;
  try {
    // worker_threads loads with the first read that needs a helper, not with this module.
    const { Worker } = nodeBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
    worker = new Worker(SOURCE, { eval: true });
  } catch {
    return null;
  }
  worker.unref();
  const one: Helper = { worker, pending: new Map() };
  worker.on('message', ({ id, ...answer }: BatchAnswer & { id: number }) => {
    const requests = one.pending.get(id);
    one.pending.delete(id);
    if (one.pending.size === 0) worker.unref();
    if (!requests) return;
    let at = 0;
    for (const r of requests) {
      r.resolve(decodeBatch(answer, at, at + r.count));
      at += r.count;
    }
  });
  const fail = (error: unknown) => {
    // its reads still out are made in place by the caller; later ones go to a thread still running
    helperFailed = true;
    if (helpers) helpers = helpers.filter((h) => h !== one);
    for (const requests of one.pending.values()) for (const r of requests) r.reject(error);
    one.pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('read helper exited')));
  return one;
}

/** How many read helper threads run (for tests: a busy search starts the second). */
export function readHelperCount(): number {
  return helpers?.length ?? 0;
}

/** An idle thread, else a new one while fewer than helperLimit() run, else the least busy; null when none can run. */
function pickHelper(): Helper | null {
  if (helpers === null) return null;
  let best: Helper | undefined;
  for (const h of helpers) if (!best || h.pending.size < best.pending.size) best = h;
  if (best?.pending.size === 0) return best;
  if (helpers.length < helperLimit() && !helperFailed) {
    const started = startHelper();
    if (started) {
      helpers.push(started);
      return started;
    }
    helperFailed = true;
  }
  if (!best) helpers = null;
  return best ?? null;
}

/**
 * Files in one message at most: the reads asked for in one turn of the caller go out together
 * (a search asks for several folders at once), but a rescan's four batches of 64 still spread
 * over both threads.
 */
const MESSAGE_FILES = 96;
/** Reads asked for in this turn, sent when it ends. */
let outbox: Request[] = [];

/**
 * Read `paths` (each opened without following a final link) on a helper thread: for each a
 * regular file's lstat and bytes (null bytes over `maxBytes`), or null for anything else. Null
 * as a whole when there is no helper thread (or none yet): the caller reads in place (as it does
 * when the promise rejects). Plain paths come joined by NUL (one string clones far cheaper than an
 * array of them; a path is never NUL), or, with `dir`, the names in that folder joined so (the thread
 * makes the paths: 10,000 of them were a tenth of what a search allocated on the caller's
 * thread); an array holds whole paths, as bytes where a name is not UTF-8.
 *
 * The reads asked for in one turn (up to the next process.nextTick) go to a thread in one
 * message: a round trip wakes both threads and cost about as much CPU as reading 8 small files,
 * and a search over 500 folders paid it 500 times.
 */
export function readOnHelper(
  paths: string | Array<string | Buffer>,
  count: number,
  maxBytes: number,
  dir: string | null = null,
  check: FolderCheck | null = null,
  literal: LiteralBytes | null = null,
): Promise<Array<PlainFile | null>> | null {
  if (helpers === null) return null;
  if (helpers.length === 0 && readInPlace + count <= READ_IN_PLACE_FIRST) {
    readInPlace += count;
    return null;
  }
  return new Promise((resolve, reject) => {
    if (outbox.length === 0) process.nextTick(flush);
    outbox.push({ dir, check, paths, literal, count, maxBytes, resolve, reject });
  });
}

/** Send the reads asked for so far in this turn now: a caller about to read in place lets the threads work meanwhile. */
export function sendQueuedReads(): void {
  if (outbox.length > 0) flush();
}

/** Send the reads asked for in this turn, up to MESSAGE_FILES files a message, each message's for one literal. */
function flush(): void {
  const queued = outbox;
  outbox = [];
  for (let at = 0; at < queued.length; ) {
    let end = at + 1;
    let files = queued[at]!.count;
    const { literal } = queued[at]!;
    while (end < queued.length && files + queued[end]!.count <= MESSAGE_FILES && queued[end]!.literal === literal)
      files += queued[end++]!.count;
    send(queued.slice(at, end));
    at = end;
  }
}

function send(requests: Request[]): void {
  const h = pickHelper();
  if (h === null) {
    const none = new Error('no read helper thread');
    for (const r of requests) r.reject(none);
    return;
  }
  const groups: number[] = [];
  for (const r of requests) groups.push(r.count, r.maxBytes);
  let paths: string | Array<string | Buffer>;
  let dirs: string[] | undefined;
  if (requests.every((r) => r.dir !== null)) {
    dirs = requests.map((r) => r.dir!);
    paths = requests.length === 1 ? requests[0]!.paths : requests.map((r) => r.paths).join('\0');
  } else paths = requests.flatMap(wholePaths);
  const checks = requests.some((r) => r.check !== null)
    ? requests.flatMap((r) => (r.check === null ? [null, null] : [r.check.link, r.check.path]))
    : undefined;
  const id = nextId++;
  if (h.pending.size === 0) h.worker.ref();
  h.pending.set(id, requests);
  const literal = requests[0]!.literal ?? undefined;
  try {
    h.worker.postMessage(dirs ? { id, paths, dirs, groups, checks, literal } : { id, paths, groups, checks, literal });
  } catch (error) {
    h.pending.delete(id);
    if (h.pending.size === 0) h.worker.unref();
    for (const r of requests) r.reject(error);
  }
}

/** A request's files as whole paths (a message that also carries paths that are not UTF-8). */
function wholePaths(r: Request): Array<string | Buffer> {
  if (typeof r.paths !== 'string') return r.paths;
  const listed = r.paths.split('\0');
  return r.dir === null ? listed : listed.map((name) => `${r.dir}/${name}`);
}
