import { ToolError } from '../../contract/index.js';
import { hasFsCode } from '../../fs/errors.js';
import { mkdirp, readFileOrNull, removeTree } from '../../fs/helpers.js';
import type { WorkspaceFs } from '../../fs/types.js';
import { readCommit } from '../object-reader.js';
import { damagedHistory, type SnapshotStore } from '../store.js';
import { TreeCache } from '../tree.js';
import { ForkFs } from './fork-fs.js';
import { FORKS_DIR, forkLayout } from './layout.js';

/** A fork as its parent lists it. */
export interface ForkInfo {
  /** the name it was given */
  name: string;
  /** its unique id (the name and a suffix), which names its branch */
  id: string;
  /** its history branch in the shared snapshot store */
  branch: string;
  /** the parent's snapshot it started from */
  forked_from: string;
  /** that snapshot's tree, which the fork's files read through to */
  forked_tree: string;
  /** the fork's snapshot last merged into the parent (the next merge's base), if any */
  merged_at?: string;
  /** when it was made (ISO 8601) */
  created_at: string;
}

/** What a fork host needs of the workspace that forks. */
export interface ForkParent {
  fs: WorkspaceFs;
  toAbs(rel: string): string;
  store: SnapshotStore;
  /** wait for commits still running after a reply */
  settled(): Promise<void>;
  /** the lock this root's processes share, held while a drop frees objects (none: this process is alone) */
  lock?: { acquire(): Promise<() => Promise<void>> } | null;
}

/** A workspace made over a fork's files: what the host needs of it. */
export interface ForkWorkspace {
  readonly snapshots: SnapshotStore | null;
  close(): Promise<void>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const hosts = new WeakMap<SnapshotStore, ForkHost<ForkWorkspace>>();

/** The fork host of the workspace whose snapshot store this is (how merge_workspace finds forks). */
export function forkHostOf(store: SnapshotStore | undefined): ForkHost<ForkWorkspace> | undefined {
  return store ? hosts.get(store) : undefined;
}

/**
 * A workspace's forks: making one costs a few small files whatever the size of the workspace
 * (its files read through to the parent's snapshot, see ForkFs), each has its own branch in the
 * same snapshot store, and dropping one removes its files, its branch and its own forks.
 */
export class ForkHost<W extends ForkWorkspace> {
  private readonly open = new Map<string, W>();

  constructor(
    private readonly parent: ForkParent,
    private readonly make: (fs: WorkspaceFs, info: ForkInfo) => W,
  ) {
    hosts.set(parent.store, this as unknown as ForkHost<ForkWorkspace>);
  }

  /** Make a fork of the workspace as it is now (changes the tools made are snapshotted first). */
  async fork(name: string): Promise<W & { readonly forkInfo: ForkInfo }> {
    if (typeof name !== 'string' || !NAME.test(name))
      throw new ToolError('INVALID_ARGUMENTS', 'a fork name is 1 to 64 letters, digits, dots, dashes or underscores', {
        hint: 'Name the fork like a git branch without slashes, e.g. "attempt-1".',
      });
    if ((await this.list()).some((f) => f.name === name))
      throw new ToolError('ALREADY_EXISTS', `there is already a fork named '${name}'`, {
        hint: 'Pick another name, or drop the old fork first.',
      });
    const { store } = this.parent;
    await this.parent.settled();
    await store.open();
    await store.commitPending({ message: 'Changes before a fork', tool: 'fork' });
    const head = store.history.head!;
    const id = `${name}-${Math.random().toString(16).slice(2, 8)}`;
    const info: ForkInfo = {
      name,
      id,
      branch: `forks/${id}`,
      forked_from: head.oid,
      forked_tree: head.tree,
      created_at: new Date().toISOString(),
    };
    const layout = forkLayout(this.parent.toAbs, store.access.gitdir, id);
    const { fs } = this.parent;
    await mkdirp(fs, layout.upper);
    await mkdirp(fs, `${layout.upper}/.sandpit`);
    await mkdirp(fs, `${store.access.gitdir}/refs/heads/forks`);
    await fs.writeFile(layout.branchFile, new TextEncoder().encode(`${head.oid}\n`));
    const shallow = await readFileOrNull(fs, `${store.access.gitdir}/shallow`);
    if (shallow) await fs.writeFile(`${layout.privateDir}/shallow`, shallow);
    await this.writeInfo(info);
    const ws = this.openFork(info, new Set());
    await ws.snapshots!.exclusive(() => ws.snapshots!.adopt(head.oid));
    return ws;
  }

