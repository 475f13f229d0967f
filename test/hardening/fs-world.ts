import type { WorkspaceFs } from '../../src/index.js';
import { watchedFs } from '../support/watched-fs.js';

/**
 * A hostile neighbourhood for path fuzzing: the root `app`, a folder `outside` and a name-prefix
 * sibling `app2` beside it (CVE-2025-53110), and links planted inside the root that point out
 * (CVE-2025-53109), some of them dangling, relative, chained or looping.
 */
export interface World {
  backend: 'memory' | 'node' | 'opfs' | 'opfs-packed' | 'indexeddb';
  fs: WorkspaceFs;
  base: string;
  root: string;
  outside: string;
  sibling: string;
  /** text planted outside; it must never appear in an envelope */
  canary: string;
  /** names of the links planted inside the root */
  links: string[];
  /** put the root back to its seeded state (files and links) */
  reset(): Promise<void>;
  /**
   * The root's entries (not the shadow repository) as one comparable string, when the world has a
   * cheaper way to read them than its backend's calls; the fuzzer reads them through `fs` otherwise.
   */
  rootState?(): string;
  /** everything beside the root that a breakout could read or change, as comparable text */
  outsideState(): Promise<Record<string, string>>;
  /**
   * How many changing operations (write, mkdir, rename...) `fs` has been asked for so far, the
   * world's own included. Only for a world whose outside state tells of writes alone: storage
   * changes only when asked to, so while this stands still neither the root nor the outside can
   * have changed and the fuzzer need not read them again. Absent (the host's world, whose outside
   * state tells of reads too): they are read after every call that needs them.
   */
  writes?(): number;
  /**
   * The same count for the root alone, for a world whose `writes` stays absent (the host's): a
   * refused call that asked for no change cannot have changed the root, and its root need not be
   * read again. Only for tools whose every change goes through `fs`: a tool that runs programs
   * changes files with a child's own system calls, so the fuzzer reads the root after those.
   */
  rootWrites?(): number;
  /** host strings no envelope may carry beyond echoing the caller's own input */
  hostStrings: string[];
  cleanup(): Promise<void>;
}

export const SEED_FILES: Record<string, string> = {
  'inside.txt': 'inside\n',
  'a/b/c.txt': 'abc\n',
  'a/b/c/d.txt': 'deep\n',
  'dir/f.txt': 'f\n',
  app2: 'a file named like the sibling\n',
};

/** link name -> target; `${X}` are replaced with the world's folders. */
const LINKS: Array<[string, string]> = [
  ['out-file', '${outside}/secret.txt'],
  ['out-dir', '${outside}'],
  ['out-rel', '../outside'],
  ['sib', '${sibling}'],
  ['sib-rel', '../app2'],
  ['sib-file', '${sibling}/sibling.txt'],
  ['chain', 'out-dir'],
  ['a/up', '../..'],
  ['a/b/c/esc', '../../../../outside'],
  ['dangle', '${outside}/not-yet.txt'],
  ['dangle-rel', '../outside/new-dir/x.txt'],
  ['dangle-dir', '${outside}/new-dir'],
  ['parent', '..'],
  ['base-abs', '${base}'],
  ['loop1', 'loop2'],
  ['loop2', 'loop1'],
  ['in-dir', 'a'],
  ['in-file', 'inside.txt'],
  ['self', '.'],
  ['etc', '/etc'],
];

export function linkNames(): string[] {
  return LINKS.map(([name]) => name);
}

function fill(template: string, w: { base: string; outside: string; sibling: string }): string {
  return template.replace('${outside}', w.outside).replace('${sibling}', w.sibling).replace('${base}', w.base);
}

