/** What a tar member is: its typeflag read as a kind (devices, FIFOs and the like are `other`). */
export type TarKind = 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';

/** One member of a tar archive, its long name, long link name and pax records already applied. */
export interface TarEntry {
  /** the path as stored: a folder's with its trailing `/` when the archiver wrote one */
  name: string;
  kind: TarKind;
  /** the permission bits (`0o755`), without the type */
  mode: number;
  uid: number;
  gid: number;
  uname: string;
  gname: string;
  size: number;
  /** modification time in seconds */
  mtime: number;
  /** a link's target (`symlink`), or the member it repeats (`hardlink`) */
  linkname: string;
  /** the member's bytes: a view into the archive */
  data: Uint8Array;
}

/** Why an archive cannot be read: not a tar archive at all, or cut short. */
export class TarFormatError extends Error {
  constructor(readonly kind: 'not-tar' | 'truncated') {
    super(kind === 'not-tar' ? 'This does not look like a tar archive' : 'Unexpected EOF in archive');
  }
}

const decoder = new TextDecoder();

function text(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return decoder.decode(end === -1 ? field : field.subarray(0, end));
}

function octal(block: Uint8Array, start: number, length: number): number {
  // GNU base-256 for values an octal field cannot hold (sizes past 8 GiB): the top bit is set.
  if (block[start]! & 0x80) {
    let value = block[start]! & 0x3f;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + block[i]!;
    return value;
  }
  const t = text(block, start, length).trim();
  return t ? Number.parseInt(t, 8) : 0;
}

/** A header's checksum holds: the unsigned sum (or the signed one old archivers wrote) of its bytes, the field as spaces. */
function checksumHolds(header: Uint8Array): boolean {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < 512; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : header[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  const stored = octal(header, 148, 8);
  return stored === unsigned || stored === signed;
}

/** pax extended header records (`LEN key=value\n`). */
function paxRecords(data: Uint8Array): Map<string, string> {
  const records = decoder.decode(data);
  const out = new Map<string, string>();
  let at = 0;
  while (at < records.length) {
    const space = records.indexOf(' ', at);
    if (space === -1) break;
    const length = Number(records.slice(at, space));
    if (!length) break;
    const record = records.slice(space + 1, at + length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

const KINDS: Record<string, TarKind> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '5': 'dir',
  '2': 'symlink',
  '1': 'hardlink',
};

/**
 * Every member of an uncompressed tar archive (ustar, GNU, pax), in order. GNU long names and
 * link names (`L`, `K`), pax `path`, `linkpath`, `size`, `mtime`, owner records and the ustar
 * prefix are applied to the member they describe. A header whose checksum fails, or a member cut
 * short, throws TarFormatError, as GNU tar stops on them.
 */
export function tarEntries(tar: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax = new Map<string, string>();
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    if (!checksumHolds(header)) throw new TarFormatError('not-tar');
    const type = String.fromCharCode(header[156]!);
    const size = pax.has('size') ? Number(pax.get('size')) : octal(header, 124, 12);
    if (at + 512 + size > tar.length) throw new TarFormatError('truncated');
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      pax = paxRecords(body);
      continue;
    }
    if (type === 'L' || type === 'K') {
      if (type === 'L') longName = text(body, 0, body.length);
      else longLink = text(body, 0, body.length);
      continue;
    }
    if (type === 'g') continue;
    const magic = text(header, 257, 6);
    // ustar's prefix field; GNU's format keeps other fields there and has no prefix
    const prefix = magic === 'ustar' ? text(header, 345, 155) : '';
    const short = text(header, 0, 100);
    entries.push({
      name: pax.get('path') ?? longName ?? (prefix ? `${prefix}/${short}` : short),
      kind: KINDS[type] ?? 'other',
      mode: octal(header, 100, 8) & 0o7777,
      uid: pax.has('uid') ? Number(pax.get('uid')) : octal(header, 108, 8),
      gid: pax.has('gid') ? Number(pax.get('gid')) : octal(header, 116, 8),
      uname: pax.get('uname') ?? text(header, 265, 32),
      gname: pax.get('gname') ?? text(header, 297, 32),
      size,
      mtime: pax.has('mtime') ? Math.floor(Number(pax.get('mtime'))) : octal(header, 136, 12),
      linkname: pax.get('linkpath') ?? longLink ?? text(header, 157, 100),
      data: body,
    });
    longName = undefined;
    longLink = undefined;
    pax = new Map();
  }
  if (at + 512 > tar.length && at < tar.length && entries.length === 0) throw new TarFormatError('not-tar');
  return entries;
}
