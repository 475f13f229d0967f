/** One member to archive: a file with its bytes, a folder, or a symbolic link with its target. */
export interface TarMember {
  /** the member's path; a folder's ends in `/`, as GNU tar writes it */
  name: string;
  kind: 'file' | 'dir' | 'symlink';
  /** the permission bits (`0o644`) */
  mode: number;
  /** modification time in seconds */
  mtime: number;
  uid: number;
  gid: number;
  uname: string;
  gname: string;
  data?: Uint8Array;
  linkname?: string;
}

const encoder = new TextEncoder();
const TYPES = { file: '0', dir: '5', symlink: '2' } as const;
/** GNU tar writes records of 20 blocks: an archive's length is a multiple of 10 KiB. */
const RECORD = 20 * 512;

function put(block: Uint8Array, start: number, length: number, value: string | Uint8Array): void {
  const bytes = typeof value === 'string' ? encoder.encode(value) : value;
  block.set(bytes.subarray(0, length), start);
}

/** An octal field as GNU writes it (digits, then NUL); base-256 when the digits do not fit. */
function octal(block: Uint8Array, start: number, length: number, value: number): void {
  const digits = value.toString(8);
  if (digits.length < length) {
    put(block, start, length, `${digits.padStart(length - 1, '0')}\0`);
    return;
  }
  let v = value;
  for (let i = start + length - 1; i > start; i--) {
    block[i] = v % 256;
    v = Math.floor(v / 256);
  }
  block[start] = 0x80;
}

interface HeaderFields {
  name: Uint8Array;
  type: string;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  mtime: number;
  linkname: Uint8Array;
  uname: string;
  gname: string;
}

function header(f: HeaderFields): Uint8Array {
  const block = new Uint8Array(512);
  put(block, 0, 100, f.name);
  octal(block, 100, 8, f.mode);
  octal(block, 108, 8, f.uid);
  octal(block, 116, 8, f.gid);
  octal(block, 124, 12, f.size);
  octal(block, 136, 12, f.mtime);
  put(block, 156, 1, f.type);
  put(block, 157, 100, f.linkname);
  // GNU's magic: "ustar" with two spaces and a NUL, no ustar version field
  put(block, 257, 8, 'ustar  \0');
  put(block, 265, 32, f.uname);
  put(block, 297, 32, f.gname);
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  put(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** GNU's `././@LongLink` member that carries a name (`L`) or link target (`K`) past 100 bytes. */
function longLink(type: 'L' | 'K', value: Uint8Array): Uint8Array[] {
  const body = new Uint8Array(value.length + 1);
  body.set(value);
  const fields = { name: encoder.encode('././@LongLink'), type, mode: 0o644, uid: 0, gid: 0, mtime: 0 };
  return [header({ ...fields, size: body.length, linkname: new Uint8Array(), uname: 'root', gname: 'root' }), body];
}

/**
 * An archive in GNU tar's default format (`--format=gnu`): ustar headers with GNU's magic, names
 * and link targets past 100 bytes in `././@LongLink` members, two zero blocks at the end, padded
 * to a whole 10 KiB record. GNU tar, bsdtar and this project's reader all extract it.
 */
export function writeTar(members: readonly TarMember[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const m of members) {
    const name = encoder.encode(m.name);
    const link = encoder.encode(m.linkname ?? '');
    if (link.length > 100) parts.push(...longLink('K', link));
    if (name.length > 100) parts.push(...longLink('L', name));
    const data = m.kind === 'file' ? (m.data ?? new Uint8Array()) : new Uint8Array();
    parts.push(
      header({
        name,
        type: TYPES[m.kind],
        mode: m.mode,
        uid: m.uid,
        gid: m.gid,
        size: data.length,
        mtime: m.mtime,
        linkname: link,
        uname: m.uname,
        gname: m.gname,
      }),
      data,
    );
  }
  let length = 0;
  for (const p of parts) length += Math.ceil(p.length / 512) * 512;
  const out = new Uint8Array(Math.ceil((length + 1024) / RECORD) * RECORD);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += Math.ceil(p.length / 512) * 512;
  }
  return out;
}
