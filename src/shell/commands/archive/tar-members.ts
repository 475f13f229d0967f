import { FsError } from '../../../fs/errors.js';
import type { TarEntry } from '../../../archive/tar-read.js';
import type { TarMember } from '../../../archive/tar-write.js';
import { decodeLossy } from '../../bytes.js';
import { errorText, type CommandContext } from '../../context.js';
import { globPattern } from '../../glob.js';
import { shellPath, type ShellFs } from '../../overlay.js';
import { confinedTarget } from '../files/ln.js';

/** What one `tar` command line asks for, read from its options. */
export interface TarJob {
  mode: '' | 'c' | 'x' | 't';
  /** the archive as written (`-` for stdin or stdout) */
  archive: string;
  gzip: boolean;
  /** how many `v`s: 1 lists names, 2 the long lines (`t` lists long lines with one) */
  verbose: number;
  toStdout: boolean;
  strip: number;
  exclude: string[];
  /** the folder of the last `-C` (the shell's folder when none), absolute */
  dir: string;
  /** the last `-C` as written, for its error */
  dirShown?: string;
  /** the member names given, each with the folder `-C` had made current before it */
  members: Array<{ name: string; dir: string }>;
}

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);
const TYPE_LETTER: Record<string, string> = { file: '-', dir: 'd', symlink: 'l', hardlink: 'h', other: '-' };

type Listed = Pick<
  TarEntry,
  'name' | 'kind' | 'mode' | 'uid' | 'gid' | 'uname' | 'gname' | 'size' | 'mtime' | 'linkname'
>;

/**
 * GNU tar's long listing (`tv`, `cvv`, `xvv`): mode, owner/group and size in a column that starts
 * 19 wide and only grows, the time in minutes (the shell's clock is UTC), the name, a link's target.
 */
export function lister(print: (text: string) => void): (e: Listed) => void {
  let width = 19;
  return (e) => {
    const bits = 'rwxrwxrwx'.replace(/./g, (c, k: number) => (e.mode & (0o400 >> k) ? c : '-'));
    const user = e.uname || String(e.uid);
    const group = e.gname || String(e.gid);
    const size = String(e.kind === 'file' ? e.size : 0);
    const pad = user.length + group.length + size.length + 2;
    if (pad > width) width = pad;
    const iso = new Date(e.mtime * 1000).toISOString();
    const link = e.kind === 'symlink' ? ` -> ${e.linkname}` : e.kind === 'hardlink' ? ` link to ${e.linkname}` : '';
    const when = `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
    print(
      `${TYPE_LETTER[e.kind]}${bits} ${user}/${group} ${size.padStart(width - pad + size.length)} ${when} ${e.name}${link}\n`,
    );
  };
}

/** GNU's `--exclude`: the pattern against the whole name or any run of its components, `*` crossing `/`. */
function excluded(patterns: string[], name: string): boolean {
  if (patterns.length === 0) return false;
  const parts = name.replace(/\/+$/, '').split('/');
  return patterns.some((p) => {
    const re = globPattern(p.replace(/\/+$/, ''));
    for (let i = 0; i < parts.length; i++)
      for (let j = i + 1; j <= parts.length; j++) if (re.test(parts.slice(i, j).join('/'))) return true;
    return false;
  });
}

/** Tell once, as GNU does, that a leading `/` or `../` is dropped from member names. */
function leadingDropper(ctx: CommandContext) {
  const said = new Set<string>();
  return (name: string): string => {
    const lead = /^(?:\/+|(?:\.\.\/+)+)+/.exec(name)?.[0];
    if (!lead) return name;
    const shown = lead.replace(/\/+/g, '/');
    if (!said.has(shown)) {
      said.add(shown);
      ctx.err(`tar: Removing leading \`${shown}' from member names\n`);
    }
    return name.slice(lead.length);
  };
}

/** The members to archive, walked from each name (folders in sorted order); `failed` when a name could not be read. */
export async function collectMembers(
  ctx: CommandContext,
  job: TarJob,
  archivePath: string | null,
): Promise<{ members: TarMember[]; failed: boolean }> {
  const fs = ctx.shell.state.fs;
  const user = ctx.env.get('USER') ?? 'user';
  // the listing goes to stderr when the archive itself goes to stdout
  const say = job.archive === '-' ? ctx.err : ctx.out;
  const list = job.verbose >= 2 ? lister(say) : null;
  const drop = leadingDropper(ctx);
  const members: TarMember[] = [];
  let failed = false;
  const push = (m: TarMember) => {
    members.push(m);
    if (list) list({ ...m, size: m.data?.length ?? 0, linkname: m.linkname ?? '' });
    else if (job.verbose === 1) say(`${m.name}\n`);
  };
  const visit = async (abs: string, name: string): Promise<void> => {
    ctx.shell.checkTime();
    if (excluded(job.exclude, name)) return;
    if (abs === archivePath) {
      // through gzip GNU tar cannot tell the archive from another file, and meets it still empty
      if (!job.gzip) ctx.err(`tar: ${name}: file is the archive; not dumped\n`);
      return;
    }
    let st: Awaited<ReturnType<ShellFs['lstat']>>;
    try {
      st = await fs.lstat(abs);
      if (!st) throw new FsError('ENOENT', 'stat');
    } catch (error) {
      ctx.err(`tar: ${name}: Cannot stat: ${errorText(error)}\n`);
      failed = true;
      return;
    }
    const base = { mtime: Math.floor(st.mtimeMs / 1000), uid: 1000, gid: 1000, uname: user, gname: user };
    if (st.type === 'dir') {
      const dirName = name === '' || name.endsWith('/') ? name : `${name}/`;
      if (dirName) push({ ...base, name: dirName, kind: 'dir', mode: 0o755 });
      for (const child of await fs.readdir(abs)) await visit(join(abs, child), dirName + child);
    } else if (st.type === 'symlink') push({ ...base, name, kind: 'symlink', mode: 0o777, linkname: st.target ?? '' });
    else push({ ...base, name, kind: 'file', mode: st.executable ? 0o755 : 0o644, data: await fs.readFile(abs) });
  };
  for (const m of job.members) {
    const written = m.name.length > 1 ? m.name.replace(/\/+$/, '') : m.name;
    await visit(shellPath(m.dir, m.name), drop(written));
  }
  return { members, failed };
}

