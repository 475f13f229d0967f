import { hasFsCode } from '../fs/errors.js';
import { lstatOrNull } from '../fs/helpers.js';
import type { FsStat, WorkspaceFs } from '../fs/types.js';
import { PASSAGES, ToolError } from '../contract/index.js';

/** Top-level names the tools never see (the shadow snapshot repository lives there). */
export const RESERVED_TOP_LEVEL = ['.sandpit'];

const MAX_LINK_HOPS = 40;

/**
 * How a path is resolved.
 * - `read`: follow symbolic links that stay inside the root.
 * - `entry`: follow none; the final component may itself be a link (delete or move the link).
 * - `write`: follow none, and refuse a link anywhere: writes never go through a link.
 */
export type ResolveMode = 'read' | 'entry' | 'write';

/** A tool path resolved inside the workspace. */
export interface WorkspacePath {
  /** Canonical root-relative path as the caller named it ('' is the root). */
  rel: string;
  /** The same after following in-root links; equal to `rel` when none was followed. */
  realRel: string;
  /** The backend path of `realRel`. */
  abs: string;
  /** lstat of the final entry reached, or null when it does not exist. */
  stat: FsStat | null;
}

export function displayPath(rel: string): string {
  return rel === '' ? '.' : rel;
}

function outside(input: string, why: string, hint?: string): ToolError {
  return new ToolError('OUTSIDE_WORKSPACE', `'${printable(input)}' is outside the workspace: ${why}`, {
    hint: hint ?? 'Use a path relative to the workspace root, such as src/index.ts.',
  });
}

function printable(input: string): string {
  const shown = input.replace(/\0/g, '\\0');
  return shown.length > 200 ? `${shown.slice(0, 200)}...` : shown;
}

/**
 * Names made of word characters, dots and dashes, not starting with a dot, joined by single
 * slashes: already canonical (no `.`, `..`, empty part, scheme, drive, escape or reserved name),
 * so the checks below would change nothing. Most paths a model sends look like this.
 */
const PLAIN_PATH = /^[\w-][\w.-]*(?:\/[\w-][\w.-]*)*$/;
const RESERVED_ARE_DOTTED = RESERVED_TOP_LEVEL.every((name) => name.startsWith('.'));

/**
 * Resolve a tool path to canonical root-relative components, without touching storage.
 * A bare name, `.` and `./x` start in `cwd`; any other multi-part path starts at the root.
 */
export function lexicalPath(input: string, cwd: string): string {
  if (RESERVED_ARE_DOTTED && PLAIN_PATH.test(input))
    return cwd !== '' && !input.includes('/') ? `${cwd}/${input}` : input;
  if (input.includes('\0')) throw outside(input, 'it contains a NUL byte');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input) || /^(file|data|blob|javascript):/i.test(input)) {
    throw outside(input, 'URLs are not workspace paths');
  }
  if (/^[a-z]:/i.test(input)) throw outside(input, 'Windows drive paths are host paths');
  if (/%(2e|2f|5c|00)/i.test(input))
    throw outside(
      input,
      'percent-encoded dots and separators are not decoded',
      'Write the path plainly, without %-escapes.',
    );
  const path = input.replace(/\\/g, '/');
  if (path.startsWith('//')) throw outside(input, 'UNC and network paths are host paths');
  if (path.startsWith('/')) {
    throw outside(
      input,
      'absolute host paths are not accepted',
      `Paths are relative to the workspace root: try '${path.replace(/^\/+/, '') || '.'}'.`,
    );
  }
  if (path === '~' || path.startsWith('~/')) throw outside(input, "'~' is a host home folder");
  const parts = path.split('/').filter((p) => p !== '');
  const fromCwd = path === '.' || path.startsWith('./') || parts.length <= 1;
  const out = fromCwd && cwd !== '' ? cwd.split('/') : [];
  for (const part of parts) {
    if (part === '.') continue;
    if (part === '..') {
      if (out.length === 0) throw outside(input, 'it climbs above the workspace root');
      out.pop();
    } else {
      out.push(part);
    }
  }
  const rel = out.join('/');
  if (out.length > 0 && RESERVED_TOP_LEVEL.includes(out[0]!)) {
    throw new ToolError('PERMISSION_DENIED', `'${rel}' is reserved for Sandpit's own snapshot data`, {
      hint: PASSAGES.snapshotData,
    });
  }
  return rel;
}

/** Maps workspace paths to backend paths and resolves links inside the root. */
export class PathResolver {
  /** the backend folder that is the workspace root ('' for `/`) */
  readonly root: string;

  constructor(
    private readonly fs: WorkspaceFs,
    root: string,
  ) {
    this.root = root === '/' ? '' : root.replace(/\/+$/, '');
  }

