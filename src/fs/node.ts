import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { FsError, hasFsCode, translated } from './errors.js';
import { Beneath, BENEATH_SUPPORTED, openRegularFile, type FolderCheck } from './node-beneath.js';
import {
  DIRECT_IO,
  nativeIndexOfByte,
  readOnHelper,
  readPlain,
  readPlainAt,
  sendQueuedReads,
  writeInPlace,
} from './node-direct.js';
import { toFsStat } from './stat.js';
import { decodeBatch, readBatch, viaOwnProc } from './node-read-batch.js';
import { literalLines, type LiteralBytes, type LiteralLineSearch } from './literal-lines.js';
import { hasEscapedBytes, nameFromBytes } from './name-bytes.js';
import { FolderListings, native } from './node-names.js';
import {
  requestedMode,
  type FsDirent,
  type NativeHelpers,
  type PlainFile,
  type PlainReadOptions,
  type WorkspaceFs,
} from './types.js';
import { atomicTempName } from './temp-names.js';
import { SYNC_HASH_BYTES, sha256HexSync } from './hash/sha256.js';
import { watchFolder } from './watch/node-watch.js';
import { nodeBuiltin } from './node-builtin.js';

// zlib loads with the first snapshot and crypto with the first write or large hash, not with this
// module: an MCP server's first answers go without them.
let zlib: typeof import('node:zlib') | undefined;
let crypto: typeof import('node:crypto') | undefined;
const nodeZlib = () => (zlib ??= nodeBuiltin<typeof import('node:zlib')>('node:zlib'));
const nodeCrypto = () => (crypto ??= nodeBuiltin<typeof import('node:crypto')>('node:crypto'));

/**
 * The real-folder backend. Paths are host paths; the workspace above confines them to its root
 * and never lets them reach a result. Every writeFile goes to a temporary file in the same folder
 * and is renamed over the target, so a crash leaves the old file or the new one, never half.
 *
 * The calls are synchronous inside the async interface: a thread-pool round trip costs more than
 * the work for the small files and metadata the tools handle (a search over 10,000 files runs 2.5x
 * faster, a small read 10x), and the tools never read a file above their size limit.
 */
export interface NodeFsOptions {
  /**
   * The workspace root: every operation on a path below it is resolved race-free through folder
   * descriptors where the platform can (Linux), so a link swapped in during a call cannot carry
   * it outside. Without it (or elsewhere) paths are used as given.
   */
  root?: string;
}

