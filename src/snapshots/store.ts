import { hasFsCode } from '../fs/errors.js';
import { gitFsClient } from '../fs/git-client.js';
import type { WorkspaceFs } from '../fs/types.js';
import { ToolError } from '../contract/index.js';
import { readBranch, writeBranch, type BranchState } from './branch.js';
import { History, type CommitMeta, type SnapshotInfo } from './history.js';
import { SnapshotIgnore, type DEFAULT_SNAPSHOT_EXCLUDES } from './ignore.js';
import { readTyped } from './object-reader.js';
import type { ObjectSink, GitAccess } from './objects.js';
import { Scanner } from './rescan.js';
import { OtherProcesses, readHistory } from './store/catch-up.js';
import { CommitQueue, type CommitOutcome } from './store/commit-queue.js';
import { RepositoryLifecycle } from './store/lifecycle.js';
import { SpareFiles } from './store/spare-files.js';
import { damagedHistory, recoverView } from './store/view.js';
import { TreeCache } from './tree.js';

export type { CommitOutcome } from './store/commit-queue.js';
export { describePaths } from './store/commit-queue.js';
export { damagedHistory } from './store/view.js';

/** When a snapshot is taken: after each mutating call, once per batch, or only when asked. */
export type SnapshotWhen = 'call' | 'batch' | 'manual';

/** How a workspace keeps snapshots. */
export interface SnapshotOptions {
  /** after every mutating call (default), once per batch of overlapping calls, or only on request */
  when?: SnapshotWhen;
  /** the shadow gitdir, relative to the root; it must lie inside `.sandpit` (default `.sandpit/git`) */
  dir?: string;
  /** files larger than this are left out and reported (default 5 MiB) */
  maxFileBytes?: number;
  /**
   * folder names left out wherever they are, and listed as skipped (default
   * {@link DEFAULT_SNAPSHOT_EXCLUDES}: node_modules, build outputs, caches); `[]` keeps every folder
   */
  exclude?: readonly string[];
  /**
   * how many snapshots history keeps (default 1000). Older ones are cut off with git's `shallow`
   * file: they vanish from list_snapshots, undo and `git log`, but their objects stay on disk
   * until `git gc --prune=now` is run on the shadow repository.
   */
  keep?: number;
  /**
   * Commit after the call has answered (default false): the envelope comes back once the files
   * are written, and the next call, `rescan()`, the git verbs and `close()` wait for the commit,
   * so every call still sees the history of all calls before it. Suits a host whose caller thinks
   * between calls (`sandpit mcp` uses it). A crash in between leaves the change on disk, and the
   * next open snapshots it.
   */
  afterReply?: boolean;
  /** told when a snapshot fails (the call that made the change still succeeds): a host logs it where a person sees it */
  onError?: (error: unknown) => void;
}

/**
 * The shadow repository: real git objects on the workspace's own backend, in a gitdir of its
 * own, never a user's `.git`. This class is the store's face; its jobs live in `store/`, each
 * owning its own state: the lifecycle (opening, the commit an open without the lock deferred),
 * the catch-up with other processes, the commit queue (one commit at a time, the paths no
 * snapshot holds yet) and the spare files; the branch's compare-and-swap is `moveBranch`. What
 * they share is the loaded view below (history and tree), replaced only inside `exclusive`.
 */
export class SnapshotStore {
  /** when snapshots are taken */
  readonly when: SnapshotWhen;
  /** how many snapshots are kept */
  readonly keep: number;
  /** the shadow repository, in the shape isomorphic-git takes (its git verbs load on first use) */
  readonly access: GitAccess;
  /** replaced, not mutated, when `adopt` takes a fetched history */
  history = new History();
  /** the newest snapshot's tree, cached */
  tree: TreeCache;
  /**
   * The lock this root's processes share (the workspace's processLock), or null when this process
   * is alone. With one, an open that does not hold it never commits: a read that opens first
   * leaves the commit of what changed while closed to the next change, which holds the lock.
   */
  readonly sharedLock: {
    /** wait for the lock; resolves to the function that lets it go */
    acquire(): Promise<() => Promise<void>>;
    /** how many times this process took it afresh: while the count stays, no other process committed */
    readonly takes?: number;
  } | null;
  /** see {@link SnapshotOptions.onError} */
  readonly onError: ((error: unknown) => void) | undefined;
  private readonly scanner: Scanner;
  private readonly commits: CommitQueue;
  private readonly lifecycle: RepositoryLifecycle;
  private readonly others: OtherProcesses;
  private readonly spares: SpareFiles;
  private readonly rescanListeners = new Set<(changed: string[]) => void>();

