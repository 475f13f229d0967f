import { crc32 } from '../hash/crc32.js';
import { FsError } from '../errors.js';

/**
 * The record format of a packed workspace (pack-store.ts): one append-only log per generation.
 *
 *   u32 length   bytes after this field, to the end of the record
 *   u32 crc      CRC-32 of those bytes
 *   u8  op       write | mkdir | remove | rename | checkpoint; a write's top bit marks an executable file
 *   f64 time     the entry's mtime in ms (write, mkdir)
 *   u16 + utf8   the path
 *   u16 + utf8   the destination (rename only)
 *   ...          the file's bytes (write only)
 *
 * Little-endian. A record whose length or CRC does not hold ends the log: that is a write a crash
 * cut short, and everything before it stands.
 */
export const Op = { Write: 1, Mkdir: 2, Remove: 3, Rename: 4, Checkpoint: 5 } as const;
export type Op = (typeof Op)[keyof typeof Op];

/** The bit of a write record's op byte that marks the file executable. */
const EXECUTABLE = 0x80;

export interface LogRecord {
  op: Op;
  /** a write of an executable file */
  executable: boolean;
  time: number;
  path: string;
  to: string;
  /** where the record's file bytes start in the log, and how many there are (write only) */
  dataAt: number;
  dataLength: number;
}

/** The synchronous file API a log needs: a sync access handle, or bytes in memory in tests. */
export interface PackFile {
  getSize(): number;
  read(buffer: Uint8Array, options: { at: number }): number;
  write(buffer: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}

const encoder = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/;

/**
 * The UTF-8 bytes of `text`: an ASCII string copied code by code, anything else through
 * TextEncoder. Each TextEncoder call crosses into the browser and costs microseconds, and a
 * clone of 2,000 files writes a record, each with its path, for every file and folder.
 */
export function utf8Bytes(text: string): Uint8Array {
  if (!ASCII.test(text)) return encoder.encode(text);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

const PREFIX = 8;
const FIXED = 1 + 8 + 2;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Paths are limited by the u16 length fields; the tools refuse far shorter ones first. */
const MAX_PATH_BYTES = 0xffff;

/** A record's header: everything but the file bytes, which follow it in the log. A path too long for it is ENAMETOOLONG. */
export function encodeHeader(
  op: Op,
  time: number,
  path: string,
  to = '',
  data?: Uint8Array,
  executable = false,
): Uint8Array {
  const p = utf8Bytes(path);
  const t = op === Op.Rename ? utf8Bytes(to) : new Uint8Array(0);
  if (p.length > MAX_PATH_BYTES || t.length > MAX_PATH_BYTES) throw new FsError('ENAMETOOLONG', 'write');
  const size = PREFIX + FIXED + p.length + (op === Op.Rename ? 2 + t.length : 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, size - 4 + (data?.length ?? 0), true);
  view.setUint8(PREFIX, op === Op.Write && executable ? op | EXECUTABLE : op);
  view.setFloat64(PREFIX + 1, time, true);
  view.setUint16(PREFIX + 9, p.length, true);
  out.set(p, PREFIX + FIXED);
  if (op === Op.Rename) {
    view.setUint16(PREFIX + FIXED + p.length, t.length, true);
    out.set(t, PREFIX + FIXED + p.length + 2);
  }
  view.setUint32(4, crc32(data ?? new Uint8Array(0), crc32(out.subarray(PREFIX))), true);
  return out;
}

/**
 * The record at `at`, or null where the log ends (zeros, a torn record, bytes that do not check).
 * The whole record is read once to check its CRC; its file bytes are then read again on demand.
 */
export function readRecord(file: PackFile, at: number, size: number): { record: LogRecord; next: number } | null {
  if (at + PREFIX + FIXED > size) return null;
  const prefix = new Uint8Array(PREFIX);
  file.read(prefix, { at });
  const head = new DataView(prefix.buffer);
  const length = head.getUint32(0, true);
  if (length < 4 + FIXED || at + 4 + length > size) return null;
  const body = new Uint8Array(length - 4);
  if (file.read(body, { at: at + PREFIX }) !== body.length || crc32(body) !== head.getUint32(4, true)) return null;
  const view = new DataView(body.buffer);
  const byte = view.getUint8(0);
  const op = (byte & ~EXECUTABLE) as Op;
  const executable = (byte & EXECUTABLE) !== 0;
  if (op < Op.Write || op > Op.Checkpoint || (executable && op !== Op.Write)) return null;
  const pathLength = view.getUint16(9, true);
  let cursor = FIXED + pathLength;
  if (cursor > body.length) return null;
  try {
    const path = decoder.decode(body.subarray(FIXED, cursor));
    let to = '';
    if (op === Op.Rename) {
      if (cursor + 2 > body.length) return null;
      const toLength = view.getUint16(cursor, true);
      to = decoder.decode(body.subarray(cursor + 2, cursor + 2 + toLength));
      cursor += 2 + toLength;
      if (cursor > body.length) return null;
    }
    const dataLength = op === Op.Write ? body.length - cursor : 0;
    return {
      record: { op, executable, time: view.getFloat64(1, true), path, to, dataAt: at + PREFIX + cursor, dataLength },
      next: at + 4 + length,
    };
  } catch {
    return null;
  }
}
