import ignore, { type Ignore } from 'ignore';
import type { FsStat } from '../../../fs/types.js';
import { objectId } from '../../../snapshots/sha1.js';
import type { IndexEntry } from './index-file.js';
import { rememberSeen, seenUnchanged } from './stat-cache.js';
import type { GitFile, Repo } from './repo.js';

/** A tracked file whose working copy differs from the index: its new content, or null when it is gone. */
export interface WorkChange {
  path: string;
  now: (GitFile & { data: Uint8Array }) | null;
}

/**
 * Whether a file's stat says it is what the index recorded, by git's rule: the same size, mode
 * and modification time (to the millisecond where the index kept nanoseconds, else to the second),
 * and modified before the index was written; a file changed in the index's own instant is
 * "racily clean" and must be read.
 */
function statMatches(entry: IndexEntry, s: FsStat, mode: string, indexMs: number): boolean {
  if (s.size !== entry.size || mode !== entry.mode) return false;
  const fileMs = Math.floor(s.mtimeMs);
  if (entry.mtimeNsec === 0) {
    const sec = Math.floor(fileMs / 1000);
    return sec === entry.mtimeSec && sec < Math.floor(indexMs / 1000);
  }
  return fileMs === entry.mtimeSec * 1000 + Math.floor(entry.mtimeNsec / 1e6) && fileMs < Math.floor(indexMs);
}

/**
 * The tracked files whose working copy differs from what the index holds. A file whose stat
 * matches the index's record is taken as unchanged, as git does; any other is hashed and
 * compared, and remembered by their stat for the next command (./stat-cache.ts).
 */
/**
 * Folder listings with each entry's lstat (`ShellFs.folderStats`), by the folder's shell path,
 * shared by one command's passes: status lists every folder for the tracked files' stats and again
 * for untracked files, and the second listing was a tenth of a status at 10,000 files.
 */
export type FolderListings = Map<string, Promise<Map<string, FsStat> | null>>;

export async function workChanges(
  repo: Repo,
  index: Map<string, IndexEntry>,
  wanted: (path: string) => boolean = () => true,
  folders: FolderListings = new Map(),
): Promise<WorkChange[]> {
  const out: WorkChange[] = [];
  const top = repo.dir === '/' ? '' : repo.dir;
  const sfs = repo.ctx.shell.state.fs;
  const indexMs = (await sfs.fullStat(`${repo.gitdir}/index`))?.mtimeMs ?? 0;
  const [modes, links] = [sfs.keepsModes, sfs.keepsLinks];
  // where the backend keeps no executable bit (git's core.filemode=false) or makes no links
  // (core.symlinks=false), the mode the index records stands
  const seen = (actual: string, staged: string) =>
    (!modes && actual !== '120000' && staged !== '120000') || (!links && staged === '120000' && actual !== '120000')
      ? staged
      : actual;
  // One listing per folder where the backend offers it: a confined lookup per file was most of a
  // status on a node folder. A name the listing lacks is asked again alone (gone, or a failure).
  const statOf = async (full: string): Promise<FsStat | null> => {
    const cut = full.lastIndexOf('/');
    const dir = cut <= 0 ? '/' : full.slice(0, cut);
    let listed = folders.get(dir);
    if (!listed) folders.set(dir, (listed = sfs.folderStats(dir)));
    return (await listed)?.get(full.slice(cut + 1)) ?? sfs.fullStat(full).catch(() => null);
  };
  for (const [path, entry] of index) {
    if (!wanted(path) || entry.skipWorktree) continue;
    repo.ctx.shell.checkTime();
    const s = await statOf(`${top}/${path}`);
    if (!s || s.type === 'dir') {
      out.push({ path, now: null });
      continue;
    }
    const mode = seen(s.type === 'symlink' ? '120000' : s.mode & 0o111 ? '100755' : '100644', entry.mode);
    const abs = sfs.backendPath(`${top}/${path}`);
    if (statMatches(entry, s, mode, indexMs) || seenUnchanged(sfs.backend, abs, s, mode, entry.oid)) continue;
    const file = await repo.workFile(path);
    if (!file) {
      out.push({ path, now: null });
      continue;
    }
    const oid = objectId('blob', file.data);
    const now = seen(file.mode, entry.mode);
    if (oid !== entry.oid || now !== entry.mode) out.push({ path, now: { oid, mode: now, data: file.data } });
    else rememberSeen(sfs.backend, abs, s, mode, oid);
  }
  return out;
}

/**
 * The untracked files, with a folder holding no tracked file shown once as `folder/` (git's
 * default), skipping what `.gitignore` files and `.git/info/exclude` name.
 */
export async function untracked(
  repo: Repo,
  index: Map<string, unknown>,
  collapse = true,
  honourIgnores = true,
  folders: FolderListings = new Map(),
): Promise<string[]> {
  const dirs = new Set<string>();
  for (const path of index.keys()) {
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) dirs.add(path.slice(0, i));
  }
  const sfs = repo.ctx.shell.state.fs;
  const top = repo.dir === '/' ? '' : repo.dir;
  const rules: Array<{ base: string; ig: Ignore }> = [];
  const exclude = await repo.readText('info/exclude').catch(() => '');
  if (exclude) rules.push({ base: '', ig: ignore().add(exclude) });
  const ignored = (path: string, dir: boolean) =>
    honourIgnores &&
    rules.some(({ base, ig }) => {
      if (base && !path.startsWith(`${base}/`)) return false;
      const rel = base ? path.slice(base.length + 1) : path;
      return ig.ignores(dir ? `${rel}/` : rel);
    });
  const out: string[] = [];
  const anyFile = async (rel: string): Promise<boolean> => {
    for (const name of await sfs.readdir(`${top}/${rel}`)) {
      const path = `${rel}/${name}`;
      const s = await sfs.fullStat(`${top}/${path}`);
      if (!s) continue;
      if (s.type === 'dir' ? !ignored(path, true) && (await anyFile(path)) : !ignored(path, false)) return true;
    }
    return false;
  };
  const walk = async (rel: string): Promise<void> => {
    repo.ctx.shell.checkTime();
    const dir = rel ? `${top}/${rel}` : top || '/';
    // a folder the tracked files' pass listed is not listed again (what it could not stat is gone)
    const listed = await folders.get(dir);
    const names = listed ? [...listed.keys()] : await sfs.readdir(dir);
    const pushed = names.includes('.gitignore');
    if (pushed) {
      const text = new TextDecoder().decode(await sfs.readFile(`${top}/${rel ? `${rel}/` : ''}.gitignore`));
      rules.push({ base: rel, ig: ignore().add(text) });
    }
    for (const name of names) {
      const path = rel ? `${rel}/${name}` : name;
      if (!rel && name === '.git') continue;
      if (index.has(path)) continue;
      if (dirs.has(path)) {
        if (!ignored(path, true)) await walk(path);
        continue;
      }
      const s = listed?.get(name) ?? (await sfs.fullStat(`${top}/${path}`));
      if (!s) continue;
      if (s.type === 'dir') {
        if (ignored(path, true)) continue;
        if ((await sfs.fullStat(`${top}/${path}/.git`))?.type === 'dir') out.push(`${path}/`);
        else if (collapse) {
          if (await anyFile(path)) out.push(`${path}/`);
        } else await walk(path);
      } else if (!ignored(path, false)) out.push(path);
    }
    if (pushed) rules.pop();
  };
  await walk('');
  return out.sort();
}