  /**
   * @param fs - the workspace's backend, which also holds the shadow repository
   * @param toAbs - the backend path of a root-relative path
   * @param options - when to snapshot, where the gitdir is, and what to keep
   * @param reads - what the workspace's policy lets reads through (snapshots keep no more than
   *   read_file returns), and the lock shared with other processes on this root, if any
   */
  constructor(
    readonly fs: WorkspaceFs,
    readonly toAbs: (rel: string) => string,
    options: SnapshotOptions = {},
    reads: { allowHardLinks?: boolean; sharedLock?: SnapshotStore['sharedLock'] } = {},
  ) {
    const dir = options.dir ?? '.sandpit/git';
    if (!/^\.sandpit\/[^/]/.test(dir) || dir.split('/').includes('..'))
      throw new Error("snapshots.dir must lie inside '.sandpit'");
    this.when = options.when ?? 'call';
    this.onError = options.onError;
    this.keep = Math.max(1, options.keep ?? 1000);
    this.sharedLock = reads.sharedLock ?? null;
    this.access = { fs: gitFsClient(fs), gitdir: toAbs(dir), cache: {} };
    this.tree = new TreeCache(this.access);
    this.scanner = new Scanner(
      fs,
      toAbs,
      new SnapshotIgnore(fs, toAbs, options.exclude),
      options.maxFileBytes ?? 5 * 1024 * 1024,
      reads.allowHardLinks === true,
    );
    this.spares = new SpareFiles(fs, `${this.access.gitdir}/objects`);
    this.commits = new CommitQueue(this, this.scanner, this.spares);
    this.lifecycle = new RepositoryLifecycle(this, this.scanner, this.commits, this.sharedLock, () => this.reset());
    this.others = new OtherProcesses(this, this.scanner, this.sharedLock);
  }

  /** paths the tools changed that no snapshot holds yet */
  get pending(): ReadonlySet<string> {
    return this.commits.pendingPaths;
  }

  /** The tools changed these paths: the next commit of pending paths takes them. */
  notePending(paths: Iterable<string>): void {
    this.commits.notePending(paths);
  }

  /** The bytes a tool just wrote to `rel`: the next commit hashes them instead of reading the file back. */
  noteWritten(rel: string, bytes: Uint8Array): void {
    this.scanner.noteWritten(rel, bytes);
  }

  /**
   * Open the shadow repository, creating it with a first snapshot of the whole workspace.
   * `held`: the caller holds {@link sharedLock} (a change); without it the open writes nothing
   * but a new repository's first commit, for which it takes the lock.
   */
  open(held = false): Promise<void> {
    return this.lifecycle.open(held);
  }

  /**
   * Ready the repository for a change made holding {@link sharedLock}: open it, take the commits
   * other processes made, then commit what changed while it was closed if a read opened it.
   */
  async openHeld(): Promise<void> {
    await this.open(true);
    await this.catchUp();
    await this.commitDeferredOpen();
  }

  /**
   * Commit what changed while the workspace was closed, when a read opened it and so could not
   * (call it holding {@link sharedLock}, after catchUp, before the change).
   */
  commitDeferredOpen(): Promise<void> {
    return this.lifecycle.commitDeferredOpen();
  }

  /**
   * Take the commits another process made since this one last looked (call it holding the
   * process lock): the branch's new commits are appended to history, and the trees are read
   * from the new head. Reads one small file when nothing changed, and nothing while this process
   * has held the lock since it last looked.
   */
  catchUp(): Promise<void> {
    return this.others.catchUp(
      () => this.open(),
      (work) => this.exclusive(work),
    );
  }

  /**
   * Commit the pending paths (plus `paths`); nothing is written when nothing changed. With
   * `only`, commit just those paths (one call's own change) and whatever an earlier failed
   * commit left behind, so concurrent calls each get their own snapshot. A `title` prefix makes
   * the subject name the paths actually taken (`prefix: a, b, and 3 more`).
   */
  async commitPending(
    meta: Omit<CommitMeta, 'files_changed'> & { title?: string },
    paths: string[] = [],
    force = false,
    only?: string[],
  ): Promise<CommitOutcome> {
    await this.open();
    return this.exclusive(() => this.commits.commitPending(meta, paths, force, only));
  }

  /** Find changes made behind the tools' back (stat cache: unchanged files are not re-read). */
  async rescan(
    meta: Omit<CommitMeta, 'files_changed'> = { message: 'Changes found by rescan' },
    force = false,
  ): Promise<CommitOutcome> {
    const outcome = await this.commitPending(meta, [''], force);
    if (outcome.changed.length > 0) {
      for (const listener of this.rescanListeners) {
        try {
          listener(outcome.changed);
        } catch {
          /* a host's listener cannot fail the rescan */
        }
      }
    }
    return outcome;
  }

