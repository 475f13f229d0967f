import ignore, { type Ignore } from 'ignore';

/** The rules of one `.gitignore` file and the folder (root-relative, '' for the root) they govern. */
export interface IgnoreRules {
  base: string;
  rules: Ignore;
}

/** Parse the text of a `.gitignore` found in folder `base`. */
export function parseGitignore(base: string, text: string): IgnoreRules {
  return { base, rules: ignore({ allowRelativePaths: true }).add(text) };
}

/**
 * Whether `rel` (root-relative, a folder when `isDir`) is ignored by a stack of `.gitignore` files,
 * outermost first. As in git, the deepest file with an opinion wins, so a nested `!pattern`
 * re-includes what an outer file excluded.
 */
export function isIgnored(stack: readonly IgnoreRules[], rel: string, isDir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const { base, rules } = stack[i]!;
    if (base !== '' && !rel.startsWith(`${base}/`)) continue;
    const sub = base === '' ? rel : rel.slice(base.length + 1);
    const verdict = rules.test(isDir ? `${sub}/` : sub);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}
