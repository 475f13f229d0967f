import * as git from 'isomorphic-git';
import ignore, { type Ignore } from 'ignore';
import type { IndexEntry } from './index-file.js';
import type { GitFile, Repo } from './repo.js';

/** A tracked file whose working copy differs from the index: its new content, or null when it is gone. */
export interface WorkChange {
  path: string;
  now: (GitFile & { data: Uint8Array }) | null;
}

/** The blob id git gives these bytes. */
export async function blobId(data: Uint8Array): Promise<string> {
  return (await git.hashBlob({ object: data })).oid;
}

/**
 * The tracked files whose working copy differs from what the index holds. A file whose size and
 * modification second match the index's record is taken as unchanged, as git does; any other is
 * hashed and compared.
 */
export async function workChanges(
  repo: Repo,
  index: Map<string, IndexEntry>,
  wanted: (path: string) => boolean = () => true,
): Promise<WorkChange[]> {
  const out: WorkChange[] = [];
  const top = repo.dir === '/' ? '' : repo.dir;
  const sfs = repo.ctx.shell.state.fs;
  const indexTime = Math.floor(((await sfs.fullStat(`${repo.gitdir}/index`))?.mtimeMs ?? 0) / 1000);
  const [modes, links] = [sfs.keepsModes, sfs.keepsLinks];
  // where the backend keeps no executable bit (git's core.filemode=false) or makes no links
  // (core.symlinks=false), the mode the index records stands
  const seen = (actual: string, staged: string) =>
    (!modes && actual !== '120000' && staged !== '120000') || (!links && staged === '120000' && actual !== '120000')
      ? staged
      : actual;
  for (const [path, entry] of index) {
    if (!wanted(path)) continue;
    repo.ctx.shell.checkTime();
    const s = await sfs.fullStat(`${top}/${path}`).catch(() => null);
    if (!s || s.type === 'dir') {
      out.push({ path, now: null });
      continue;
    }
    const sec = Math.floor(s.mtimeMs / 1000);
    const mode = seen(s.type === 'symlink' ? '120000' : s.mode & 0o111 ? '100755' : '100644', entry.mode);
    if (sec === entry.mtimeSec && sec < indexTime && s.size === entry.size && mode === entry.mode) continue;
    const file = await repo.workFile(path);
    if (!file) {
      out.push({ path, now: null });
      continue;
    }
    const oid = await blobId(file.data);
    const now = seen(file.mode, entry.mode);
    if (oid !== entry.oid || now !== entry.mode) out.push({ path, now: { oid, mode: now, data: file.data } });
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
    const names = await sfs.readdir(rel ? `${top}/${rel}` : top || '/');
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
      const s = await sfs.fullStat(`${top}/${path}`);
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
