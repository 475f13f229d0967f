import type { FsStat, WorkspaceFs } from '../fs/types.js';
import { RESERVED_TOP_LEVEL } from '../workspace/paths.js';
import { isAtomicTemp } from '../fs/temp-names.js';
import type { GitignoreRules } from '../search/gitignore.js';
import { gitignoreRules } from '../search/ignore.js';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../search/skipped-folders.js';

export { DEFAULT_SNAPSHOT_EXCLUDES } from '../search/skipped-folders.js';

/** The `.gitignore` rules that apply in a folder, deepest folder first (see SnapshotIgnore.rulesFor). */
export type FolderRules = ReadonlyArray<{ dir: string; rules: GitignoreRules }>;

/**
 * A stat taken within this long of its mtime is not trusted next time: a second write in the same
 * timestamp tick with the same size would otherwise go unnoticed (git's "racy" files). For the
 * rescan's stat cache and for the rules of a .gitignore alike.
 */
export const RACY_MS = 1000;

/** Why a child is left out: a `.gitignore` (or Sandpit's own rules) said so, or it is a folder no one versions. */
export type LeftOut = false | 'ignored' | 'excluded';

/**
 * Which workspace paths snapshots leave out: Sandpit's own folder, every `.git` (a user's own
 * repository is never read or written), the temporary files of atomic writes, what
 * `.gitignore` files exclude, and the folders of {@link DEFAULT_SNAPSHOT_EXCLUDES}. Rules are loaded
 * per folder on first use and forgotten when that folder's `.gitignore` changes: through the tools
 * or the backend's change feed ({@link changed}), or behind them, which a walk's listing shows
 * ({@link listed}).
 */
export class SnapshotIgnore {
  private readonly rules = new Map<string, GitignoreRules | null>();
  /** per folder, the stat of the .gitignore its cached rules were read from (null: not to be trusted) */
  private readonly loadedFrom = new Map<string, string | null>();
  /** per folder, the stat a walk's listing just gave its .gitignore, for the read that follows */
  private readonly listedStat = new Map<string, string | null>();
  /** per folder, the folders at or above it that have rules, deepest first (see rulesFor) */
  private readonly above = new Map<string, Array<{ dir: string; rules: GitignoreRules }>>();

  private readonly excluded: ReadonlySet<string>;

