import { compileGitignore } from '../../../search/gitignore.js';
import { isIgnored, type IgnoreRules } from '../../../search/ignore.js';
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
 * Folder listings with each entry's lstat (`ShellFs.folderStats`), by the folder's shell path,
 * shared by one command's passes: status lists every folder for the tracked files' stats and again
 * for untracked files, and the second listing was a tenth of a status at 10,000 files. `tracked`
 * counts, per folder, the tracked files the first pass found in its listing: a folder whose
 * listing holds nothing else but tracked folders has no untracked name to look for.
 */
export type FolderListings = Map<string, Promise<Map<string, FsStat> | null>> & { tracked?: Map<string, number> };

/**
 * The tracked files whose working copy differs from what the index holds. A file whose stat
 * matches the index's record is taken as unchanged, as git does; any other is hashed and
 * compared, and remembered by their stat for the next command (./stat-cache.ts).
 */
export async function workChanges(
  repo: Repo,
  index: ReadonlyMap<string, IndexEntry>,
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
  const tracked = new Map<string, number>();
  folders.tracked = tracked;
  // One listing per folder where the backend offers it: a confined lookup per file was most of a
  // status on a node folder. The index is sorted, so a folder's files come together: its listing
  // is looked up and awaited once per run of them, not per file. A name the listing lacks is asked
  // again alone (gone, or a failure).
  let dir = '';
  let cut = -1;
  let full = '';
  let listed: Map<string, FsStat> | null = null;
  let hits = 0;
  // a folder's files can come in more than one run (`a/b`, `a/c/d`, `a/e`): its count adds up
  const count = () => listed && tracked.set(full, (tracked.get(full) ?? 0) + hits);
  for (const [path, entry] of index) {
    if (!wanted(path) || entry.skipWorktree) continue;
    const at = path.lastIndexOf('/');
    if (at !== cut || !path.startsWith(dir)) {
      count();
      repo.ctx.shell.checkTime();
      cut = at;
      dir = path.slice(0, at + 1);
      full = dir === '' ? top || '/' : `${top}/${path.slice(0, at)}`;
      let listing = folders.get(full);
      if (!listing) folders.set(full, (listing = sfs.folderStats(full)));
      listed = await listing;
      hits = 0;
    }
    const found = listed?.get(at < 0 ? path : path.slice(at + 1));
    if (found) hits++;
    const s = found ?? (await sfs.fullStat(`${top}/${path}`).catch(() => null));
    if (!s || s.type === 'dir') {
      out.push({ path, now: null });
      continue;
    }
    const mode = seen(s.type === 'symlink' ? '120000' : s.mode & 0o111 ? '100755' : '100644', entry.mode);
    if (statMatches(entry, s, mode, indexMs)) continue;
    const abs = sfs.backendPath(`${top}/${path}`);
    if (seenUnchanged(sfs.backend, abs, s, mode, entry.oid)) continue;
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
  count();
  return out;
}

/**
 * The first of `path`'s folders, or `path` itself, that the `.gitignore` files and
 * `.git/info/exclude` exclude (what `git add` names when it refuses a path), or null.
 */
export async function ignoredPart(repo: Repo, path: string, isDir: boolean): Promise<string | null> {
  const sfs = repo.ctx.shell.state.fs;
  const top = repo.dir === '/' ? '' : repo.dir;
  const rules: IgnoreRules[] = [];
  const exclude = await repo.readText('info/exclude').catch(() => '');
  if (exclude) rules.push({ base: '', rules: compileGitignore(exclude) });
  const parts = path.split('/');
  for (let i = 0; i < parts.length; i++) {
    const folder = parts.slice(0, i).join('/');
    const text = await sfs
      .readFile(`${top}/${folder ? `${folder}/` : ''}.gitignore`)
      .then((bytes) => new TextDecoder().decode(bytes))
      .catch(() => null);
    if (text !== null) rules.push({ base: folder, rules: compileGitignore(text) });
    const here = parts.slice(0, i + 1).join('/');
    if (isIgnored(rules, here, i < parts.length - 1 || isDir)) return here;
  }
  return null;
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
  // the folders holding tracked files, and each one's tracked folders by name (the index is sorted:
  // a folder's files come together, so its ancestors are added once per run of them)
  const dirs = new Set<string>();
  const subdirs = new Map<string, string[]>();
  let last = '';
  for (const path of index.keys()) {
    const at = path.lastIndexOf('/');
    if (at < 0 || (at === last.length && path.startsWith(last))) continue;
    last = path.slice(0, at);
    for (let folder = last; folder && !dirs.has(folder); ) {
      dirs.add(folder);
      const up = folder.lastIndexOf('/');
      const parent = up < 0 ? '' : folder.slice(0, up);
      const list = subdirs.get(parent);
      if (list) list.push(folder.slice(up + 1));
      else subdirs.set(parent, [folder.slice(up + 1)]);
      folder = parent;
    }
  }
  const sfs = repo.ctx.shell.state.fs;
  const top = repo.dir === '/' ? '' : repo.dir;
  const rules: IgnoreRules[] = [];
  const exclude = await repo.readText('info/exclude').catch(() => '');
  if (exclude) rules.push({ base: '', rules: compileGitignore(exclude) });
  // info/exclude first on the stack: every .gitignore outranks it, as in git
  const ignored = (path: string, dir: boolean) => honourIgnores && isIgnored(rules, path, dir);
  const out: string[] = [];
  /** A folder's own .gitignore, put on the rules while its entries are judged (see `walk`). */
  const pushRules = async (rel: string, has: boolean): Promise<boolean> => {
    if (!has) return false;
    const text = new TextDecoder().decode(await sfs.readFile(`${top}/${rel ? `${rel}/` : ''}.gitignore`));
    rules.push({ base: rel, rules: compileGitignore(text) });
    return true;
  };
  const anyFile = async (rel: string): Promise<boolean> => {
    const names = await sfs.readdir(`${top}/${rel}`);
    const pushed = await pushRules(rel, names.includes('.gitignore'));
    try {
      for (const name of names) {
        const path = `${rel}/${name}`;
        const s = await sfs.fullStat(`${top}/${path}`);
        if (!s) continue;
        if (s.type === 'dir' ? !ignored(path, true) && (await anyFile(path)) : !ignored(path, false)) return true;
      }
      return false;
    } finally {
      if (pushed) rules.pop();
    }
  };
  const walk = async (rel: string): Promise<void> => {
    repo.ctx.shell.checkTime();
    const dir = rel ? `${top}/${rel}` : top || '/';
    // a folder the tracked files' pass listed is not listed again (what it could not stat is gone)
    const listed = await folders.get(dir);
    const names = listed ? listed.keys() : await sfs.readdir(dir);
    const pushed = await pushRules(rel, listed ? listed.has('.gitignore') : (names as string[]).includes('.gitignore'));
    // a folder whose listing is its tracked files (the first pass counted them) and its tracked
    // folders has no other name: only those folders are walked
    const subs = subdirs.get(rel) ?? [];
    const hits = folders.tracked?.get(dir);
    if (
      listed &&
      hits !== undefined &&
      listed.size === hits + subs.length &&
      subs.every((name) => listed.get(name)?.type === 'dir')
    ) {
      for (const name of subs) {
        const path = rel ? `${rel}/${name}` : name;
        if (!ignored(path, true)) await walk(path);
      }
      if (pushed) rules.pop();
      return;
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
