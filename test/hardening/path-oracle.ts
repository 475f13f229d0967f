import type { WorkspaceFs } from '../../src/index.js';

/**
 * What DESIGN.md says should happen to a path, worked out here independently of src/workspace/paths.ts
 * (a second reading of the rules, so the two can disagree):
 * - `lexical`: refused before storage is touched (NUL, URL, drive, UNC, host-absolute, %-escapes, `~`, climbing out);
 * - `reserved`: Sandpit's own `.sandpit` folder;
 * - `link-out`: resolution passes through a link (before the final component) that leads outside, or loops;
 * - `link-out-after-link`: the same, but an in-root link comes first (a write stops there);
 * - `final-link-out`: only the final component is a link out (a tool acting on the link itself may succeed);
 * - `inside`: a workspace path; any outcome on the closed list is fine.
 */
export type PathClass = 'lexical' | 'reserved' | 'link-out' | 'link-out-after-link' | 'final-link-out' | 'inside';

export function lexicallyOutside(input: string): boolean {
  if (input.includes('\0')) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input) || /^(file|data|blob|javascript):/i.test(input) || /^[a-z]:/i.test(input))
    return true;
  if (/%(2e|2f|5c|00)/i.test(input)) return true;
  const p = input.replace(/\\/g, '/');
  return p.startsWith('/') || p === '~' || p.startsWith('~/');
}

/** Root-relative components, or null when the path climbs above the root. */
export function normalise(p: string, cwd: string): string[] | null {
  const parts = p.split('/').filter((x) => x !== '');
  const fromCwd = p === '.' || p.startsWith('./') || parts.length <= 1;
  const out = fromCwd && cwd ? cwd.split('/') : [];
  for (const part of parts) {
    if (part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out;
}

export async function classify(input: string, cwd: string, fs: WorkspaceFs, root: string): Promise<PathClass> {
  if (lexicallyOutside(input)) return 'lexical';
  const p = input.replace(/\\/g, '/');
  const parts = normalise(p, cwd);
  if (parts === null) return 'lexical';
  if (parts[0] === '.sandpit') return 'reserved';
  let pending = parts;
  let real: string[] = [];
  let sawInRootLink = false;
  let hops = 0;
  for (let i = 0; i < pending.length; i++) {
    const here = [...real, pending[i]!];
    const abs = `${root}/${here.join('/')}`;
    const st = await fs.lstat(abs).catch(() => null);
    if (!st) return 'inside';
    const isLast = i === pending.length - 1;
    if (st.type === 'symlink') {
      const target = await fs.readlink(abs);
      const targetAbs = target.startsWith('/') ? target : `${abs.slice(0, abs.lastIndexOf('/'))}/${target}`;
      const rel = relUnder(targetAbs, root);
      if (rel === null) return isLast ? 'final-link-out' : sawInRootLink ? 'link-out-after-link' : 'link-out';
      if (rel[0] === '.sandpit') return 'reserved';
      if (++hops > 40) return isLast ? 'final-link-out' : 'link-out-after-link';
      sawInRootLink = true;
      pending = [...rel, ...pending.slice(i + 1)];
      real = [];
      i = -1;
      continue;
    }
    real = here;
    if (!isLast && st.type !== 'dir') return 'inside';
  }
  return 'inside';
}

function relUnder(abs: string, root: string): string[] | null {
  const out: string[] = [];
  for (const part of abs.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  const rootParts = root.split('/').filter((x) => x !== '');
  if (out.length < rootParts.length || rootParts.some((r, i) => out[i] !== r)) return null;
  return out.slice(rootParts.length);
}

/** Codes a refusal may carry for a path of this class, or null when any closed-list outcome is fine. */
export function expectedCodes(cls: PathClass): string[] | null {
  switch (cls) {
    case 'lexical':
    case 'link-out':
      return ['OUTSIDE_WORKSPACE'];
    case 'link-out-after-link':
      return ['OUTSIDE_WORKSPACE', 'PERMISSION_DENIED'];
    case 'reserved':
      return ['PERMISSION_DENIED'];
    default:
      return null;
  }
}
