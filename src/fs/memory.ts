import { Superblock } from '@jsonjoy.com/fs-core';
import { Volume } from 'memfs';
import { translated } from './errors.js';
import { isAbsent } from './helpers.js';
import { MemoryLinks } from './memory-links.js';
import { readPlainMemory, readPlainMemoryMany } from './memory-direct.js';
import { toFsStat } from './stat.js';
import { hasFsCode } from './errors.js';
import { ChangeJournal } from './watch/journal.js';
import { requestedMode, type FsDirent, type FsDirentStat, type WorkspaceFs } from './types.js';

/** Initial files for a memory backend: path (relative to `/` or absolute) to text or bytes. */
export type SeedFiles = Record<string, string | Uint8Array>;

/**
 * An in-memory backend over memfs. `seed` fills it: `{ 'src/a.ts': 'export {}' }`
 * creates `/src/a.ts` with its parent folders.
 */
export function createMemoryFs(seed: SeedFiles = {}): WorkspaceFs {
  // memfs asks the host for the uid and gid on every operation (a system call each in Node); a
  // workspace in memory has one owner, so answer from constants.
  const owner = { cwd: () => '/', platform: 'linux', env: {}, emitWarning: () => {}, getuid: () => 0, getgid: () => 0 };
  const sb = new Superblock({ process: owner } as ConstructorParameters<typeof Superblock>[0]);
  const vol = new Volume(sb);
  for (const [name, content] of Object.entries(seed)) {
    const path = name.startsWith('/') ? name : `/${name}`;
    vol.mkdirSync(path.slice(0, path.lastIndexOf('/')) || '/', { recursive: true });
    vol.writeFileSync(path, typeof content === 'string' ? content : content);
  }
  const p = vol.promises;
  // reads of plain paths come from a folder index instead of memfs's walk from the root (see MemoryLinks)
  const links = new MemoryLinks(sb);
  // Nothing but this object reaches the volume, so every change passes here: a rescan asks the
  // journal what changed instead of looking at every file.
  const journal = new ChangeJournal();
  /** `work`, a change at `paths`, recorded once it is over (a refusal for a missing folder changed nothing). */
  const changing = async <T>(paths: string[], followsLink: boolean, work: () => Promise<T>): Promise<T> => {
    let failure: unknown = null;
    try {
      return await work();
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      if (failure === null || !hasFsCode(failure, 'ENOENT', 'ENOTDIR'))
        for (const path of paths) {
          const node = links.entry(path);
          journal.record(path, node !== undefined && !(followsLink && node?.isSymlink() === true));
        }
    }
  };
  const fs: WorkspaceFs = {
    readFile: (path) =>
      translated('readFile', async () => {
        const fast = links.readFile(path);
        if (fast !== undefined) return fast;
        const bytes = (await p.readFile(path)) as Uint8Array;
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      }),
    writeFile: (path, data, options) =>
      translated('writeFile', () =>
        changing([path], true, async () => {
          const mode = requestedMode(options);
          await p.writeFile(path, data, mode === undefined ? undefined : { mode });
          // a new file is made with its mode; only one that holds another needs the chmod (a checkout gives every file its mode)
          if (mode !== undefined && (mode > 0o7777 || ((links.entry(path)?.mode ?? -1) & 0o7777) !== mode))
            await p.chmod(path, mode);
        }),
      ),
    readdir: (path) =>
      translated(
        'readdir',
        async () => links.readdir(path)?.map((d) => d.name) ?? ((await p.readdir(path)) as string[]).map(String),
      ),
    readdirTypes: (path) =>
      translated('readdir', async () => {
        const fast = links.readdir(path);
        if (fast !== undefined) return fast;
        const entries = (await p.readdir(path, { withFileTypes: true })) as unknown as Array<{
          name: string | Uint8Array;
          isFile(): boolean;
          isDirectory(): boolean;
          isSymbolicLink(): boolean;
        }>;
        return entries.map(
          (d): FsDirent => ({
            name: String(d.name),
            type: d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other',
          }),
        );
      }),
    readdirStats: (path) =>
      translated('readdir', async () => {
        const fast = links.readdirStats(path);
        if (fast !== undefined) return fast;
        const names = ((await p.readdir(path)) as unknown[]).map(String);
        const base = path === '/' ? '' : path;
        const out: FsDirentStat[] = [];
        for (const name of names) {
          const stat = await p
            .lstat(`${base}/${name}`)
            .then(toFsStat, (e: unknown) => (isAbsent(e) ? undefined : null));
          if (stat !== undefined) out.push({ name, stat });
        }
        return out;
      }),
    stat: (path) => translated('stat', async () => links.stat(path, 'stat', true) ?? toFsStat(await p.stat(path))),
    lstat: (path) => translated('lstat', async () => links.stat(path, 'lstat', false) ?? toFsStat(await p.lstat(path))),
    mkdir: (path, options) =>
      translated('mkdir', () =>
        changing([path], false, async () => {
          await p.mkdir(path, options);
        }),
      ),
    rmdir: (path) =>
      translated('rmdir', () =>
        changing([path], false, async () => {
          // asked before the removal: afterwards the path no longer tells whether it was spelled plainly
          const plain = links.entry(path) !== undefined;
          await p.rmdir(path);
          if (plain) links.forget(path, false);
          else links.clear();
        }),
      ),
    // a file or link removed: no folder the index knows goes with it
    unlink: (path) => translated('unlink', () => changing([path], false, () => p.unlink(path))),
    rename: (from, to) => translated('rename', () => changing([from, to], false, () => renameTracked(from, to))),
    readlink: (path) => translated('readlink', async () => String(await p.readlink(path))),
    symlink: (target, path) =>
      translated('symlink', () =>
        changing([path], false, async () => {
          await p.symlink(target, path);
        }),
      ),
    readPlainFile: async (base, rel, maxBytes) => readPlainMemory(sb, base, rel, maxBytes),
    readPlainFiles: async (base, names, maxBytes) => readPlainMemoryMany(sb, base, names, maxBytes),
    // memfs stamps `new Date()` on every change, and nothing outside this object can set a time
    capabilities: { symlinks: true, atomicRename: true, modes: true, clockMtimes: true },
    watchChanges: (dir, options) => journal.feed(dir, options?.scratch),
  };

  async function renameTracked(from: string, to: string): Promise<void> {
    const moved = links.entry(from);
    const replaced = links.entry(to);
    const folder = moved === null || moved === undefined || moved.isDirectory();
    try {
      await renameEntry(from, to);
    } finally {
      // what was known under either name may be stale now (or after a failure part-way);
      // a name not spelled plainly may have named any folder
      if (moved === undefined || replaced === undefined) links.clear();
      else {
        links.forget(from, folder);
        links.forget(to, folder);
      }
    }
  }

  async function renameEntry(from: string, to: string): Promise<void> {
    // memfs renames a link's target instead of the link itself; move the link by hand.
    if ((await p.lstat(from)).isSymbolicLink()) {
      const target = String(await p.readlink(from));
      const existing = await p.lstat(to).catch((e) => {
        if (isAbsent(e)) return null;
        throw e;
      });
      if (existing?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      if (existing) await p.unlink(to);
      await p.symlink(target, to);
      await p.unlink(from);
      return;
    }
    await p.rename(from, to);
  }
  return fs;
}