/** The backend over Node's real files. Writes go to a temporary file and are renamed into place, so a crash leaves the old or the new file. */
export function createNodeFs(options: NodeFsOptions = {}): WorkspaceFs {
  const beneath = options.root !== undefined && BENEATH_SUPPORTED ? new Beneath(resolve(options.root)) : null;
  /** `work` on the path to use for the last component of `abs`: below the root, inside its folder's descriptor. */
  const at = <T>(abs: string, work: (path: string) => T): T => {
    const parts = beneath?.partsOf(abs);
    return parts ? beneath!.at(parts, work) : work(abs);
  };
  /**
   * `work` on a folder itself, opened without following links when below the root (a folder
   * checked after `since` is not checked again: see ResolveOptions).
   */
  const inFolder = <T>(abs: string, work: (path: string) => T, since?: number): T => {
    const parts = beneath?.partsOf(abs);
    return parts ? beneath!.inDir(parts, (fd) => work(`/proc/self/fd/${fd}`), since) : work(abs);
  };
  const listings = new FolderListings();
  return {
    readFile: (path) =>
      translated('readFile', async () => {
        const data = at(path, (p) => readRegular(p, !beneath));
        return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      }),
    writeFile: (path, data, options) =>
      translated('writeFile', async () => at(path, (p) => writeAtomically(p, data, requestedMode(options)))),
    readdir: (path) =>
      translated('readdir', async () =>
        inFolder(path, (p) => fs.readdirSync(native(p), { encoding: 'buffer' })).map(nameFromBytes),
      ),
    readdirTypes: (path, options) =>
      translated('readdir', async () =>
        inFolder(
          path,
          (p) => {
            // names as strings, by bytes only for a folder with a name that is not UTF-8 (see readdirStats)
            const listed = fs.readdirSync(native(p), { withFileTypes: true });
            if (!listed.some((d) => d.name.includes('\uFFFD')))
              return listed.map((d): FsDirent => ({ name: d.name, type: direntType(d) }));
            return fs
              .readdirSync(native(p), { withFileTypes: true, encoding: 'buffer' })
              .map((d): FsDirent => ({ name: nameFromBytes(d.name), type: direntType(d) }));
          },
          options?.resolvedSince,
        ),
      ),
    // One folder resolution for the whole listing: a rescan lstats every file, and resolving each
    // path again (a descriptor check per call below the root) cost more than the lstat itself.
    readdirStats: (path) => translated('readdir', async () => inFolder(path, (p) => listings.stats(path, p))),
    // A missing path is common (existence probes): answered without Node building an error first.
    stat: (path) =>
      translated('stat', async () =>
        toFsStat(at(path, (p) => fs.statSync(native(p), { throwIfNoEntry: false })) ?? missing('stat')),
      ),
    lstat: (path) =>
      translated('lstat', async () =>
        toFsStat(at(path, (p) => fs.lstatSync(native(p), { throwIfNoEntry: false })) ?? missing('lstat')),
      ),
    mkdir: (path, options) =>
      translated('mkdir', async () => {
        if (!options?.recursive || !beneath?.partsOf(path)) {
          at(path, (p) => fs.mkdirSync(native(p), options));
          return;
        }
        const parts = beneath.partsOf(path)!;
        for (let i = 1; i <= parts.length; i++) {
          beneath.at(parts.slice(0, i), (p) => {
            try {
              fs.mkdirSync(native(p));
            } catch (error) {
              if (!hasFsCode(error, 'EEXIST') || !fs.lstatSync(native(p)).isDirectory()) throw error;
            }
          });
        }
      }),
    rmdir: (path) => translated('rmdir', async () => at(path, (p) => fs.rmdirSync(native(p)))),
    unlink: (path) => translated('unlink', async () => at(path, (p) => fs.unlinkSync(native(p)))),
    rename: (from, to) =>
      translated('rename', async () => at(from, (f) => at(to, (t) => fs.renameSync(native(f), native(t))))),
    readlink: (path) =>
      translated('readlink', async () =>
        at(path, (p) => nameFromBytes(fs.readlinkSync(native(p), { encoding: 'buffer' }))),
      ),
    symlink: (target, path) =>
      translated('symlink', async () => at(path, (p) => fs.symlinkSync(native(target), native(p)))),
    ...(DIRECT_IO
      ? {
          readPlainFile: async (base: string, rel: string, maxBytes: number) => {
            const abs = `${base.endsWith('/') ? base.slice(0, -1) : base}/${rel}`;
            if (!beneath?.partsOf(abs)) return readPlain(base, rel, maxBytes);
            try {
              return at(abs, (p) => readPlainAt(p, maxBytes));
            } catch {
              return null;
            }
          },
          readPlainFiles: (base: string, names: readonly string[], maxBytes: number, options?: PlainReadOptions) => {
            const dir = base.endsWith('/') ? base.slice(0, -1) : base;
            const parts = beneath?.partsOf(dir === '' ? '/' : dir);
            const here = options?.here === true;
            const literal = options?.literal ?? null;
            if (!parts) return readMany(dir, names, maxBytes, here, null, literal);
            // below the root: every name inside the folder's descriptor, held until all are read
            return beneath!
              .inDirHeld(
                parts,
                (fd, recheck) => readMany(`/proc/self/fd/${fd}`, names, maxBytes, here, recheck, literal),
                options?.resolvedSince,
              )
              .catch(() => names.map(() => null));
          },
          writeInPlace: (path: string, data: Uint8Array, currentSize: number) =>
            translated('writeFile', async () => at(path, (p) => writeInPlace(p, data, currentSize))),
        }
      : {}),
    native: NODE_NATIVE,
    capabilities: { symlinks: true, atomicRename: true, modes: true, replacesOnWrite: true },
    watchChanges(dir, options) {
      return watchFolder(dir, options ?? {}, { make: (p) => this.mkdir(p), remove: (p) => this.rmdir(p) });
    },
    // the kept folder descriptors; a later call opens what it needs again
    close: async () => {
      listings.clear();
      return beneath?.release();
    },
  };
}

/**
 * Plain files of folder `dir` (a path or a folder descriptor's `/proc` path), on the helper thread
 * when there is one and not asked for `here`, else here. A name that is not a plain name is null:
 * the caller's slow path decides. With `recheck`, the folder must still be in place once the
 * files are open, or every file is null. With `literal`, its lines are found in each file as it
 * is read (PlainFile.literalLines), on the thread that reads it.
 */
async function readMany(
  dir: string,
  names: readonly string[],
  maxBytes: number,
  here: boolean,
  recheck: FolderCheck | null = null,
  literal: LiteralBytes | null = null,
): Promise<Array<PlainFile | null>> {
  if (names.length === 0) return [];
  const plain = names.map((n) => n !== '' && n !== '.' && n !== '..' && !n.includes('/'));
  const allPlain = !plain.includes(false);
  // a name that is not plain reads the folder itself, which is not a file: null
  const listed = allPlain ? names : names.map((n, i) => (plain[i] ? n : '.'));
  // one look for escaped bytes in all the names: a look per path cost more than the rest of the call
  const joined = listed.join('\0');
  const escaped = hasEscapedBytes(dir) || hasEscapedBytes(joined);
  const inPlace = () => {
    // as a helper thread reads them (the same code), and just as cheaply per file
    const own = (ownPath ??= viaOwnProc(fs));
    const base = own(dir);
    const paths = listed.map((n) => (escaped ? native(`${base}/${n}`) : `${base}/${n}`));
    const answer = readBatch(
      fs,
      paths,
      [paths.length, maxBytes],
      recheck ? [own(recheck.link), recheck.path] : undefined,
      literal === null ? undefined : { literal, lines: (lineSearch ??= literalLines(nativeIndexOfByte, isUtf8)).lines },
    );
    return decodeBatch(answer, 0, paths.length);
  };
  let read: Array<PlainFile | null>;
  if (here) {
    sendQueuedReads();
    read = inPlace();
  } else {
    const onHelper = escaped
      ? readOnHelper(
          listed.map((n) => native(`${dir}/${n}`)),
          names.length,
          maxBytes,
          null,
          recheck,
          literal,
        )
      : readOnHelper(joined, names.length, maxBytes, dir, recheck, literal);
    read = (await onHelper?.catch(() => null)) ?? inPlace();
  }
  return allPlain ? read : read.map((file, i) => (plain[i] ? file : null));
}

