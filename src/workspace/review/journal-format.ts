import type { ChangeRecord } from './journal-codec.js';

/**
 * A journal record's bytes. Format 2 (written now): one line of JSON, the record with each of its
 * longer texts replaced by `{ "t": i }`, then a newline, then those texts' UTF-8 one after another,
 * their byte lengths listed in the line's `t`. Format 1 (written before): the record as JSON
 * alone, with no raw newline (JSON escapes them); it is still read.
 *
 * A record holds every file's whole text the journal did not know yet: a 100-file patch wrote
 * 2.6 MB of JSON, and escaping it (a quote and a newline on every line of source) and encoding the
 * escaped copy again cost more than the rest of the record. The texts now go in as their own UTF-8.
 * A process of an earlier version skips a format 2 record, as it skips any record it cannot read.
 */

/** Texts at least this long go after the JSON line; shorter ones stay in it. */
const INLINE_MAX = 256;
const NEWLINE = 10;

const utf8 = new TextEncoder();

/** A text moved out of the JSON line: its index in the texts after it. */
interface TextRef {
  t: number;
}

/** The bytes of `record` in format 2. */
export function recordBytes(record: ChangeRecord): Uint8Array {
  const texts: Uint8Array[] = [];
  const out = (text: string): string | TextRef => {
    if (text.length < INLINE_MAX) return text;
    texts.push(utf8.encode(text));
    return { t: texts.length - 1 };
  };
  const side = (value: unknown): unknown => (typeof value === 'string' ? out(value) : value);
  const files = record.files.map((f) => ({
    ...f,
    b: side(f.b),
    a:
      f.a !== null && typeof f.a === 'object' && 'e' in f.a
        ? { e: f.a.e.map(([start, count, text]) => [start, count, out(text)]) }
        : side(f.a),
    ...(f.s !== undefined ? { s: out(f.s) } : {}),
  }));
  const head = utf8.encode(JSON.stringify({ ...record, v: 2, files, t: texts.map((t) => t.length) }));
  let size = head.length + 1;
  for (const t of texts) size += t.length;
  const bytes = new Uint8Array(size);
  bytes.set(head);
  bytes[head.length] = NEWLINE;
  let at = head.length + 1;
  for (const t of texts) {
    bytes.set(t, at);
    at += t.length;
  }
  return bytes;
}

/**
 * The record `bytes` hold, shaped as format 1 (format 2's texts put back in place), for the
 * codec to check and decode; null when they are not a whole record of either format.
 */
export function recordOf(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return null;
  const end = bytes.indexOf(NEWLINE);
  try {
    const decoder = new TextDecoder();
    if (end === -1) return JSON.parse(decoder.decode(bytes));
    const head: unknown = JSON.parse(decoder.decode(bytes.subarray(0, end)));
    if (!isObject(head) || head.v !== 2 || !Array.isArray(head.t) || !Array.isArray(head.files)) return null;
    const texts: string[] = [];
    let at = end + 1;
    for (const length of head.t) {
      if (!Number.isInteger(length) || length < 0 || at + length > bytes.length) return null;
      texts.push(decoder.decode(bytes.subarray(at, at + length)));
      at += length;
    }
    // a record cut short or with bytes after its texts is not one
    if (at !== bytes.length) return null;
    const back = (value: unknown): unknown => {
      if (!isObject(value) || value.h !== undefined || value.e !== undefined) return value;
      const i = value.t;
      if (typeof i !== 'number' || texts[i] === undefined) throw new Error('no such text');
      return texts[i];
    };
    const files = head.files.map((f: unknown) => {
      if (!isObject(f)) return f;
      const a = isObject(f.a) && Array.isArray(f.a.e) ? { e: f.a.e.map(edit) } : back(f.a);
      return { ...f, b: back(f.b), a, ...(f.s !== undefined ? { s: back(f.s) } : {}) };
    });
    function edit(e: unknown): unknown {
      return Array.isArray(e) && e.length === 3 ? [e[0], e[1], back(e[2])] : e;
    }
    const { t: _t, ...rest } = head;
    return { ...rest, v: 1, files };
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
