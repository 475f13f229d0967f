import { moveBranch } from '../branch.js';
import { commitText } from '../commit-text.js';
import { formatMessage, parseCommit, type CommitMeta, type SnapshotInfo } from '../history.js';
import { ObjectSink, type LooseWrites } from '../objects.js';
import { describeSkipped, type Scanner, type SkippedFile } from '../rescan.js';
import { EMPTY_TREE } from '../tree.js';
import type { SpareFiles } from './spare-files.js';
import { recoverView, type RepositoryView } from './view.js';

/** What one commit pass did. */
export interface CommitOutcome {
  /** the new snapshot, or null when nothing had changed */
  snapshot: SnapshotInfo | null;
  /** the paths the snapshot changed */
  changed: string[];
  /** files left out (over the size cap) */
  skipped: SkippedFile[];
}

const SIGNATURE = { name: 'Sandpit', email: 'sandpit@localhost' };

/**
 * The commit queue: commits, restores and opening run one at a time through `exclusive`, and
 * each commit writes only the blobs of changed files and the trees above them (see TreeCache and
 * Scanner). Owns the paths no snapshot holds yet: a failed commit gives its paths back, so the
 * next commit, whoever makes it, takes them, and a change is never lost from history.
 */
export class CommitQueue {
  private queue: Promise<unknown> = Promise.resolve();
  /** paths the tools changed that no snapshot holds yet */
  private readonly pending = new Set<string>();
  /** paths a failed commit gave back: the next commit takes them, even one limited to its own paths */
  private readonly stranded = new Set<string>();
  /** objects/xx folders seen or made: no mkdir is tried for them */
  private readonly fanOutDirs = new Set<string>();

  constructor(
    private readonly view: RepositoryView,
    private readonly scanner: Scanner,
    private readonly spares: SpareFiles,
  ) {}

  /** Run `work` alone: commits, restores and opening never interleave. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** the paths the tools changed that no snapshot holds yet */
  get pendingPaths(): ReadonlySet<string> {
    return this.pending;
  }

  /** The tools changed these paths: the next commit that takes pending paths takes them. */
  notePending(paths: Iterable<string>): void {
    for (const p of paths) this.pending.add(p);
  }

  /**
   * Commit the pending paths (plus `paths`), or with `only` just those and whatever an earlier
   * failed commit left behind; on failure every path taken goes back. Call it inside `exclusive`.
   */
  async commitPending(
    meta: Omit<CommitMeta, 'files_changed'> & { title?: string },
    paths: string[],
    force: boolean,
    only: string[] | undefined,
  ): Promise<CommitOutcome> {
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
      recoverView(this.view, this.scanner);
      throw error;
    }
  }

  /**
   * Commit `paths` as they are on the backend; nothing is written when nothing changed (unless
   * `force`). `first`: a new repository's first commit, written as one pack (see ObjectSink).
   * Call it inside `exclusive`.
   */
  async commit(
    paths: string[],
    meta: Omit<CommitMeta, 'files_changed'>,
    force: boolean,
    first = false,
  ): Promise<CommitOutcome> {
    const { view } = this;
    const sink = new ObjectSink(view.access, { ...this.looseWrites(), packAll: first });
    const out = { changed: new Set<string>(), skipped: [] as SkippedFile[] };
    await this.scanner.apply(paths, view.tree, sink, out);
    const tree = await view.tree.write(sink);
    const changed = [...out.changed].sort();
    const head = view.history.head;
    if (!force && head && tree === head.tree) {
      await sink.finish();
      return { snapshot: null, changed, skipped: out.skipped };
    }
    const skipped = out.skipped.map(describeSkipped);
    const snapshot = await this.writeCommit(tree, { ...meta, files_changed: changed.length, skipped }, sink);
    this.spares.refill();
    return { snapshot, changed, skipped: out.skipped };
  }

  /** Write a commit on top of the head (with the sink's other objects), move the branch, apply retention. */
  async writeCommit(
    tree: string,
    meta: CommitMeta,
    sink = new ObjectSink(this.view.access, this.looseWrites()),
  ): Promise<SnapshotInfo> {
    const { view } = this;
    const head = view.history.head;
    const who = { ...SIGNATURE, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
    const commit = { message: formatMessage(meta), tree, parent: head ? [head.oid] : [], author: who, committer: who };
    // a tree cache starts at the empty tree without writing it; git fsck wants every tree a commit names
    if (tree === EMPTY_TREE) await sink.tree([]);
    const oid = await sink.commit(commitText(commit));
    await sink.finish();
    await moveBranch(view.fs, view.access.gitdir, oid, head?.oid ?? null);
    const info = parseCommit(oid, commit);
    view.history.push(info);
    const boundary = view.history.trim(view.keep);
    if (boundary) await this.writeSmall(`${view.access.gitdir}/shallow`, `${boundary.oid}\n`);
    return info;
  }

  /** Drop the pending paths: a fetched history was adopted, and the next rescan looks at everything. */
  dropPending(): void {
    this.pending.clear();
  }

  /** Forget every path and folder known, as if never opened. */
  reset(): void {
    this.pending.clear();
    this.stranded.clear();
    this.fanOutDirs.clear();
  }

  private looseWrites(): LooseWrites {
    return { spares: this.spares.current, dirs: this.fanOutDirs };
  }

  /** A one-line file of the gitdir (the shallow boundary): in place when the backend can, else a whole write. */
  private async writeSmall(path: string, text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text);
    const { fs } = this.view;
    if (!(await fs.writeInPlace?.(path, bytes, bytes.length))) await fs.writeFile(path, bytes);
  }
}

/** Paths for a commit subject: all of them when few, else the first five and a count. */
export function describePaths(paths: string[]): string {
  const sorted = [...paths].sort();
  return sorted.slice(0, 5).join(', ') + (sorted.length > 5 ? `, and ${sorted.length - 5} more` : '');
}
