import ignore, { type Ignore } from 'ignore';
import type { WorkspaceFs } from '../fs/types.js';
import { RESERVED_TOP_LEVEL } from '../workspace/paths.js';
import { isAtomicTemp } from '../fs/temp-names.js';

/**
 * Which workspace paths snapshots leave out: Sandpit's own folder, every `.git` (a user's own
 * repository is never read or written), the temporary files of atomic writes, and what
 * `.gitignore` files exclude. Rules are loaded
 * per folder on first use and forgotten when that folder's `.gitignore` changes.
 */
export class SnapshotIgnore {
  private readonly rules = new Map<string, Ignore | null>();

  constructor(private readonly fs: WorkspaceFs, private readonly toAbs: (rel: string) => string) {}

  /** Forget cached rules after `rel` changed, if it is a `.gitignore`. */
  changed(rel: string): void {
    if (rel === '.gitignore' || rel.endsWith('/.gitignore')) this.rules.delete(rel.slice(0, -'.gitignore'.length).replace(/\/$/, ''));
  }

  /** Whether `rel` is left out, checking every folder above it too (git does not look inside an ignored folder). */
  async ignores(rel: string, isDir: boolean): Promise<boolean> {
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const last = i === parts.length;
      if (await this.ignoredHere(parts.slice(0, i), last ? isDir : true)) return true;
    }
    return false;
  }

  /** Whether the last component of `parts` is excluded, given that its parents are not. */
  async ignoredHere(parts: string[], isDir: boolean): Promise<boolean> {
    const name = parts[parts.length - 1]!;
    if (name === '.git' || isAtomicTemp(name)) return true;
    if (parts.length === 1 && RESERVED_TOP_LEVEL.includes(name)) return true;
    // The deepest .gitignore with an opinion wins, so a nested `!pattern` re-includes.
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const rules = await this.load(parts.slice(0, depth).join('/'));
      if (!rules) continue;
      const sub = parts.slice(depth).join('/');
      const verdict = rules.test(isDir ? `${sub}/` : sub);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }

  private async load(dir: string): Promise<Ignore | null> {
    if (this.rules.has(dir)) return this.rules.get(dir)!;
    let rules: Ignore | null = null;
    try {
      const text = new TextDecoder().decode(await this.fs.readFile(this.toAbs(dir ? `${dir}/.gitignore` : '.gitignore')));
      rules = ignore({ allowRelativePaths: true }).add(text);
    } catch {
      rules = null;
    }
    this.rules.set(dir, rules);
    return rules;
  }
}
