import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFs, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';

/**
 * A hostile neighbourhood for path fuzzing: the root `app`, a folder `outside` and a name-prefix
 * sibling `app2` beside it (CVE-2025-53110), and links planted inside the root that point out
 * (CVE-2025-53109), some of them dangling, relative, chained or looping.
 */
export interface World {
  backend: 'memory' | 'node';
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
  /** everything beside the root that a breakout could read or change, as comparable text */
  outsideState(): Promise<Record<string, string>>;
  /** host strings no envelope may carry beyond echoing the caller's own input */
  hostStrings: string[];
  cleanup(): Promise<void>;
}

export const SEED_FILES: Record<string, string> = {
  'inside.txt': 'inside\n',
  'a/b/c.txt': 'abc\n',
  'a/b/c/d.txt': 'deep\n',
  'dir/f.txt': 'f\n',
  'app2': 'a file named like the sibling\n',
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

async function seedRoot(fs: WorkspaceFs, w: { root: string; base: string; outside: string; sibling: string }): Promise<void> {
  for (const [rel, content] of Object.entries(SEED_FILES)) {
    const abs = `${w.root}/${rel}`;
    await fs.mkdir(abs.slice(0, abs.lastIndexOf('/')), { recursive: true });
    await fs.writeFile(abs, new TextEncoder().encode(content));
  }
  for (const [name, target] of LINKS) await fs.symlink(fill(target, w), `${w.root}/${name}`);
}

/** Empty the root but keep the shadow repository, so a workspace's snapshot store stays consistent. */
async function clearRoot(fs: WorkspaceFs, root: string): Promise<void> {
  const remove = async (abs: string): Promise<void> => {
    const st = await fs.lstat(abs);
    if (st.type !== 'dir') return fs.unlink(abs);
    for (const name of await fs.readdir(abs)) await remove(`${abs}/${name}`);
    await fs.rmdir(abs);
  };
  for (const name of await fs.readdir(root)) if (name !== '.sandpit') await remove(`${root}/${name}`);
}

function randomTag(): string {
  return Math.random().toString(36).slice(2, 10);
}

export async function memoryWorld(): Promise<World> {
  const base = '/srv/sandpit-h0st';
  const w = { base, root: `${base}/app`, outside: `${base}/outside`, sibling: `${base}/app2` };
  const canary = `CANARY-${randomTag()}`;
  const outsideFiles: Record<string, string> = {
    [`${w.outside}/secret.txt`]: `${canary} secret\n`,
    [`${w.outside}/sub/deep.txt`]: `${canary} deep\n`,
    [`${w.sibling}/sibling.txt`]: `${canary} sibling\n`,
    [`${base}/app-evil/x.txt`]: `${canary} evil\n`,
  };
  const fs = createMemoryFs(outsideFiles);
  await fs.mkdir(w.root, { recursive: true });
  const world: World = {
    backend: 'memory',
    fs,
    ...w,
    canary,
    links: linkNames(),
    hostStrings: [base, base.slice(1)],
    async reset() {
      await clearRoot(fs, w.root);
      await seedRoot(fs, w);
    },
    async outsideState() {
      const out: Record<string, string> = {};
      const walk = async (dir: string) => {
        for (const name of (await fs.readdir(dir)).sort()) {
          const abs = `${dir}/${name}`;
          if (abs === w.root) continue;
          const st = await fs.lstat(abs);
          if (st.type === 'dir') { out[`${abs}/`] = `dir ${st.mtimeMs}`; await walk(abs); }
          else if (st.type === 'symlink') out[abs] = `-> ${await fs.readlink(abs)}`;
          else out[abs] = `${st.mtimeMs} ${new TextDecoder().decode(await fs.readFile(abs))}`;
        }
      };
      await walk(base);
      return out;
    },
    async cleanup() {},
  };
  await world.reset();
  return world;
}

export async function nodeWorld(): Promise<World> {
  const base = nodeFs.mkdtempSync(join(tmpdir(), 'sandpit-h0st-'));
  const w = { base, root: join(base, 'app'), outside: join(base, 'outside'), sibling: join(base, 'app2') };
  const canary = `CANARY-${randomTag()}`;
  const files: Record<string, string> = {
    [`${w.outside}/secret.txt`]: `${canary} secret\n`,
    [`${w.outside}/sub/deep.txt`]: `${canary} deep\n`,
    [`${w.sibling}/sibling.txt`]: `${canary} sibling\n`,
    [`${base}/app-evil/x.txt`]: `${canary} evil\n`,
  };
  for (const [abs, content] of Object.entries(files)) {
    nodeFs.mkdirSync(abs.slice(0, abs.lastIndexOf('/')), { recursive: true });
    nodeFs.writeFileSync(abs, content);
  }
  // An old access time makes any read of these files move it (relatime updates an atime older than
  // the mtime), so a read outside is caught even when nothing is written. The fuzzer itself only stats.
  const watched = [...Object.keys(files), w.outside, `${w.outside}/sub`, w.sibling, `${base}/app-evil`];
  const old = new Date('2001-01-01T00:00:00Z');
  for (const p of watched) nodeFs.utimesSync(p, old, nodeFs.statSync(p).mtime);
  nodeFs.mkdirSync(w.root);
  const fs = createNodeFs();
  const world: World = {
    backend: 'node',
    fs,
    ...w,
    canary,
    links: linkNames(),
    hostStrings: [base, base.slice(1), tmpdir(), process.cwd()].filter((s) => s.length > 4),
    async reset() {
      for (const name of nodeFs.readdirSync(w.root)) if (name !== '.sandpit') nodeFs.rmSync(join(w.root, name), { recursive: true, force: true });
      await seedRoot(fs, w);
    },
    async outsideState() {
      const out: Record<string, string> = {};
      out['beside root'] = nodeFs.readdirSync(base).sort().join(',');
      // the watched folders are never listed here: their mtime tells of a new entry, and listing
      // them would move the access time that tells of a read
      for (const p of [...watched, base]) {
        const st = nodeFs.lstatSync(p);
        // the base folder's access time moves when the fuzzer lists it above
        const atime = p === base || !watched.includes(p) ? '' : ` atime=${st.atimeMs}`;
        out[p] = `size=${st.size} mtime=${st.mtimeMs} ctime=${st.ctimeMs} mode=${st.mode} ino=${st.ino}${atime}`;
      }
      return out;
    },
    async cleanup() {
      nodeFs.rmSync(base, { recursive: true, force: true });
    },
  };
  await world.reset();
  return world;
}
