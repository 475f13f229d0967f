// Over 400 lines: the repository's lifecycle, the catch-up with other processes, the commit queue and
// the branch compare-and-swap still share this module's state; issue 37 splits them by job.

import { hasFsCode } from '../fs/errors.js';
import { gitFsClient } from '../fs/git-client.js';
import { readFileOrNull } from '../fs/helpers.js';
import type { WorkspaceFs } from '../fs/types.js';
import { ToolError } from '../contract/index.js';
import { BRANCH, FIRST_OPEN_MARK, initRepository, readBranch, writeBranch, type BranchState } from './branch.js';
import { commitText } from './commit-text.js';
import { History, formatMessage, parseCommit, type CommitMeta, type SnapshotInfo } from './history.js';
import { SnapshotIgnore, type DEFAULT_SNAPSHOT_EXCLUDES } from './ignore.js';
import { readCommit, readTyped } from './object-reader.js';
import { ObjectSink, type GitAccess, type LooseWrites } from './objects.js';
import { describeSkipped, Scanner, type SkippedFile } from './rescan.js';
import type { Spares } from './spares.js';
import { EMPTY_TREE, TreeCache } from './tree.js';

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

/** What one commit pass did. */
export interface CommitOutcome {
  /** the new snapshot, or null when nothing had changed */
  snapshot: SnapshotInfo | null;
  /** the paths the snapshot changed */
  changed: string[];
  /** files left out (over the size cap) */
  skipped: SkippedFile[];
}

const OPENED_CHANGES = 'Changes found when the workspace was opened';
const SIGNATURE = { name: 'Sandpit', email: 'sandpit@localhost' };

