import { FsError } from './errors.js';

/** What a special file is: not a file, folder or link, and never read as one. */
export type SpecialKind = 'fifo' | 'socket' | 'block_device' | 'char_device';

/** The kind of a Node-like stat that is a special file, or undefined for files, folders and links. */
export function specialKindOf(s: {
  isFIFO?(): boolean;
  isSocket?(): boolean;
  isBlockDevice?(): boolean;
  isCharacterDevice?(): boolean;
}): SpecialKind | undefined {
  if (s.isFIFO?.()) return 'fifo';
  if (s.isSocket?.()) return 'socket';
  if (s.isBlockDevice?.()) return 'block_device';
  if (s.isCharacterDevice?.()) return 'char_device';
  return undefined;
}

/** Words for a model: what the special file is. */
export function describeSpecial(kind: SpecialKind): string {
  switch (kind) {
    case 'fifo':
      return 'a FIFO (named pipe)';
    case 'socket':
      return 'a unix socket';
    case 'block_device':
      return 'a block device';
    case 'char_device':
      return 'a character device';
  }
}

/**
 * A read refused because the path is a special file: reading a FIFO would wait for a writer, a
 * socket cannot be opened, a device may never end. The code stays a Node one (EINVAL); `special`
 * says which kind, and toToolError turns it into UNSUPPORTED_FILE_TYPE.
 */
export class SpecialFileError extends FsError {
  /** what the path turned out to be */
  readonly special: SpecialKind;
  constructor(kind: SpecialKind, operation: string) {
    super('EINVAL', operation);
    this.special = kind;
  }
}