  /** The forks, oldest first; each with the snapshot its branch is at. */
  async list(): Promise<Array<ForkInfo & { head: string | null }>> {
    const { fs, toAbs } = this.parent;
    const names = await fs.readdir(toAbs(FORKS_DIR)).catch(() => [] as string[]);
    const out: Array<ForkInfo & { head: string | null }> = [];
    for (const id of names) {
      const info = await this.readInfo(id);
      if (!info) continue;
      const branch = await readBranchFile(fs, forkLayout(toAbs, this.parent.store.access.gitdir, id).branchFile);
      out.push({ ...info, head: branch });
    }
    return out.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  }

  /** A fork by name or id (its workspace, opened again if this process has not got it open). */
  async get(nameOrId: string): Promise<W & { readonly forkInfo: ForkInfo }> {
    const info = await this.find(nameOrId);
    const open = this.open.get(info.id);
    if (open) return open as W & { readonly forkInfo: ForkInfo };
    const layout = forkLayout(this.parent.toAbs, this.parent.store.access.gitdir, info.id);
    const saved = await readFileOrNull(this.parent.fs, `${layout.privateDir}/whiteouts.json`);
    return this.openFork(info, new Set(saved ? (JSON.parse(new TextDecoder().decode(saved)) as string[]) : []));
  }

  /** A fork's manifest by name or id, or NOT_FOUND listing the forks there are. */
  async find(nameOrId: string): Promise<ForkInfo> {
    const all = await this.list();
    const hit = all.find((f) => f.id === nameOrId) ?? all.find((f) => f.name === nameOrId);
    if (hit) return hit;
    throw new ToolError('NOT_FOUND', `there is no fork named '${String(nameOrId).slice(0, 80)}'`, {
      hint: all.length ? `Forks: ${all.map((f) => f.name).join(', ')}.` : 'This workspace has no forks.',
    });
  }

  /**
   * The snapshot a fork is at for a merge: an open fork first snapshots what its tools changed;
   * a closed one is read from its branch.
   */
  async headOf(info: ForkInfo): Promise<string> {
    const open = this.open.get(info.id);
    if (open?.snapshots) {
      await open.snapshots.commitPending({ message: 'Changes before a merge', tool: 'merge_workspace' });
      return open.snapshots.history.head!.oid;
    }
    const layout = forkLayout(this.parent.toAbs, this.parent.store.access.gitdir, info.id);
    const head = await readBranchFile(this.parent.fs, layout.branchFile);
    if (!head) throw damagedHistory(`the branch of fork '${info.name}' is missing or damaged`);
    return head;
  }

  /**
   * The tree of a commit of the shared store, read by the store's own reader: isomorphic-git's
   * loaded a pack's whole index and hashed the whole pack first, a second and more on the first
   * merge of a 50,000-file workspace.
   */
  async treeOf(commit: string): Promise<string> {
    try {
      return (await readCommit(this.parent.store.access, commit)).tree;
    } catch (error) {
      if (hasFsCode(error, 'EIO', 'EACCES', 'EPERM', 'ENOSPC')) throw error;
      throw damagedHistory(`snapshot ${commit.slice(0, 12)}, which the merge starts from, is missing or damaged`);
    }
  }

  /** Record where the fork was last merged (the base of the next merge). */
  async noteMerged(info: ForkInfo, at: string): Promise<void> {
    await this.writeInfo({ ...info, merged_at: at });
    const open = this.open.get(info.id) as (W & { forkInfo: ForkInfo }) | undefined;
    if (open) open.forkInfo.merged_at = at;
  }

