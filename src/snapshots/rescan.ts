// Over 400 lines: the whole pass and the pass narrowed by a change feed share their per-path checks, kept side by side so they cannot drift apart.
import { hasFsCode } from '../fs/errors.js';
import { removeIfPresent } from '../fs/helpers.js';
import type { FsStat, PlainFile, WorkspaceFs } from '../fs/types.js';
import { unreadable, type SkippedFile } from './skipped.js';
import { walkKept, type ToExamine } from './scan-walk.js';
import { RACY_MS, type SnapshotIgnore } from './ignore.js';
import { FeedNarrowing } from './scan-feed.js';
import type { ObjectSink } from './objects.js';
import { objectId } from './sha1.js';
import type { Dir, Leaf, TreeCache } from './tree.js';
import { parallel } from '../workspace/parallel.js';
import { isRefusedHardLink } from '../workspace/hard-links.js';

export { describeSkipped, type SkippedFile } from './skipped.js';

type Verdict = 'same' | { leaf: Leaf } | { skip: SkippedFile };

interface StatEntry {
  size: number;
  mtimeMs: number;
  ino: number;
  mode: string;
  oid: string;
  /** Date.now() before the stat was taken (-Infinity: never trusted, the bytes hashed were a tool's, not the file's) */
  statAt: number;
}

/**
 * RACY_MS (git's racy window) on a backend that stamps mtimes from this realm's clock (capabilities.clockMtimes):
 * its tick is a millisecond, and a few more absorb a small step of the clock.
 */
const RACY_CLOCK_MS = 5;
const PARALLEL = 16;
/** Files of one folder read in one backend call, and such calls in flight at once. */
const READ_BATCH_FILES = 64;
const READ_BATCHES = 4;
const TEMP_ABANDONED_MS = 10 * 60 * 1000;
/** Written bytes kept for the next commit, at most per file and in all (beyond that, files are read back). */
const FRESH_FILE_MAX = 1024 * 1024;
const FRESH_TOTAL_MAX = 8 * 1024 * 1024;
/**
 * Noted bytes stand in for the file only this soon after the write; the stat noted with them is
 * never trusted, so a change behind the tools' back in that window is read by the next pass.
 */
const FRESH_MS = 250;

/** What one pass over some paths found. */
export interface ScanOutcome {
  /** root-relative files whose snapshot entry was added, changed or removed */
  changed: Set<string>;
  skipped: SkippedFile[];
}

/**
 * Brings the tree cache in line with the backend for some paths (a file, a folder, or '' for
 * everything). A stat cache of (size, mtime) per file means an unchanged file is never re-read.
 */
