import { hasFsCode } from '../fs/errors.js';

/**
 * A file a snapshot left out: over the size cap, a path the backend cannot reach (a name too
 * long, no permission), a file with more than one hard link (its other name may be outside), or
 * a special file (FIFO, socket, device).
 */
export interface SkippedFile {
  /** the file's root-relative path */
  path: string;
  /** its size */
  size_bytes: number;
  /** why it was left out of the snapshot; `excluded` is a folder no one versions (node_modules, a build or cache folder) */
  reason: 'too_large' | 'unreadable' | 'hard_linked' | 'special_file' | 'excluded';
  /** for an unreadable path: what the backend said, e.g. ENAMETOOLONG; for a special file: which kind (fifo, socket, ...) */
  why?: string;
}

/** Errors that mean "this path cannot be read here", not "the snapshot failed". */
const UNREADABLE = ['ENAMETOOLONG', 'EACCES', 'EPERM', 'ELOOP'] as const;

export function unreadable(rel: string, error: unknown): SkippedFile | null {
  const code = UNREADABLE.find((c) => hasFsCode(error, c));
  return code ? { path: rel, size_bytes: 0, reason: 'unreadable', why: code } : null;
}

/** A skipped file as the commit trailer and the model see it. */
export function describeSkipped(s: SkippedFile): string {
  if (s.reason === 'unreadable') return `${s.path} (unreadable: ${s.why})`;
  if (s.reason === 'special_file') return `${s.path} (special file: ${s.why})`;
  if (s.reason === 'excluded') return `${s.path}/ (not versioned: dependencies, build output or cache)`;
  return s.reason === 'hard_linked' ? `${s.path} (hard-linked)` : `${s.path} (${s.size_bytes} bytes)`;
}