  /**
   * Drop a fork: close it, remove its files (forks of it included), its branch, and the snapshot
   * objects only those branches reach (loose and packed). Objects the parent or any other fork
   * reaches stay. The objects to free are found before anything is removed, so a drop that cannot
   * read the history changes nothing.
   */
  async drop(nameOrId: string): Promise<ForkInfo & { freed_objects: number }> {
    const info = await this.find(nameOrId);
    const ws = this.open.get(info.id);
    this.open.delete(info.id);
    await ws?.close();
    const { fs, toAbs, store } = this.parent;
    const layout = forkLayout(toAbs, store.access.gitdir, info.id);
    const release = (await this.parent.lock?.acquire()) ?? null;
    try {
      // no writer of this process puts an object while the plan is taken and carried out
      const writers = [
        store,
        ...[...this.open.values()].map((w) => w.snapshots).filter((s): s is SnapshotStore => s !== null),
      ];
      const freed = await holdingAll(writers, async () => {
        const ids = [info.id, ...(await nestedForks(fs, `${layout.upper}/${FORKS_DIR}`))];
        const refs = ids.map((id) => `refs/heads/forks/${id}`);
        const others = await this.otherPackedRefs(info.id);
        const { planPrune } = await import('../prune.js');
        const plan = await planPrune(store.access, { refs, heads: [] }, others);
        for (const ref of refs)
          await fs.unlink(`${store.access.gitdir}/${ref}`).catch((e) => {
            if (!hasFsCode(e, 'ENOENT')) throw e;
          });
        await removeTree(fs, layout.privateDir);
        return (await plan.apply()).objects;
      });
      return { ...info, freed_objects: freed };
    } finally {
      await release?.();
    }
  }

  /** Commits named by the packed-refs the other forks keep for themselves (see layout's PER_BRANCH). */
  private async otherPackedRefs(dropping: string): Promise<string[]> {
    const out: string[] = [];
    for (const other of await this.list()) {
      if (other.id === dropping) continue;
      const layout = forkLayout(this.parent.toAbs, this.parent.store.access.gitdir, other.id);
      const text = await readFileOrNull(this.parent.fs, `${layout.privateDir}/packed-refs`);
      if (text) out.push(...(new TextDecoder().decode(text).match(/\b[0-9a-f]{40}\b/g) ?? []));
    }
    return out;
  }

  private openFork(info: ForkInfo, whiteouts: Set<string>): W & { readonly forkInfo: ForkInfo } {
    const { fs, toAbs, store } = this.parent;
    const layout = forkLayout(toAbs, store.access.gitdir, info.id);
    // the fork reads through to the tree of the snapshot it was made from
    const lower = new TreeCache(store.access, info.forked_tree);
    const forkFs = new ForkFs(
      fs,
      lower,
      (oid) => store.readBlob(oid),
      layout,
      whiteouts,
      () => fs.writeFile(`${layout.privateDir}/whiteouts.json`, JSON.stringify([...whiteouts])),
      Date.parse(info.created_at) || Date.now(),
    );
    const ws = this.make(forkFs, info) as W & { forkInfo: ForkInfo };
    ws.forkInfo = { ...info };
    this.open.set(info.id, ws);
    return ws;
  }

  private async readInfo(id: string): Promise<ForkInfo | null> {
    const bytes = await readFileOrNull(this.parent.fs, this.parent.toAbs(`${FORKS_DIR}/${id}/fork.json`));
    if (!bytes) return null;
    try {
      return JSON.parse(new TextDecoder().decode(bytes)) as ForkInfo;
    } catch {
      return null;
    }
  }

  private async writeInfo(info: ForkInfo): Promise<void> {
    const { fs, toAbs } = this.parent;
    await fs.writeFile(toAbs(`${FORKS_DIR}/${info.id}/fork.json`), JSON.stringify(info, null, 2));
  }
}

async function readBranchFile(fs: WorkspaceFs, path: string): Promise<string | null> {
  const bytes = await readFileOrNull(fs, path);
  const m = bytes && /^([0-9a-f]{40})\n?$/.exec(new TextDecoder().decode(bytes));
  return m ? m[1]! : null;
}

/** The ids of the forks below a fork's folder (forks of forks, at any depth). */
async function nestedForks(fs: WorkspaceFs, forksDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const id of await fs.readdir(forksDir).catch(() => [] as string[])) {
    out.push(id, ...(await nestedForks(fs, `${forksDir}/${id}/files/${FORKS_DIR}`)));
  }
  return out;
}

/** Run `work` inside every store's queue, so none of them writes meanwhile. */
function holdingAll<T>(stores: SnapshotStore[], work: () => Promise<T>): Promise<T> {
  const [first, ...rest] = stores;
  return first ? first.exclusive(() => holdingAll(rest, work)) : work();
}