/** Make the folders above `abs` that are missing, as GNU tar does for a member whose folder it has not seen. */
async function ensureParents(fs: ShellFs, abs: string): Promise<void> {
  const parts = abs.split('/').filter(Boolean);
  let sofar = '';
  for (const part of parts.slice(0, -1)) {
    sofar += `/${part}`;
    const st = await fs.stat(sofar);
    if (!st) await fs.mkdir(sofar);
    else if (st.type !== 'dir') throw new FsError('ENOTDIR', 'mkdir');
  }
}

/** A member's name without its first `strip` components; null when nothing is left. */
function stripped(name: string, strip: number): string | null {
  if (strip === 0) return name;
  const parts = name.split('/');
  while (parts.length && parts[0] === '') parts.shift();
  const rest = parts.slice(strip).join('/');
  return rest === '' ? null : rest;
}

/** List (`t`) or extract (`x`) the members asked for; true when any could not be, or a name given was not found. */
export async function extractEntries(ctx: CommandContext, job: TarJob, entries: TarEntry[]): Promise<boolean> {
  const list = job.verbose >= (job.mode === 't' ? 1 : 2) ? lister(ctx.out) : null;
  const wanted = job.members.map((m) => ({ name: m.name.replace(/\/+$/, ''), found: false }));
  const drop = leadingDropper(ctx);
  const files = new Map<string, Uint8Array>();
  let failed = false;
  for (const e of entries) {
    ctx.shell.checkTime();
    if (wanted.length) {
      const bare = e.name.replace(/\/+$/, '');
      const hits = wanted.filter((w) => bare === w.name || bare.startsWith(`${w.name}/`));
      if (hits.length === 0) continue;
      for (const w of hits) w.found = true;
    }
    if (excluded(job.exclude, e.name)) continue;
    if (e.kind === 'file') files.set(e.name, e.data);
    const data = e.kind === 'hardlink' ? files.get(e.linkname) : e.data;
    if (job.mode === 't') {
      if (list) list(e);
      else ctx.out(`${e.name}\n`);
      continue;
    }
    const name = stripped(e.name, job.strip);
    if (name === null) continue;
    if (list) list(e);
    else if (job.verbose === 1) ctx.out(`${e.name}\n`);
    if (job.toStdout) {
      if (data && (e.kind === 'file' || e.kind === 'hardlink')) ctx.out(decodeLossy(data));
      continue;
    }
    const rel = drop(name);
    if (rel.split('/').includes('..')) {
      ctx.err(`tar: ${e.name}: Member name contains '..'\n`);
      failed = true;
      continue;
    }
    const abs = shellPath(job.dir, rel);
    if (!(await extractOne(ctx, e, abs, rel, data))) failed = true;
  }
  for (const w of wanted.filter((x) => !x.found)) {
    ctx.err(`tar: ${w.name}: Not found in archive\n`);
    failed = true;
  }
  return failed;
}

/** Write one member at `abs`; false (after saying why) when it could not be. */
async function extractOne(
  ctx: CommandContext,
  e: TarEntry,
  abs: string,
  rel: string,
  data: Uint8Array | undefined,
): Promise<boolean> {
  const fs = ctx.shell.state.fs;
  let action = 'Cannot open';
  try {
    if (abs === '/' || rel === '' || rel === '.') return true;
    await ensureParents(fs, abs);
    const there = await fs.lstat(abs);
    if (e.kind === 'dir') {
      action = 'Cannot mkdir';
      if (there?.type === 'dir') return true;
      if (there) await fs.remove(abs);
      await fs.mkdir(abs);
      return true;
    }
    if (e.kind === 'file' || (e.kind === 'hardlink' && data)) {
      if (there?.type === 'dir') throw new FsError('EISDIR', 'open');
      if (there?.type === 'symlink') await fs.remove(abs);
      await fs.writeFile(abs, data!.slice(), undefined, (e.mode & 0o100) !== 0);
      return true;
    }
    if (e.kind === 'symlink') {
      action = `Cannot create symlink to '${e.linkname}'`;
      const stored = confinedTarget(e.linkname, abs);
      if (stored === null) {
        ctx.err(`tar: ${rel}: ${action}: it leads outside the workspace\n`);
        return false;
      }
      if (there?.type === 'dir') throw new FsError('EISDIR', 'symlink');
      await fs.symlink(stored, abs, true);
      return true;
    }
    ctx.err(
      e.kind === 'hardlink'
        ? `tar: ${rel}: Cannot hard link to '${e.linkname}': No such file or directory\n`
        : `tar: ${rel}: Cannot extract: this shell makes only files, folders and links\n`,
    );
    return false;
  } catch (error) {
    ctx.err(`tar: ${rel}: ${action}: ${errorText(error)}\n`);
    return false;
  }
}
