import './global-buffer.js';
import * as git from 'isomorphic-git';
import { isAbsent, readdirOrNull, readFileOrNull } from '../fs/helpers.js';
import type { WorkspaceFs } from '../fs/types.js';
import { readTreeEntries, toHex, type GitAccess } from './objects.js';
import { PackWriter } from './pack.js';
import type { GitObjectType } from './sha1.js';

/** What a prune freed. */
export interface PruneOutcome {
  /** objects removed (loose files and packed entries) */
  objects: number;
  /** packs removed or rewritten without the freed objects */
  packs: number;
}

/** The objects a prune would free, and the way to free them. */
export interface PrunePlan {
  /** objects only the dropped refs reach */
  readonly freed: ReadonlySet<string>;
  /** remove them from the loose files and the packs */
  apply(): Promise<PruneOutcome>;
}

/**
 * Plan the removal of what only `dropping` reaches (ref files relative to the gitdir, such as
 * `refs/heads/forks/x`, with `extraHeads` their commits named elsewhere). An object any other ref
 * reaches (every file under `refs/`, `packed-refs` files, a detached HEAD, `otherHeads`) is never
 * touched, and an object no ref reaches but the dropped ones' is not looked at, so what another
 * writer has put but not yet referenced is safe unless it is the dropped branch's own. Planning
 * changes nothing and fails on any read error but a missing object, so a drop that cannot plan
 * leaves everything as it was. Apply it holding the store's writers off (its queue and the lock).
 */
export async function planPrune(
  access: GitAccess,
  dropping: { refs: string[]; heads: string[] },
  otherHeads: string[] = [],
): Promise<PrunePlan> {
  const fs = access.fs.promises;
  const skip = new Set(dropping.refs.map((r) => `${access.gitdir}/${r}`));
  const keep = new Set<string>();
  for (const root of [...(await allRefs(fs, access.gitdir, skip)), ...otherHeads]) await walk(access, root, keep, keep);
  const freed = new Set<string>();
  for (const ref of skip)
    for (const head of oidsIn((await readFileOrNull(fs, ref)) ?? new Uint8Array()))
      await walk(access, head, freed, keep);
  for (const head of dropping.heads) await walk(access, head, freed, keep);
  return {
    freed,
    apply: async () => {
      if (freed.size === 0) return { objects: 0, packs: 0 };
      const loose = await removeLoose(fs, `${access.gitdir}/objects`, freed);
      const packed = await rewritePacks(access, freed);
      return { objects: loose + packed.objects, packs: packed.packs };
    },
  };
}

/** Every commit a ref names (loose refs but those in `skip`, packed-refs, a detached HEAD). */
async function allRefs(fs: WorkspaceFs, gitdir: string, skip: Set<string>): Promise<string[]> {
  const out: string[] = [];
  const readRefs = async (dir: string) => {
    for (const name of (await readdirOrNull(fs, dir)) ?? []) {
      const path = `${dir}/${name}`;
      if (skip.has(path)) continue;
      const st = await fs.lstat(path);
      if (st.type === 'dir') await readRefs(path);
      else out.push(...oidsIn(await fs.readFile(path)));
    }
  };
  await readRefs(`${gitdir}/refs`);
  for (const file of ['packed-refs', 'HEAD', 'ORIG_HEAD', 'FETCH_HEAD'])
    out.push(...oidsIn((await readFileOrNull(fs, `${gitdir}/${file}`)) ?? new Uint8Array()));
  return out;
}

function oidsIn(bytes: Uint8Array): string[] {
  return new TextDecoder().decode(bytes).match(/\b[0-9a-f]{40}\b/g) ?? [];
}

/**
 * Mark every object reachable from `oid` into `into`, not descending into what `known` already
 * holds. A missing object (history cut by a shallow boundary and pruned by git) ends that path.
 */