/** Seed the root; `present` names the entries already there as seeded, which are left alone. */
export async function seedRoot(
  fs: WorkspaceFs,
  w: { root: string; base: string; outside: string; sibling: string },
  symlinks = true,
  present: (rel: string) => boolean = () => false,
): Promise<void> {
  for (const [rel, content] of Object.entries(SEED_FILES)) {
    if (present(rel)) continue;
    const abs = `${w.root}/${rel}`;
    await fs.mkdir(abs.slice(0, abs.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(abs, new TextEncoder().encode(content));
  }
  // without links (OPFS) their names stay in the generator as plain names that lead nowhere
  if (symlinks)
    for (const [name, target] of LINKS) if (!present(name)) await fs.symlink(fill(target, w), `${w.root}/${name}`);
}

/** Empty the root but keep the shadow repository, so a workspace's snapshot store stays consistent. */
export async function clearRoot(fs: WorkspaceFs, root: string): Promise<void> {
  const remove = async (abs: string): Promise<void> => {
    const st = await fs.lstat(abs);
    if (st.type !== 'dir') return fs.unlink(abs);
    for (const name of await fs.readdir(abs)) await remove(`${abs}/${name}`);
    await fs.rmdir(abs);
  };
  for (const name of await fs.readdir(root)) if (name !== '.sandpit') await remove(`${root}/${name}`);
}

export function randomTag(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** The files planted beside the root, each holding the canary a breakout would leak. */
export function outsideFiles(
  w: { base: string; outside: string; sibling: string },
  canary: string,
): Record<string, string> {
  return {
    [`${w.outside}/secret.txt`]: `${canary} secret\n`,
    [`${w.outside}/sub/deep.txt`]: `${canary} deep\n`,
    [`${w.sibling}/sibling.txt`]: `${canary} sibling\n`,
    [`${w.base}/app-evil/x.txt`]: `${canary} evil\n`,
  };
}

/**
 * Everything below `base` but the root, as comparable text: each folder with its mtime, each file
 * with its mtime and bytes, each link with its target. Read with the backend's own calls.
 */
export async function outsideStateOf(fs: WorkspaceFs, base: string, root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const name of (await fs.readdir(dir)).sort()) {
      const abs = `${dir}/${name}`;
      if (abs === root) continue;
      const st = await fs.lstat(abs);
      if (st.type === 'dir') {
        out[`${abs}/`] = `dir ${st.mtimeMs}`;
        await walk(abs);
      } else if (st.type === 'symlink') out[abs] = `-> ${await fs.readlink(abs)}`;
      else out[abs] = `${st.mtimeMs} ${new TextDecoder().decode(await fs.readFile(abs))}`;
    }
  };
  await walk(base);
  return out;
}

/**
 * A world on any backend, built through the backend's own calls: the memory backend in Node and
 * OPFS and IndexedDB in Chromium. Everything lives below one made-up base folder. `readOutside`
 * reads what {@link outsideStateOf} reads where the backend lives, for a backend in a worker,
 * where each of the walk's calls would be a message of its own.
 */
export async function backendWorld(
  backend: World['backend'],
  store: WorkspaceFs,
  symlinks: boolean,
  readOutside?: (base: string, root: string) => Promise<Record<string, string>>,
): Promise<World> {
  const { fs, writes } = countingWrites(store);
  const base = '/srv/sandpit-h0st';
  const w = { base, root: `${base}/app`, outside: `${base}/outside`, sibling: `${base}/app2` };
  const canary = `CANARY-${randomTag()}`;
  for (const [abs, content] of Object.entries(outsideFiles(w, canary))) {
    await fs.mkdir(abs.slice(0, abs.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(abs, new TextEncoder().encode(content));
  }
  await fs.mkdir(w.root, { recursive: true });
  const world: World = {
    backend,
    fs,
    ...w,
    canary,
    links: linkNames(),
    hostStrings: [base, base.slice(1)],
    async reset() {
      await clearRoot(fs, w.root);
      await seedRoot(fs, w, symlinks);
    },
    outsideState: () => (readOutside ? readOutside(base, w.root) : outsideStateOf(fs, base, w.root)),
    writes,
    async cleanup() {},
  };
  await world.reset();
  return world;
}

/** Every way to change a backend's storage: the operations that write, make or remove. */
const CHANGING = new Set(['writeFile', 'writeInPlace', 'mkdir', 'rmdir', 'unlink', 'rename', 'symlink']);

/**
 * The backend, counting each changing operation asked of it (before it runs: one that fails half
 * way may still have changed something). Everything else passes through untouched.
 */
export function countingWrites(inner: WorkspaceFs): { fs: WorkspaceFs; writes: () => number } {
  let count = 0;
  const fs = watchedFs(
    inner,
    () => {
      count++;
    },
    CHANGING,
  );
  return { fs, writes: () => count };
}