let ownPath: ReturnType<typeof viaOwnProc> | undefined;
let lineSearch: LiteralLineSearch | undefined;

/** A regular file's bytes, opened without following a final link unless `follow`; never blocks on a FIFO. */
function readRegular(path: string, follow: boolean): Buffer {
  const fd = openRegularFile(path, follow);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function direntType(d: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }): FsDirent['type'] {
  return d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other';
}

function missing(operation: string): never {
  // ENOENT is an everyday answer (a checkout asks it of every file it writes): capturing its stack,
  // async frames included, cost more than the lstat itself
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const error = new FsError('ENOENT', operation);
  Error.stackTraceLimit = limit;
  throw error;
}

/** Node's zlib and crypto, for the node backend and (installed by the Node entry) every backend in Node. */
export const NODE_NATIVE: NativeHelpers = {
  deflate: (data) => {
    // git's own level for objects it writes one at a time (core.looseCompression defaults to 1):
    // three times faster than the default level on source files, for a few percent of size
    const out = nodeZlib().deflateSync(data, { level: 1 });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  },
  deflateAsync: (data) =>
    new Promise((resolve, reject) =>
      nodeZlib().deflate(data, { level: 1 }, (error, out) =>
        error ? reject(error) : resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength)),
      ),
    ),
  inflate: (data) => {
    const out = nodeZlib().inflateSync(data);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  },
  inflatePrefix: (data, size) => {
    // one output chunk of the object's size (+1, so a stream that goes on is caught): the bytes are
    // then a view of their own buffer, not of a shared 16 KiB chunk a kept object would pin
    const { buffer, engine } = nodeZlib().inflateSync(data, {
      info: true,
      chunkSize: Math.max(64, size + 1),
      maxOutputLength: Math.max(1, size),
    }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), read: engine.bytesWritten };
  },
  // A small file is hashed in JS until crypto has loaded for something else: loading it is ms of a
  // server's first read (a write loads it, for its temporary's name), for microseconds of hashing.
  sha256Hex: (data) =>
    crypto === undefined && data.length <= SYNC_HASH_BYTES
      ? sha256HexSync(data)
      : nodeCrypto().createHash('sha256').update(data).digest('hex'),
  sha1Hex: (parts) => {
    const hash = nodeCrypto().createHash('sha1');
    for (const part of parts) hash.update(part);
    return hash.digest('hex');
  },
  indexOfByte: nativeIndexOfByte,
  isUtf8: (bytes) => isUtf8(bytes),
};

function writeAtomically(path: string, data: Uint8Array | string, requested?: number): void {
  const temp = join(dirname(path), atomicTempName(basename(path), tempSuffix()));
  // With a mode asked for, nothing of the file there is needed: a folder there refuses the rename
  // (EISDIR), and the temporary file is removed. Without one, the file there keeps its mode.
  let mode = requested;
  if (requested === undefined) {
    const existing = fs.lstatSync(native(path), { throwIfNoEntry: false });
    if (existing?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (existing?.isFile()) mode = existing.mode & 0o7777;
  }
  // 'wx': the temporary name must be new, never a link or file planted there (which stays as it is).
  let fd = fs.openSync(native(temp), 'wx', mode ?? 0o666);
  try {
    fs.writeFileSync(fd, data);
    // The umask applies to a new file's mode; a mode asked for is set as given, on the open file
    // (a chmod by name resolved the path again).
    if (requested !== undefined) fs.fchmodSync(fd, requested);
    fs.closeSync(fd);
    fd = -1;
    fs.renameSync(native(temp), native(path));
  } catch (error) {
    if (fd !== -1) fs.closeSync(fd);
    try {
      fs.unlinkSync(native(temp));
    } catch {
      /* already gone */
    }
    throw error;
  }
}

/**
 * Random bytes for temporary names, taken a few thousand at a time: asking the host's generator
 * for six bytes per file cost a clone of 2,000 files more than its renames.
 */
let suffixPool: Buffer | null = null;
let suffixAt = 0;
function tempSuffix(): string {
  if (suffixPool === null || suffixAt + 6 > suffixPool.length) {
    suffixPool = nodeCrypto().randomBytes(6 * 512);
    suffixAt = 0;
  }
  suffixAt += 6;
  return suffixPool.toString('hex', suffixAt - 6, suffixAt);
}