async function walk(access: GitAccess, oid: string, into: Set<string>, known: Set<string>): Promise<void> {
  // what each id is, when the object naming it says so: a tree is read once, as a tree
  const stack: Array<[string, 'tree' | 'commit' | 'any']> = [[oid, 'any']];
  while (stack.length > 0) {
    const [at, kind] = stack.pop()!;
    if (known.has(at) || into.has(at)) continue;
    try {
      if (kind === 'tree') {
        const entries = await readTreeEntries(access, at);
        into.add(at);
        for (const entry of entries) {
          if (entry.type === 'tree') stack.push([entry.oid, 'tree']);
          else if (entry.type === 'blob' && !known.has(entry.oid)) into.add(entry.oid);
        }
        continue;
      }
      const read = await git.readObject({ ...access, oid: at, format: 'parsed' });
      into.add(at);
      if (read.type === 'commit') {
        const commit = read.object as { tree: string; parent: string[] };
        stack.push([commit.tree, 'tree'], ...commit.parent.map((p): [string, 'commit'] => [p, 'commit']));
      } else if (read.type === 'tree') {
        into.delete(at);
        stack.push([at, 'tree']);
      } else if (read.type === 'tag') stack.push([(read.object as { object: string }).object, 'any']);
    } catch (error) {
      // a missing object (history cut by a shallow boundary, then pruned by git) ends this path;
      // any other failure stops the plan, since it could hide what a kept ref reaches
      if ((error as { code?: string })?.code !== 'NotFoundError') throw error;
    }
  }
}

/** Unlink the loose files of `freed`, and the fan-out folders left empty (as git prune does). */
async function removeLoose(fs: WorkspaceFs, objects: string, freed: Set<string>): Promise<number> {
  let removed = 0;
  const touched = new Set<string>();
  for (const oid of freed) {
    const dir = `${objects}/${oid.slice(0, 2)}`;
    try {
      await fs.unlink(`${dir}/${oid.slice(2)}`);
      removed++;
      touched.add(dir);
    } catch (error) {
      if (!isAbsent(error)) throw error;
    }
  }
  for (const dir of touched) if ((await readdirOrNull(fs, dir))?.length === 0) await fs.rmdir(dir).catch(() => {});
  return removed;
}

/**
 * Drop `freed` from the packs: a pack holding only freed objects is removed, one holding some is
 * written again without them (full objects, as the store writes packs) before the old one goes.
 * The index goes before its pack, since readers find packs by their index.
 */
async function rewritePacks(access: GitAccess, freed: Set<string>): Promise<PruneOutcome> {
  const fs = access.fs.promises;
  const dir = `${access.gitdir}/objects/pack`;
  let objects = 0;
  let packs = 0;
  for (const name of (await readdirOrNull(fs, dir)) ?? []) {
    if (!name.endsWith('.idx')) continue;
    const ids = packIndexIds(await fs.readFile(`${dir}/${name}`));
    if (!ids) continue;
    const gone = ids.filter((id) => freed.has(id));
    if (gone.length === 0) continue;
    const kept = ids.filter((id) => !freed.has(id));
    if (kept.length > 0) {
      const writer = new PackWriter(fs, dir);
      for (const oid of kept) {
        const { type, object } = await git.readObject({ ...access, oid, format: 'content' });
        await writer.add(oid, type as GitObjectType, object as Uint8Array);
      }
      await writer.flush();
    }
    const base = name.slice(0, -'.idx'.length);
    for (const ext of ['.idx', '.pack', '.rev', '.bitmap'])
      await fs.unlink(`${dir}/${base}${ext}`).catch((error) => {
        if (!isAbsent(error)) throw error;
      });
    objects += gone.length;
    packs++;
  }
  return { objects, packs };
}

/** The object ids a version 2 pack index lists, or null for any other index (left alone). */
function packIndexIds(idx: Uint8Array): string[] | null {
  if (idx.length < 8 + 1024 || idx[0] !== 0xff || idx[1] !== 0x74 || idx[2] !== 0x4f || idx[3] !== 0x63) return null;
  const view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
  if (view.getUint32(4) !== 2) return null;
  const count = view.getUint32(8 + 255 * 4);
  const names = 8 + 1024;
  if (idx.length < names + count * 20) return null;
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(toHex(idx.subarray(names + i * 20, names + (i + 1) * 20)));
  return out;
}