  /** the folder names left out by default, wherever they are */
  get excludedNames(): string[] {
    return [...this.excluded];
  }

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly toAbs: (rel: string) => string,
    excluded: readonly string[] = DEFAULT_SNAPSHOT_EXCLUDES,
  ) {
    this.excluded = new Set(excluded);
  }

  /** Forget cached rules after `rel` changed, if it is a `.gitignore`. */
  changed(rel: string): void {
    if (rel === '.gitignore' || rel.endsWith('/.gitignore'))
      this.forget(rel.slice(0, -'.gitignore'.length).replace(/\/$/, ''));
  }

  /**
   * A walk listed folder `dir`: `gitignore` is the listing's entry for its `.gitignore` (its stat,
   * null when the listing had none), or null when there is none. With none, the folder's rules are
   * known to be none without a read (a failed read per folder was a tenth of a first snapshot).
   * Cached rules whose file appeared, went or has another stat since they were read are forgotten:
   * a backend with no change feed tells a rescan of an edit behind the tools' back only this way.
   */
  listed(dir: string, gitignore: { stat: FsStat | null } | null): void {
    const cached = this.rules.get(dir);
    if (gitignore === null) {
      if (cached !== null) {
        if (cached !== undefined) this.forget(dir);
        this.rules.set(dir, null);
      }
      return;
    }
    const stat = gitignore.stat;
    const key =
      stat !== null && Date.now() - stat.mtimeMs >= RACY_MS ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : null;
    if (this.rules.has(dir) && (key === null || this.loadedFrom.get(dir) !== key)) this.forget(dir);
    if (!this.rules.has(dir)) this.listedStat.set(dir, key);
  }

  private forget(dir: string): void {
    this.rules.delete(dir);
    this.loadedFrom.delete(dir);
    this.above.clear();
  }

  /** Whether `rel` is left out, checking every folder above it too (git does not look inside an ignored folder). */
  async ignores(rel: string, isDir: boolean): Promise<boolean> {
    // by index, not by splitting and joining the path per level: a 5,000-level path stays linear
    for (let at = 0; ; ) {
      const slash = rel.indexOf('/', at);
      const last = slash === -1;
      if (
        await this.ignoredChild(
          at === 0 ? '' : rel.slice(0, at - 1),
          last ? rel.slice(at) : rel.slice(at, slash),
          last ? isDir : true,
        )
      )
        return true;
      if (last) return false;
      at = slash + 1;
    }
  }

  /** Whether a walk would list folder `rel` as left out by default (its own folder not being left out). */
  async excludedFolder(rel: string): Promise<boolean> {
    const slash = rel.lastIndexOf('/');
    const parent = slash === -1 ? '' : rel.slice(0, slash);
    if (parent !== '' && (await this.ignores(parent, true))) return false;
    return (await this.leftOut(parent, rel.slice(slash + 1), true)) === 'excluded';
  }

  /** Whether `name` in folder `dir` ('' for the root) is excluded, given that `dir` is not. */
  async ignoredChild(dir: string, name: string, isDir: boolean): Promise<boolean> {
    return (await this.leftOut(dir, name, isDir)) !== false;
  }

  /** Whether and why `name` in folder `dir` is left out, given that `dir` is not. */
  async leftOut(dir: string, name: string, isDir: boolean): Promise<LeftOut> {
    return this.leftOutBy(await this.rulesFor(dir), dir, name, isDir);
  }

  /** leftOut with the rules of `dir` already at hand (rulesFor): a walk checks a folder's entries without a task each. */
  leftOutBy(above: FolderRules, dir: string, name: string, isDir: boolean): LeftOut {
    if (name === '.git' || isAtomicTemp(name)) return 'ignored';
    if (dir === '' && RESERVED_TOP_LEVEL.includes(name)) return 'ignored';
    const byDefault = isDir && this.excluded.has(name);
    if (above.length === 0) return byDefault ? 'excluded' : false;
    // The deepest .gitignore with an opinion wins, so a nested `!pattern` re-includes.
    const rel = dir === '' ? name : `${dir}/${name}`;
    for (const { dir: at, rules } of above) {
      const sub = at === '' ? rel : rel.slice(at.length + 1);
      const verdict = rules.verdict(sub, isDir);
      if (verdict === true) return 'ignored';
      if (verdict === false) return false;
    }
    return byDefault ? 'excluded' : false;
  }

  /**
   * The folders from `dir` up to the root that have a .gitignore, deepest first, remembered per
   * folder: a check in a folder 5,000 levels deep then costs one lookup, not 5,000 joins.
   */
  async rulesFor(dir: string): Promise<FolderRules> {
    const known = this.above.get(dir);
    if (known) return known;
    // find the nearest folder already known, then fill in the ones below it, parent first
    const missing: string[] = [];
    let at: string | null = dir;
    let base: Array<{ dir: string; rules: GitignoreRules }> = [];
    while (at !== null) {
      const hit = this.above.get(at);
      if (hit) {
        base = hit;
        break;
      }
      missing.push(at);
      at = at === '' ? null : at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '';
    }
    for (const d of missing.reverse()) {
      const rules = await this.load(d);
      base = rules ? [{ dir: d, rules }, ...base] : base;
      this.above.set(d, base);
    }
    return base;
  }

  private async load(dir: string): Promise<GitignoreRules | null> {
    if (this.rules.has(dir)) return this.rules.get(dir)!;
    let rules: GitignoreRules | null = null;
    try {
      const text = new TextDecoder().decode(
        await this.fs.readFile(this.toAbs(dir ? `${dir}/.gitignore` : '.gitignore')),
      );
      rules = await gitignoreRules(text);
    } catch {
      rules = null;
    }
    this.rules.set(dir, rules);
    // rules read outside a walk (no listing's stat at hand) are read again by the next walk
    this.loadedFrom.set(dir, this.listedStat.get(dir) ?? null);
    this.listedStat.delete(dir);
    return rules;
  }
}
