import * as fs from 'node:fs';
import { native } from './node-names.js';
import { toFsStat } from './stat.js';
import type { PlainFile } from './types.js';

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