export class Scanner {
  /**
   * The stat cache, by folder and then by name: a rescan looks each file up by the name its
   * folder's listing gave, without making its path.
   */
  private readonly stats = new Map<string, Map<string, StatEntry>>();
  private readonly fresh = new Map<string, { bytes: Uint8Array; at: number }>();
  private freshBytes = 0;
  private readonly racyMs: number;
  private readonly narrowing: FeedNarrowing;
  /** a pass narrowed by the change feed is running: it names the default-excluded folders it meets, as a whole pass does */
  private narrowed = false;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly toAbs: (rel: string) => string,
    private readonly ignore: SnapshotIgnore,
    private readonly maxFileBytes: number,
    /** keep files with more than one hard link too (the policy's allowHardLinks) */
    private readonly allowHardLinks = false,
  ) {
    this.racyMs = fs.capabilities?.clockMtimes === true ? RACY_CLOCK_MS : RACY_MS;
    this.narrowing = new FeedNarrowing(fs, () => toAbs(''), [...ignore.excludedNames, '.git']);
  }

  /** Forget everything known about `rel` and below (after a restore rewrote them). */
  forget(rel: string, folder = true): void {
    this.narrowing.forgot(rel);
    this.drop(rel, folder);
  }

  /** Close the backend's change feed until the next pass over everything (see FeedNarrowing.drop). */
  dropFeed(): void {
    this.narrowing.drop();
  }

  /** Stop the backend's change feed, if one was opened: the workspace closed. */
  close(): void {
    this.narrowing.close();
  }

  private drop(rel: string, folder: boolean): void {
    this.takeFresh(rel);
    const prefix = `${rel}/`;
    for (const key of this.fresh.keys()) if (rel === '' || key.startsWith(prefix)) this.takeFresh(key);
    if (rel === '') {
      this.stats.clear();
      return;
    }
    const slash = rel.lastIndexOf('/');
    this.stats.get(slash === -1 ? '' : rel.slice(0, slash))?.delete(rel.slice(slash + 1));
    if (!folder) return;
    this.stats.delete(rel);
    for (const key of this.stats.keys()) if (key.startsWith(prefix)) this.stats.delete(key);
  }

  /**
   * Keep the bytes a tool wrote to `rel` for the commit that follows the call, which then hashes
   * them instead of reading the file back: only soon after the write (FRESH_MS) and only when the
   * file still has their size. Its stat is then too new to be trusted later, so the next pass
   * reads the file itself.
   */
  noteWritten(rel: string, bytes: Uint8Array): void {
    this.takeFresh(rel);
    if (bytes.length > FRESH_FILE_MAX) return;
    if (this.freshBytes + bytes.length > FRESH_TOTAL_MAX) {
      this.fresh.clear();
      this.freshBytes = 0;
    }
    this.fresh.set(rel, { bytes, at: Date.now() });
    this.freshBytes += bytes.length;
  }

  private takeFresh(rel: string): Uint8Array | undefined {
    const noted = this.fresh.get(rel);
    if (!noted) return undefined;
    this.fresh.delete(rel);
    this.freshBytes -= noted.bytes.length;
    return Date.now() - noted.at <= FRESH_MS ? noted.bytes : undefined;
  }

  async apply(paths: Iterable<string>, tree: TreeCache, sink: ObjectSink, out: ScanOutcome): Promise<void> {
    let asked = new Set(paths);
    // a pass over everything looks only where the backend's change feed saw changes, when it can vouch
    const seen = asked.has('') ? await this.narrowing.narrow(tree) : null;
    if (seen !== null) asked = new Set([...asked].filter((p) => p !== '').concat(seen));
    const whole = asked.has('');
    const unique = [...asked].sort();
    for (const p of unique) this.ignore.changed(p);
    // A path under another path in the list is covered by that one's walk. Each path's folders are
    // looked up, not every earlier path: a move of 20,000 files lists 40,000 paths.
    const kept = new Set<string>();
    const roots = unique.filter((p) => {
      if (kept.has('')) return false;
      for (let at = p.indexOf('/'); at !== -1; at = p.indexOf('/', at + 1)) if (kept.has(p.slice(0, at))) return false;
      kept.add(p);
      return true;
    });
    this.narrowed = seen !== null && !whole;
    try {
      for (const rel of roots) await this.applyPath(rel, tree, sink, out);
      if (whole) this.narrowing.walked(out.skipped);
      else if (this.narrowed) this.narrowing.narrowed(roots, out.skipped);
    } catch (error) {
      if (whole || this.narrowed) this.narrowing.failed();
      throw error;
    } finally {
      this.narrowed = false;
      // Bytes noted for paths this pass did not read (deleted since, say) must never stand in later.
      this.fresh.clear();
      this.freshBytes = 0;
    }
  }

  private async applyPath(rel: string, tree: TreeCache, sink: ObjectSink, out: ScanOutcome): Promise<void> {
    try {
      await this.applyPathOrThrow(rel, tree, sink, out);
    } catch (error) {
      const skip = unreadable(rel, error);
      if (!skip) throw error;
      out.skipped.push(skip);
    }
  }

  private async applyPathOrThrow(rel: string, tree: TreeCache, sink: ObjectSink, out: ScanOutcome): Promise<void> {
    const statAt = Date.now();
    const stat = rel === '' ? await this.fs.lstat(this.toAbs('')) : await this.lstat(rel);
    if (stat === null) {
      await this.removeMissing(rel, tree, out);
      return;
    }
    const ignored = rel !== '' && (await this.ignore.ignores(rel, stat.type === 'dir'));
    // As in git, .gitignore keeps new files out but never drops a file a snapshot already holds
    // (a cloned repository may track files its own .gitignore names).
    const held = ignored ? (await tree.get(rel))?.kind : undefined;
    if (stat.type === 'dir') {
      if (!ignored || held === 'tree') await this.applyDir(rel, tree, sink, out, ignored);
      else {
        if (this.narrowed && held === undefined && (await this.ignore.excludedFolder(rel)))
          out.skipped.push({ path: rel, size_bytes: 0, reason: 'excluded' });
        await this.remove(rel, tree, out);
      }
      return;
    }
    if (ignored && held !== 'blob') {
      await this.remove(rel, tree, out);
      return;
    }
    await this.applyFile(rel, stat, statAt, tree, sink, out);
  }

  /** `rel` is gone: so may be the folders above it (a recursive delete reports only files). */
  private async removeMissing(rel: string, tree: TreeCache, out: ScanOutcome): Promise<void> {
    await this.remove(rel, tree, out);
    for (let dir = parentOf(rel); dir !== ''; dir = parentOf(dir)) {
      if ((await tree.get(dir))?.kind !== 'tree' || (await this.lstat(dir)) !== null) return;
      await this.remove(dir, tree, out);
    }
  }

  private async applyDir(
    rel: string,
    tree: TreeCache,
    sink: ObjectSink,
    out: ScanOutcome,
    ignored = false,
  ): Promise<void> {
    if (rel !== '' && (await tree.get(rel))?.kind === 'blob') await this.remove(rel, tree, out);
    if (rel !== '') await tree.ensureDir(rel);
    const held = rel === '' ? tree.root : ((await tree.get(rel)) as Dir);
    const found = await walkKept(
      {
        fs: this.fs,
        toAbs: this.toAbs,
        ignore: this.ignore,
        tree,
        statsOf: (dir) => this.stats.get(dir),
        trusted: (seen, stat, current) => this.trusted(seen, stat, current),
        sweepTemp: (path, stat) => this.sweepTemp(path, stat),
      },
      rel,
      ignored,
      held,
    );
    // What cannot be reached keeps what the snapshot already holds for it, and is reported.
    for (const u of found.unreachable) out.skipped.push(u);
    // What is gone goes first: a file may have become a folder of the same name, or the other way round.
    for (const gone of found.gone) await this.remove(gone, tree, out);
    // Reading and hashing run in parallel; the tree is changed afterwards, one path at a time.
    const verdicts: Array<[string, Verdict]> = [];
    const judge = async ({ rel: path, stat, statAt, current }: ToExamine, plain?: PlainFile | null) => {
      verdicts.push([
        path,
        await this.examine(path, stat, statAt, current, sink, plain ?? undefined).catch((error: unknown) => {
          const skip = unreadable(path, error);
          if (!skip) throw error;
          return current ? ('same' as const) : { skip };
        }),
      ]);
    };
    const { batches, rest } = this.batchable(found.toExamine);
    const readPlainFiles = this.fs.readPlainFiles?.bind(this.fs);
    await Promise.all([
      // a folder's files in one backend call (Node: on its read thread, while this one hashes the folder before)
      parallel(batches, READ_BATCHES, async ({ dir, items }) => {
        const names = items.map((item) => item.rel.slice(dir === '' ? 0 : dir.length + 1));
        const read = await readPlainFiles!(this.toAbs(dir), names, this.maxFileBytes).catch(() => null);
        for (let i = 0; i < items.length; i++) await judge(items[i]!, read?.[i]);
      }),
      parallel(rest, PARALLEL, (item) => judge(item)),
    ]);
    for (const [path, verdict] of verdicts) await this.settle(path, verdict, tree, out);
    for (const dir of found.newDirs) await tree.ensureDir(dir);
  }

  /**
   * The files to read that a backend with readPlainFiles can read a folder at a time: plain files
   * within the size cap with no noted bytes, grouped by folder; the rest (links, special files,
   * files a tool just wrote) take the one-path way.
   */
  private batchable(items: ToExamine[]): { batches: Array<{ dir: string; items: ToExamine[] }>; rest: ToExamine[] } {
    if (!this.fs.readPlainFiles) return { batches: [], rest: items };
    const byDir = new Map<string, ToExamine[]>();
    const rest: ToExamine[] = [];
    for (const item of items) {
      const { stat, rel } = item;
      if (stat.type !== 'file' || stat.special || stat.size > this.maxFileBytes || this.fresh.has(rel)) {
        rest.push(item);
        continue;
      }
      const dir = parentOf(rel);
      let group = byDir.get(dir);
      if (group === undefined) byDir.set(dir, (group = []));
      group.push(item);
    }
    const batches: Array<{ dir: string; items: ToExamine[] }> = [];
    for (const [dir, group] of byDir)
      for (let at = 0; at < group.length; at += READ_BATCH_FILES)
        batches.push({ dir, items: group.slice(at, at + READ_BATCH_FILES) });
    return { batches, rest };
  }

  private async applyFile(
    rel: string,
    stat: FsStat,
    statAt: number,
    tree: TreeCache,
    sink: ObjectSink,
    out: ScanOutcome,
  ): Promise<void> {
    const current = await tree.get(rel);
    // a folder became a file or link: what was below it goes, and is reported as changed
    if (current?.kind === 'tree') await this.remove(rel, tree, out);
    await this.settle(
      rel,
      await this.examine(rel, stat, statAt, current?.kind === 'blob' ? current : undefined, sink),
      tree,
      out,
    );
  }

  /**
   * Decide what a file's snapshot entry becomes, reading it only when its stat (taken at `statAt`)
   * changed. `plain`: the file as a batch read found it, its stat from the descriptor its bytes
   * came through (taken after `statAt`); a file it could not read plainly is read here.
   */
  private async examine(
    rel: string,
    listed: FsStat,
    statAt: number,
    current: Leaf | undefined,
    sink: ObjectSink,
    plain?: PlainFile,
  ): Promise<Verdict> {
    const preread = plain?.bytes ?? undefined;
    const stat = preread ? plain!.stat : listed;
    const fresh = this.takeFresh(rel);
    // A FIFO, socket or device has no bytes to keep, and reading a FIFO would wait for a writer.
    if (stat.special) return { skip: { path: rel, size_bytes: 0, reason: 'special_file', why: stat.special } };
    // Reads refuse such a file (its other name may be outside the workspace), so history does not keep its bytes either.
    if (stat.type === 'file' && isRefusedHardLink(stat.nlink, this.allowHardLinks))
      return { skip: { path: rel, size_bytes: stat.size, reason: 'hard_linked' } };
    const tooLarge = stat.type === 'file' && stat.size > this.maxFileBytes;
    // A large file the snapshot already holds (a clone brings its blob) stays until it changes.
    if (tooLarge && !current) return { skip: { path: rel, size_bytes: stat.size, reason: 'too_large' } };
    if (this.trusted(this.statOf(rel), stat, current)) return 'same';
    const mode = modeOf(stat);
    const stands = stat.type !== 'symlink' && fresh !== undefined && fresh.length === stat.size;
    const bytes =
      stat.type === 'symlink'
        ? new TextEncoder().encode(await this.fs.readlink(this.toAbs(rel)))
        : stands
          ? fresh
          : (preread ?? (await this.fs.readFile(this.toAbs(rel))));
    const oid = objectId('blob', bytes);
    // Bytes a tool wrote vouch for this commit only: a change behind its back of the same size
    // may carry this stat, so the next pass reads the file itself.
    this.noteStat(rel, {
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ino: stat.ino,
      mode,
      oid,
      statAt: stands ? Number.NEGATIVE_INFINITY : statAt,
    });
    if (current && current.oid === oid && current.mode === mode) return 'same';
    if (tooLarge) return { skip: { path: rel, size_bytes: stat.size, reason: 'too_large' } };
    await sink.blob(bytes, oid);
    return { leaf: { kind: 'blob', mode, oid } };
  }

  /**
   * Whether the snapshot's entry for `rel` still holds without a read: the file has the size,
   * mtime, inode and mode it had when it was last read, as in git's index, and the stat of that
   * read was taken long enough after the mtime (racyMs) that any later write shows a new mtime.
   */
  private trusted(seen: StatEntry | undefined, stat: FsStat, current: Leaf | undefined): boolean {
    if (seen === undefined || current === undefined || stat.special) return false;
    if (stat.type === 'file' && isRefusedHardLink(stat.nlink, this.allowHardLinks)) return false;
    const mode = modeOf(stat);
    return (
      current.oid === seen.oid &&
      current.mode === mode &&
      seen.mode === mode &&
      seen.size === stat.size &&
      seen.mtimeMs === stat.mtimeMs &&
      seen.ino === stat.ino &&
      seen.statAt - stat.mtimeMs >= this.racyMs
    );
  }

  private statOf(rel: string): StatEntry | undefined {
    const slash = rel.lastIndexOf('/');
    return this.stats.get(slash === -1 ? '' : rel.slice(0, slash))?.get(rel.slice(slash + 1));
  }

  private noteStat(rel: string, entry: StatEntry): void {
    const slash = rel.lastIndexOf('/');
    const dir = slash === -1 ? '' : rel.slice(0, slash);
    let folder = this.stats.get(dir);
    if (folder === undefined) this.stats.set(dir, (folder = new Map()));
    folder.set(rel.slice(slash + 1), entry);
  }

  private async settle(rel: string, verdict: Verdict, tree: TreeCache, out: ScanOutcome): Promise<void> {
    if (verdict === 'same') return;
    if ('skip' in verdict) {
      out.skipped.push(verdict.skip);
      await this.remove(rel, tree, out);
      return;
    }
    await tree.set(rel, verdict.leaf);
    out.changed.add(rel);
  }

  private async remove(rel: string, tree: TreeCache, out: ScanOutcome): Promise<void> {
    const gone = await tree.files(rel);
    for (const path of gone.keys()) out.changed.add(path);
    await tree.set(rel, null);
    this.drop(rel, !(gone.size === 1 && gone.has(rel)));
  }

  /**
   * A write killed before its rename leaves its temporary file; one this old has no writer left
   * (a write takes milliseconds), so the walk that finds it removes it.
   */
  private async sweepTemp(rel: string, stat: FsStat): Promise<void> {
    if (Date.now() - stat.mtimeMs < TEMP_ABANDONED_MS) return;
    await removeIfPresent(this.fs, this.toAbs(rel));
  }

  private async lstat(rel: string): Promise<FsStat | null> {
    try {
      return await this.fs.lstat(this.toAbs(rel));
    } catch (error) {
      if (hasFsCode(error, 'ENOENT', 'ENOTDIR')) return null;
      throw error;
    }
  }
}

function modeOf(stat: FsStat): string {
  return stat.type === 'symlink' ? '120000' : stat.mode & 0o111 ? '100755' : '100644';
}

function parentOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i === -1 ? '' : rel.slice(0, i);
}