  /** The backend path of a root-relative path. */
  toAbs(rel: string): string {
    return rel === '' ? this.root || '/' : `${this.root}/${rel}`;
  }

  /** Root-relative form of a backend path, or null when it lies outside the root. */
  toRel(abs: string): string | null {
    const norm = normalizeAbsolute(abs);
    if (this.root === '') return norm.slice(1);
    if (norm === this.root) return '';
    return norm.startsWith(`${this.root}/`) ? norm.slice(this.root.length + 1) : null;
  }

  /** Where a link points, root-relative, or null when it points outside. */
  private async linkTargetRel(abs: string): Promise<string | null> {
    const target = await this.fs.readlink(abs);
    return this.toRel(
      target.startsWith('/') ? normalizeAbsolute(target) : normalizeAbsolute(`${parentOf(abs)}/${target}`),
    );
  }

  /** Resolve a tool path from `cwd`, refusing anything outside the root (OUTSIDE_WORKSPACE); `mode` says which links are followed. */
  async resolve(input: string, cwd: string, mode: ResolveMode): Promise<WorkspacePath> {
    const rel = lexicalPath(input, cwd);
    return this.resolveRel(rel, mode, input);
  }

  /** Walk a canonical path component by component, checking every link against the root. */
  async resolveRel(rel: string, mode: ResolveMode, input: string = rel): Promise<WorkspacePath> {
    let pending = rel === '' ? [] : rel.split('/');
    let real: string[] = [];
    let stat: FsStat | null = null;
    let hops = 0;
    if (pending.length === 0) {
      stat = await lstatOrNull(this.fs, this.toAbs(''));
    }
    for (let i = 0; i < pending.length; i++) {
      // grown in place, not copied per component: a copy per level made a deep path cost its depth squared
      real.push(pending[i]!);
      const abs = this.toAbs(real.join('/'));
      const isLast = i === pending.length - 1;
      let entry: FsStat;
      try {
        entry = await this.fs.lstat(abs);
      } catch (error) {
        if (!hasFsCode(error, 'ENOENT', 'ENOTDIR')) throw error;
        real = [...real, ...pending.slice(i + 1)];
        stat = null;
        break;
      }
      if (entry.type === 'symlink' && !(isLast && mode === 'entry')) {
        const target = await this.fs.readlink(abs);
        const targetAbs = target.startsWith('/')
          ? normalizeAbsolute(target)
          : normalizeAbsolute(`${parentOf(abs)}/${target}`);
        const targetRel = this.toRel(targetAbs);
        const linkName = real.join('/');
        if (targetRel === null)
          throw outside(input, `'${linkName}' is a symbolic link that points outside the workspace`);
        if (mode !== 'read') {
          throw new ToolError(
            'PERMISSION_DENIED',
            `'${displayPath(rel)}' goes through the symbolic link '${linkName}'; writes never follow links`,
            {
              hint: `Use the real path instead: '${[targetRel, ...pending.slice(i + 1)].filter(Boolean).join('/') || '.'}'.`,
            },
          );
        }
        if (++hops > MAX_LINK_HOPS) throw outside(input, 'it goes through too many symbolic links');
        pending = [...(targetRel === '' ? [] : targetRel.split('/')), ...pending.slice(i + 1)];
        real = [];
        i = -1;
        if (pending.length === 0) stat = await this.fs.lstat(this.toAbs(''));
        continue;
      }
      if (entry.type === 'symlink' && isReserved(await this.linkTargetRel(abs))) {
        throw new ToolError('PERMISSION_DENIED', `'${displayPath(rel)}' is a link to Sandpit's own snapshot data`);
      }
      stat = entry;
      if (!isLast && entry.type !== 'dir') {
        real = [...real, ...pending.slice(i + 1)];
        stat = null;
        break;
      }
    }
    if (real.length > 0 && RESERVED_TOP_LEVEL.includes(real[0]!)) {
      throw new ToolError('PERMISSION_DENIED', `'${displayPath(rel)}' leads into Sandpit's own snapshot data`);
    }
    const realRel = real.join('/');
    return { rel, realRel, abs: this.toAbs(realRel), stat };
  }
}

function isReserved(rel: string | null): boolean {
  return rel !== null && rel !== '' && RESERVED_TOP_LEVEL.includes(rel.split('/')[0]!);
}

export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

export function parentOf(abs: string): string {
  const i = abs.lastIndexOf('/');
  return i <= 0 ? '/' : abs.slice(0, i);
}

export function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

export function parentRel(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i === -1 ? '' : rel.slice(0, i);
}

export function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}
