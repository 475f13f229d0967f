import type { ChangeFeed, WorkspaceFs } from '../fs/types.js';
import { RESERVED_TOP_LEVEL } from '../workspace/paths.js';
import type { SkippedFile } from './skipped.js';
import type { TreeCache } from './tree.js';

/**
 * What narrows a rescan of the whole workspace to the paths the backend's change feed saw (see
 * WorkspaceFs.watchChanges), where the backend keeps one. The feed is opened with the first whole
 * pass and kept until close. A whole pass runs instead whenever the feed cannot vouch (not ready,
 * overflowed, failed), when no whole pass has completed since, after the stat cache was dropped
 * (history taken from another process, a restore of everything, a failed pass), and when history
 * holds something below a folder the feed does not look into. A narrowed pass also reports what
 * the last whole pass skipped outside the paths it looked at, so both answer the same.
 */
export class FeedNarrowing {
  private feed: ChangeFeed | null | undefined;
  private closed = false;
  /** the skipped files of the last pass that looked at everything, kept up to date since; null: none completed */
  private skipped: SkippedFile[] | null = null;
  /** paths whose stat cache entry was dropped: looked at by the next narrowed pass */
  private readonly recheck = new Set<string>();

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly rootAbs: () => string,
    private readonly skip: readonly string[],
  ) {}

  /** The paths a pass over everything has to look at, or null: everything. */
  async narrow(tree: TreeCache): Promise<string[] | null> {
    if (this.closed || !this.fs.watchChanges) return null;
    if (this.feed === undefined) {
      this.feed = null;
      try {
        this.feed = this.fs.watchChanges(this.rootAbs(), { skip: this.skip, scratch: RESERVED_TOP_LEVEL[0] }) ?? null;
      } catch {
        /* no feed: every pass looks at everything */
      }
    }
    if (this.feed === null) return null;
    const taken = await this.feed.take();
    if (taken === null || this.skipped === null) return this.whole();
    for (const folder of this.feed.unwatched?.() ?? []) if ((await tree.get(folder)) !== undefined) return this.whole();
    const paths = new Set([...taken, ...this.recheck]);
    this.recheck.clear();
    // a changed .gitignore may leave out or take in anything below its folder ('' for the root's)
    for (const path of paths)
      if (path === '.gitignore' || path.endsWith('/.gitignore')) paths.add(path.slice(0, -'.gitignore'.length - 1));
    return [...paths];
  }

  /** The stat cache forgot `rel` (and below), or everything (''): the next pass looks there again. */
  forgot(rel: string): void {
    if (rel === '') this.skipped = null;
    else this.recheck.add(rel);
  }

  /** A pass over everything ended: `skipped` is what it found. */
  walked(skipped: SkippedFile[]): void {
    this.skipped = [...skipped];
  }

  /** A narrowed pass over `roots` ended: add what the last whole pass skipped elsewhere to `skipped`. */
  narrowed(roots: readonly string[], skipped: SkippedFile[]): void {
    const looked = new Set(roots);
    const covered = (path: string) => {
      if (looked.has(path)) return true;
      for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1))
        if (looked.has(path.slice(0, at))) return true;
      return false;
    };
    const kept = (this.skipped ?? []).filter((s) => !covered(s.path));
    skipped.unshift(...kept);
    this.skipped = [...skipped];
  }

  /** A pass failed part-way: what it took from the feed is lost, so the next one looks at everything. */
  failed(): void {
    this.skipped = null;
  }

  /**
   * Close the feed until the next pass over everything, which opens a new one (and, its first take
   * answering null, looks at everything). For a change whose next pass looks at everything anyway
   * (a clone's checkout, after which history is taken afresh): the feed would hear each of its
   * files to no purpose, on a thread that shares the machine with the change itself.
   */
  drop(): void {
    if (this.closed) return;
    this.feed?.close();
    this.feed = undefined;
    this.whole();
    this.skipped = null;
  }

  /** Stop watching (the workspace closed); later passes look at everything. */
  close(): void {
    this.closed = true;
    this.feed?.close();
    this.feed = null;
  }

  private whole(): null {
    this.recheck.clear();
    return null;
  }
}
