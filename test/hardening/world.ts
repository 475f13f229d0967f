import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFs } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { backendWorld, countingWrites, linkNames, outsideFiles, randomTag, seedRoot, type World } from './fs-world.js';

export type { World } from './fs-world.js';

export async function memoryWorld(): Promise<World> {
  return backendWorld('memory', createMemoryFs(), true);
}

export async function nodeWorld(): Promise<World> {
  const base = nodeFs.mkdtempSync(join(tmpdir(), 'sandpit-h0st-'));
  const w = { base, root: join(base, 'app'), outside: join(base, 'outside'), sibling: join(base, 'app2') };
  const canary = `CANARY-${randomTag()}`;
  const files = outsideFiles(w, canary);
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
  const { fs, writes } = countingWrites(createNodeFs());
  // each seeded entry as the first seeding left it, for reset to tell what a call changed
  let seeded: Map<string, string> | undefined;
  const world: World = {
    backend: 'node',
    fs,
    ...w,
    canary,
    links: linkNames(),
    hostStrings: [base, base.slice(1), tmpdir(), process.cwd()].filter((s) => s.length > 4),
    async reset() {
      if (!seeded) {
        for (const name of nodeFs.readdirSync(w.root))
          if (name !== '.sandpit') nodeFs.rmSync(join(w.root, name), { recursive: true, force: true });
        await seedRoot(fs, w);
        seeded = entriesBelow(w.root);
        return;
      }
      // Only what a call changed goes and comes back: removing and making the whole seeded tree
      // after every successful change was a third of this world's CPU (file creation is costly).
      const kept = new Set<string>();
      const prune = (abs: string, rel: string) => {
        for (const name of nodeFs.readdirSync(abs)) {
          if (rel === '' && name === '.sandpit') continue;
          const r = rel ? `${rel}/${name}` : name;
          const want = seeded!.get(r);
          if (want === undefined || want !== entryState(join(abs, name))) {
            nodeFs.rmSync(join(abs, name), { recursive: true, force: true });
            continue;
          }
          kept.add(r);
          if (want.startsWith('dir')) prune(join(abs, name), r);
        }
      };
      prune(w.root, '');
      await seedRoot(fs, w, true, (rel) => kept.has(rel));
    },
    // Read with the host's own calls: through the node backend (each step opened beneath the
    // root), reading the root after every refused change was a quarter of this world's CPU.
    rootState: () => hostRootState(w.root),
    rootWrites: writes,
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

/** What an entry is, by lstat and its bytes or target: any change a tool can make shows here. */
function entryState(abs: string): string {
  const st = nodeFs.lstatSync(abs);
  const kind = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : st.isFile() ? 'file' : 'other';
  const what =
    kind === 'link' ? nodeFs.readlinkSync(abs) : kind === 'file' ? nodeFs.readFileSync(abs).toString('base64') : '';
  return `${kind} ${st.mode} ${st.nlink} ${st.uid}:${st.gid} ${what}`;
}

/** Every entry below a root (not the shadow repository) by its path relative to the root. */
function entriesBelow(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string, rel: string) => {
    for (const name of nodeFs.readdirSync(abs)) {
      if (rel === '' && name === '.sandpit') continue;
      const r = rel ? `${rel}/${name}` : name;
      out.set(r, entryState(join(abs, name)));
      if (nodeFs.lstatSync(join(abs, name)).isDirectory()) walk(join(abs, name), r);
    }
  };
  walk(root, '');
  return out;
}

/**
 * The root's entries (not the shadow repository) with their bytes or link targets, names read as
 * bytes so none is lost; anything neither file, folder nor link is named by its mode, never opened.
 */
function hostRootState(root: string): string {
  const out: string[] = [];
  const walk = (abs: Buffer, rel: string) => {
    const names = nodeFs.readdirSync(abs, { encoding: 'buffer' }).sort(Buffer.compare);
    for (const name of names) {
      if (rel === '' && name.toString('latin1') === '.sandpit') continue;
      const path = Buffer.concat([abs, Buffer.from('/'), name]);
      const r = rel ? `${rel}/${name.toString('hex')}` : name.toString('hex');
      const st = nodeFs.lstatSync(path);
      if (st.isDirectory()) {
        out.push(`${r}/`);
        walk(path, r);
      } else if (st.isSymbolicLink())
        out.push(`${r} -> ${nodeFs.readlinkSync(path, { encoding: 'buffer' }).toString('hex')}`);
      else if (st.isFile()) out.push(`${r} ${nodeFs.readFileSync(path).toString('base64')}`);
      else out.push(`${r} special ${st.mode}`);
    }
  };
  walk(Buffer.from(root), '');
  return out.join('\n');
}
