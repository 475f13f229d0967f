import { specialKindOf } from './special.js';
import { statTypeOf, type FsStat } from './types.js';

type Num = number | bigint;
interface NodeLikeStats {
  mode: Num;
  size: Num;
  ino: Num;
  mtimeMs: Num;
  ctimeMs: Num;
  uid: Num;
  gid: Num;
  dev: Num;
  nlink?: Num;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO?(): boolean;
  isSocket?(): boolean;
  isBlockDevice?(): boolean;
  isCharacterDevice?(): boolean;
}

/** One stat shape for every backend (Node's, memfs's and the browser adapters' own). */
export function toFsStat(s: NodeLikeStats): FsStat {
  const special = specialKindOf(s);
  return makeStat(statTypeOf(s), {
    ...(special ? { special } : {}),
    mode: Number(s.mode),
    size: Number(s.size),
    ino: Number(s.ino),
    mtimeMs: Number(s.mtimeMs),
    ctimeMs: Number(s.ctimeMs),
    uid: Number(s.uid),
    gid: Number(s.gid),
    dev: Number(s.dev),
    ...(s.nlink !== undefined ? { nlink: Number(s.nlink) } : {}),
  });
}

export function makeStat(
  type: FsStat['type'],
  fields: Partial<Omit<FsStat, 'type' | 'isFile' | 'isDirectory' | 'isSymbolicLink'>>,
): FsStat {
  const defaultMode = type === 'dir' ? 0o40755 : type === 'symlink' ? 0o120000 : 0o100644;
  // One object and no closures of its own: a rescan makes one per file of the tree.
  const kind = KINDS[type];
  const stat: FsStat = {
    type,
    mode: fields.mode ?? defaultMode,
    size: fields.size ?? 0,
    ino: fields.ino ?? 0,
    mtimeMs: fields.mtimeMs ?? 0,
    ctimeMs: fields.ctimeMs ?? fields.mtimeMs ?? 0,
    uid: fields.uid ?? 1,
    gid: fields.gid ?? 1,
    dev: fields.dev ?? 1,
    isFile: kind.isFile,
    isDirectory: kind.isDirectory,
    isSymbolicLink: kind.isSymbolicLink,
  };
  if (fields.nlink !== undefined) stat.nlink = fields.nlink;
  if (fields.special !== undefined) stat.special = fields.special;
  return stat;
}

const yes = () => true;
const no = () => false;
/** The answers of each kind, shared by every stat of that kind (and right when called detached). */
const KINDS = {
  file: { isFile: yes, isDirectory: no, isSymbolicLink: no },
  dir: { isFile: no, isDirectory: yes, isSymbolicLink: no },
  symlink: { isFile: no, isDirectory: no, isSymbolicLink: yes },
} as const;

const S_IFMT = 0o170000;

/**
 * toFsStat for Node's own Stats (numbers, POSIX mode bits): the kind read from the mode once
 * instead of through seven method calls, for a walk that stats every file of a tree.
 */
export function fromNodeStats(s: {
  mode: number;
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  uid: number;
  gid: number;
  dev: number;
  nlink: number;
}): FsStat {
  const format = s.mode & S_IFMT;
  const type = format === 0o120000 ? 'symlink' : format === 0o040000 ? 'dir' : 'file';
  const kind = KINDS[type];
  const stat: FsStat = {
    type,
    mode: s.mode,
    size: s.size,
    ino: s.ino,
    mtimeMs: s.mtimeMs,
    ctimeMs: s.ctimeMs,
    uid: s.uid,
    gid: s.gid,
    dev: s.dev,
    nlink: s.nlink,
    isFile: kind.isFile,
    isDirectory: kind.isDirectory,
    isSymbolicLink: kind.isSymbolicLink,
  };
  const special = format === 0o100000 || type !== 'file' ? undefined : specialOfFormat(format);
  if (special) stat.special = special;
  return stat;
}

function specialOfFormat(format: number): FsStat['special'] {
  switch (format) {
    case 0o010000:
      return 'fifo';
    case 0o140000:
      return 'socket';
    case 0o060000:
      return 'block_device';
    case 0o020000:
      return 'char_device';
    default:
      return undefined;
  }
}