  /** Hear the paths each rescan found changed (a process's writes, the user's edits); returns the way to stop. */
  onRescan(listener: (changed: string[]) => void): () => void {
    this.rescanListeners.add(listener);
    return () => {
      this.rescanListeners.delete(listener);
    };
  }

  /** A snapshot by id or unique prefix, or a NOT_FOUND the model can act on. */
  async find(id: string): Promise<SnapshotInfo> {
    await this.open();
    const hit = this.history.find(id.trim());
    if (hit === 'ambiguous') {
      throw new ToolError('INVALID_ARGUMENTS', `snapshot id '${id}' matches more than one snapshot`, {
        hint: 'Give more of the id, as list_snapshots shows it.',
      });
    }
    if (!hit) {
      throw new ToolError(
        'NOT_FOUND',
        `there is no snapshot '${id.slice(0, 64)}' (it may be older than the history kept)`,
        {
          hint: 'Call list_snapshots to see the ids.',
        },
      );
    }
    return hit;
  }

  /** Newest first. */
  async list(limit: number): Promise<SnapshotInfo[]> {
    await this.open();
    return this.history.chain.slice(-limit).reverse();
  }

  /** The bytes of a blob in the shadow repository. */
  async readBlob(oid: string): Promise<Uint8Array> {
    try {
      return await readTyped(this.access, oid, 'blob');
    } catch (error) {
      // a snapshot names this object, so its absence is damage, not a missing workspace path
      if (hasFsCode(error, 'EIO', 'EACCES', 'EPERM', 'ENOSPC')) throw error;
      throw damagedHistory(`object ${oid.slice(0, 12)} of a snapshot is missing or corrupt`);
    }
  }

  /** Run `work` alone: commits, restores and opening never interleave. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.commits.exclusive(work);
  }

  /**
   * Prepare empty object files ahead of time, while idle, so a snapshot on a busy disk does not
   * wait for new inodes (see Spares). For hosts that call `releaseSpares` when they close;
   * does nothing on backends that cannot write in place.
   */
  useSpares(): void {
    this.spares.want(() => this.lifecycle.started);
  }

  /**
   * Stop watching the backend for changes until the next rescan of everything: for a clone,
   * whose checkout the watch would hear file by file although `adopt` makes the next rescan look
   * at everything anyway. That rescan watches again.
   */
  pauseWatching(): void {
    this.scanner.dropFeed();
  }

  /** Stop watching the backend for changes (the workspace closed): later rescans look at every file. */
  stopWatching(): void {
    this.scanner.close();
  }

  /** Stop preparing spares and remove the unused ones. */
  releaseSpares(): Promise<void> {
    return this.spares.release();
  }

  /** Write a commit on top of the head (with the sink's other objects), move the branch, apply retention. */
  writeCommit(tree: string, meta: CommitMeta, sink?: ObjectSink): Promise<SnapshotInfo> {
    return this.commits.writeCommit(tree, meta, sink);
  }

  /** Where the branch points on disk now (see readBranch). */
  readBranch(): Promise<BranchState> {
    return readBranch(this.fs, this.access.gitdir);
  }

  /**
   * Take `head`, a commit already in the gitdir (fetched by a git clone or pull, whose files the
   * caller has written), as the branch head: history and trees are read again from it, and the
   * stat cache is dropped. Call it inside `exclusive`.
   */
  async adopt(head: string): Promise<void> {
    const found = await readHistory(this, head);
    await writeBranch(this.fs, this.access.gitdir, head);
    this.history = new History();
    for (const info of found) this.history.push(info);
    this.tree = new TreeCache(this.access, this.history.head!.tree);
    this.commits.dropPending();
    this.scanner.forget('');
    this.lifecycle.adopted();
  }

  /**
   * Forget everything loaded, as if never opened: for a failed clone that removed the gitdir it
   * made, so the next open starts from what the backend holds. Call it inside `exclusive`.
   */
  reset(): void {
    this.history = new History();
    this.tree = new TreeCache(this.access);
    this.commits.reset();
    this.scanner.forget('');
    this.lifecycle.reset();
  }

  /**
   * After a failed commit or restore the cached trees may name objects that were never written:
   * fall back to the head's tree, read lazily from git, and re-read files on the next pass.
   */
  recover(): void {
    recoverView(this, this.scanner);
  }

  /** Used by restore: the stat cache knows nothing true about rewritten paths. */
  forget(paths: string[]): void {
    for (const p of paths) this.scanner.forget(p);
  }
}