/**
 * The shadow repository: real git objects on the workspace's own backend, in a gitdir of its
 * own, never a user's `.git`. Commits are serialised through one queue; each writes only the
 * blobs of changed files and the trees above them (see TreeCache and Scanner).
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
  /** paths the tools changed that no snapshot holds yet */
  readonly pending = new Set<string>();
  /** paths a failed commit gave back: the next commit takes them, whoever makes it */
  private readonly stranded = new Set<string>();
  /** the newest snapshot's tree, cached */
  tree: TreeCache;
  private readonly scanner: Scanner;
  private opening: Promise<void> | null = null;
  private spares: Spares | null = null;
  private sparesWanted = false;
  /** objects/xx folders seen or made: no mkdir is tried for them */
  private readonly fanOutDirs = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * The lock this root's processes share (the workspace's processLock), or null when this process
   * is alone. With one, an open that does not hold it never commits: a read that opens first
   * leaves the commit of what changed while closed to the next change, which holds the lock.
   */
  sharedLock: {
    /** wait for the lock; resolves to the function that lets it go */
    acquire(): Promise<() => Promise<void>>;
    /** how many times this process took it afresh: while the count stays, no other process committed */
    readonly takes?: number;
  } | null = null;
  /** the lock's take count when this process last took the other processes' commits */
  private caughtUpAt: number | null = null;
  /** an open without the lock found history but made no commit of the changes since (see commitDeferredOpen) */
  private openUncommitted = false;

  /** see {@link SnapshotOptions.onError} */
  readonly onError: ((error: unknown) => void) | undefined;

  /**
   * @param fs - the workspace's backend, which also holds the shadow repository
   * @param toAbs - the backend path of a root-relative path
   * @param options - when to snapshot, where the gitdir is, and what to keep
   * @param reads - what the workspace's policy lets reads through: snapshots keep no more than read_file returns
   */
  constructor(
    readonly fs: WorkspaceFs,
    readonly toAbs: (rel: string) => string,
    options: SnapshotOptions = {},
    reads: { allowHardLinks?: boolean } = {},
  ) {
    const dir = options.dir ?? '.sandpit/git';
    if (!/^\.sandpit\/[^/]/.test(dir) || dir.split('/').includes('..'))
      throw new Error("snapshots.dir must lie inside '.sandpit'");
    this.when = options.when ?? 'call';
    this.onError = options.onError;
    this.keep = Math.max(1, options.keep ?? 1000);
    this.access = { fs: gitFsClient(fs), gitdir: toAbs(dir), cache: {} };
    this.tree = new TreeCache(this.access);
    this.scanner = new Scanner(
      fs,
      toAbs,
      new SnapshotIgnore(fs, toAbs, options.exclude),
      options.maxFileBytes ?? 5 * 1024 * 1024,
      reads.allowHardLinks === true,
    );
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
    this.opening ??= this.exclusive(() => this.load(held || this.sharedLock === null)).catch((error) => {
      this.opening = null;
      throw error;
    });
    return this.opening;
  }

  /**
   * Commit what changed while the workspace was closed, when a read opened it and so could not
   * (call it holding {@link sharedLock}, after catchUp, before the change).
   */
  async commitDeferredOpen(): Promise<void> {
    await this.exclusive(async () => {
      if (!this.openUncommitted) return;
      this.openUncommitted = false;
      try {
        await this.commit([''], { message: OPENED_CHANGES }, false);
      } catch (error) {
        this.openUncommitted = true;
        this.recover();
        throw error;
      }
    });
  }

  /**
   * Take the commits another process made since this one last looked (call it holding the
   * process lock): the branch's new commits are appended to history, and the trees are read
   * from the new head. Reads one small file when nothing changed, and nothing while this process
   * has held the lock since it last looked.
   */
  async catchUp(): Promise<void> {
    const takes = this.sharedLock?.takes;
    if (takes !== undefined && takes === this.caughtUpAt) return;
    await this.open();
    await this.exclusive(async () => {
      const onDisk = await this.readBranch();
      const known = this.history.head?.oid;
      if (onDisk.kind !== 'ok')
        throw damagedHistory(onDisk.kind === 'damaged' ? onDisk.why : 'the branch refs/heads/main is gone');
      if (onDisk.oid === known) return;
      const fresh: SnapshotInfo[] = [];
      let oid: string | null = onDisk.oid;
      while (oid && oid !== known && fresh.length < this.keep) {
        const at: string = oid;
        const commit = await readCommit(this.access, at).catch(() => {
          throw damagedHistory(`commit ${at.slice(0, 12)} is missing or corrupt`);
        });
        fresh.push(parseCommit(at, commit));
        oid = commit.parent[0] ?? null;
      }
      if (oid !== known) {
        this.history = new History();
        for (const info of await this.readHistory(onDisk.oid)) this.history.push(info);
      } else {
        for (const info of fresh.reverse()) this.history.push(info);
        this.history.trim(this.keep);
      }
      this.tree = new TreeCache(this.access, this.history.head!.tree);
      this.scanner.forget('');
    });
    if (takes !== undefined) this.caughtUpAt = takes;
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
    return this.exclusive(async () => {
      const taken = only ? [...new Set([...only, ...this.stranded])] : [...this.pending, ...paths];
      if (only) for (const p of taken) this.pending.delete(p);
      else this.pending.clear();
      this.stranded.clear();
      const { title, ...rest } = meta;
      const message = title === undefined ? rest.message : `${title}: ${describePaths(taken.filter((p) => p !== ''))}`;
      try {
        return await this.commit(taken, { ...rest, message }, force);
      } catch (error) {
        for (const p of taken) {
          this.pending.add(p);
          this.stranded.add(p);
        }
        this.recover();
        throw error;
      }
    });
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

  private readonly rescanListeners = new Set<(changed: string[]) => void>();

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
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** `first`: a new repository's first commit, written as one pack (see ObjectSink). */
  private async commit(
    paths: string[],
    meta: Omit<CommitMeta, 'files_changed'>,
    force: boolean,
    first = false,
  ): Promise<CommitOutcome> {
    const sink = new ObjectSink(this.access, { ...this.looseWrites(), packAll: first });
    const out = { changed: new Set<string>(), skipped: [] as SkippedFile[] };
    await this.scanner.apply(paths, this.tree, sink, out);
    const tree = await this.tree.write(sink);
    const changed = [...out.changed].sort();
    const head = this.history.head;
    if (!force && head && tree === head.tree) {
      await sink.finish();
      return { snapshot: null, changed, skipped: out.skipped };
    }
    const skipped = out.skipped.map(describeSkipped);
    const snapshot = await this.writeCommit(tree, { ...meta, files_changed: changed.length, skipped }, sink);
    this.spares?.refill();
    return { snapshot, changed, skipped: out.skipped };
  }

  /**
   * Prepare empty object files ahead of time, while idle, so a snapshot on a busy disk does not
   * wait for new inodes (see Spares). For hosts that call `releaseSpares` when they close;
   * does nothing on backends that cannot write in place.
   */
  useSpares(): void {
    // Loaded here, so a browser worker (which never asks for spares) does not carry them.
    this.sparesWanted = true;
    void import('./spares.js').then(({ Spares }) => {
      if (!this.sparesWanted || this.spares || !Spares.supported(this.fs)) return;
      this.spares = new Spares(this.fs, `${this.access.gitdir}/objects`);
      if (this.opening)
        void this.opening.then(
          () => this.spares?.refill(),
          () => {},
        );
    });
  }

  private looseWrites(): LooseWrites {
    return { spares: this.spares, dirs: this.fanOutDirs };
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
  async releaseSpares(): Promise<void> {
    this.sparesWanted = false;
    const spares = this.spares;
    this.spares = null;
    await spares?.release();
  }

  /** Write a commit on top of the head (with the sink's other objects), move the branch, apply retention. */
  async writeCommit(
    tree: string,
    meta: CommitMeta,
    sink = new ObjectSink(this.access, this.looseWrites()),
  ): Promise<SnapshotInfo> {
    const head = this.history.head;
    const who = { ...SIGNATURE, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
    const commit = { message: formatMessage(meta), tree, parent: head ? [head.oid] : [], author: who, committer: who };
    // a tree cache starts at the empty tree without writing it; git fsck wants every tree a commit names
    if (tree === EMPTY_TREE) await sink.tree([]);
    const oid = await sink.commit(commitText(commit));
    await sink.finish();
    await this.moveBranch(oid, head?.oid ?? null);
    const info = parseCommit(oid, commit);
    this.history.push(info);
    const boundary = this.history.trim(this.keep);
    if (boundary) await this.writeSmall(`${this.access.gitdir}/shallow`, `${boundary.oid}\n`);
    return info;
  }

  /**
   * Point the branch at `oid`. The ref file keeps its size from one commit to the next, so a
   * backend that can overwrite a small file in place spares a temporary file and a rename per
   * snapshot; otherwise (first commit, a ref git packed away) the whole file is written.
   */
  private async moveBranch(oid: string, expected: string | null): Promise<void> {
    const { gitdir } = this.access;
    // Compare-and-swap: a branch some other process moved since this one read it is never
    // overwritten (that would orphan its commits); the commit stays unreferenced and the call says so.
    if (expected !== null) {
      const now = await this.readBranch();
      if (now.kind !== 'ok' || now.oid !== expected) {
        throw new ToolError(
          'IO_ERROR',
          'the snapshot history moved underneath this process (another process committed without the workspace lock)',
          {
            hint: 'Open the workspace through one Sandpit host at a time, or through hosts that share the workspace lock; then retry.',
          },
        );
      }
    }
    const line = new TextEncoder().encode(`${oid}\n`);
    if (await this.fs.writeInPlace?.(`${gitdir}/${BRANCH}`, line, line.length)) return;
    await writeBranch(this.fs, gitdir, oid);
  }

  /** A one-line file of the gitdir (the shallow boundary): in place when the backend can, else a whole write. */
  private async writeSmall(path: string, text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text);
    if (!(await this.fs.writeInPlace?.(path, bytes, bytes.length))) await this.fs.writeFile(path, bytes);
  }

  /** `mayWrite`: this process may move the branch now (it holds the shared lock, or there is none). */
  private async load(mayWrite: boolean): Promise<void> {
    const { gitdir } = this.access;
    const branch = await this.readBranch();
    if (!mayWrite && branch.kind !== 'ok' && branch.kind !== 'damaged') {
      // a new repository: made under the lock, and looked for again there (another process may have just made it)
      const release = await this.sharedLock!.acquire();
      try {
        return await this.load(true);
      } finally {
        await release();
      }
    }
    if (branch.kind === 'damaged') throw damagedHistory(branch.why);
    if (branch.kind === 'ok') {
      await readCommit(this.access, branch.oid).catch(() => {
        throw damagedHistory(`the branch names commit ${branch.oid.slice(0, 12)}, which is missing or corrupt`);
      });
      // a mark left by a kill just after the first commit: with it, a ref lost later would pass for a cut first open
      if (mayWrite) await this.fs.unlink(`${gitdir}/${FIRST_OPEN_MARK}`).catch(() => {});
    }
    const head = branch.kind === 'ok' ? branch.oid : null;
    if (!head) {
      // a first open cut off before its first commit left a repository with no history to keep
      if (branch.kind === 'absent' && branch.cutFirstOpen) await removeAll(this.fs, gitdir);
      await this.fs.mkdir(this.toAbs('.sandpit'), { recursive: true }).catch((e) => {
        if (!hasFsCode(e, 'EEXIST')) throw e;
      });
      // The user's own git (and their editors) should not see Sandpit's history as project files.
      await this.fs.writeFile(this.toAbs('.sandpit/.gitignore'), new TextEncoder().encode('*\n'));
      // the mark goes in before HEAD does, so no repository exists without it until its first commit lands
      await this.fs.mkdir(gitdir, { recursive: true }).catch((e) => {
        if (!hasFsCode(e, 'EEXIST')) throw e;
      });
      await this.fs.writeFile(`${gitdir}/${FIRST_OPEN_MARK}`, new Uint8Array(0));
      const made = await initRepository(this.fs, gitdir);
      try {
        // a repository made here has its pack folder; one an earlier open left may not
        if (!made)
          await this.fs.mkdir(`${gitdir}/objects/pack`, { recursive: true }).catch((e) => {
            if (!hasFsCode(e, 'EEXIST')) throw e;
          });
        await this.commit([''], { message: 'Workspace opened' }, true, true);
        await this.fs.unlink(`${gitdir}/${FIRST_OPEN_MARK}`);
      } catch (error) {
        // A repository without its first commit would read as damaged next time: make none at all.
        await removeAll(this.fs, gitdir).catch(() => {});
        this.reset();
        throw error;
      }
      return;
    }
    for (const info of await this.readHistory(head)) this.history.push(info);
    this.tree = new TreeCache(this.access, this.history.head!.tree);
    if (mayWrite) await this.commit([''], { message: OPENED_CHANGES }, false);
    else this.openUncommitted = true;
  }

  /** Where the branch points on disk now (see readBranch). */
  readBranch(): Promise<BranchState> {
    return readBranch(this.fs, this.access.gitdir);
  }

  /** The snapshots from `head` back, oldest first: at most `keep`, and none past a `shallow` cut. */
  private async readHistory(head: string): Promise<SnapshotInfo[]> {
    const { gitdir } = this.access;
    const cut = await readFileOrNull(this.fs, `${gitdir}/shallow`);
    const shallow = new Set(cut ? new TextDecoder().decode(cut).split('\n').filter(Boolean) : []);
    const found: SnapshotInfo[] = [];
    for (let oid: string | null = head; oid && found.length < this.keep; ) {
      const at: string = oid;
      const commit = await readCommit(this.access, at).catch(() => {
        throw damagedHistory(`commit ${at.slice(0, 12)} in the history is missing or corrupt`);
      });
      found.push(parseCommit(at, commit));
      oid = shallow.has(at) ? null : (commit.parent[0] ?? null);
    }
    return found.reverse();
  }

  /**
   * Take `head`, a commit already in the gitdir (fetched by a git clone or pull, whose files the
   * caller has written), as the branch head: history and trees are read again from it, and the
   * stat cache is dropped. Call it inside `exclusive`.
   */
  async adopt(head: string): Promise<void> {
    const found = await this.readHistory(head);
    await writeBranch(this.fs, this.access.gitdir, head);
    this.history = new History();
    for (const info of found) this.history.push(info);
    this.tree = new TreeCache(this.access, this.history.head!.tree);
    this.pending.clear();
    this.scanner.forget('');
    this.opening = Promise.resolve();
  }

  /**
   * Forget everything loaded, as if never opened: for a failed clone that removed the gitdir it
   * made, so the next open starts from what the backend holds. Call it inside `exclusive`.
   */
  reset(): void {
    this.history = new History();
    this.tree = new TreeCache(this.access);
    this.pending.clear();
    this.stranded.clear();
    this.scanner.forget('');
    this.fanOutDirs.clear();
    this.opening = null;
  }

  /**
   * After a failed commit or restore the cached trees may name objects that were never written:
   * fall back to the head's tree, read lazily from git, and re-read files on the next pass.
   */
  recover(): void {
    const head = this.history.head;
    if (head) this.tree.reset(head.tree);
    this.scanner.forget('');
  }

  /** Used by restore: the stat cache knows nothing true about rewritten paths. */
  forget(paths: string[]): void {
    for (const p of paths) this.scanner.forget(p);
  }
}

async function removeAll(fs: WorkspaceFs, abs: string): Promise<void> {
  const stat = await fs.lstat(abs).catch(() => null);
  if (!stat) return;
  if (stat.type !== 'dir') {
    await fs.unlink(abs);
    return;
  }
  for (const name of await fs.readdir(abs)) await removeAll(fs, `${abs}/${name}`);
  await fs.rmdir(abs);
}

/** Paths for a commit subject: all of them when few, else the first five and a count. */
export function describePaths(paths: string[]): string {
  const sorted = [...paths].sort();
  return sorted.slice(0, 5).join(', ') + (sorted.length > 5 ? `, and ${sorted.length - 5} more` : '');
}

/** History that cannot be read is an error naming the damage and the repair, never a fresh start. */
export function damagedHistory(why: string): ToolError {
  return new ToolError('IO_ERROR', `the snapshot history is damaged: ${why}`, {
    hint: 'Run `sandpit doctor --repair --root <folder>` to reset the history to its newest intact snapshot; the files themselves were not changed.',
  });
}
