import type { Ignore } from 'ignore';

/** The rules of one `.gitignore` file and the folder (root-relative, '' for the root) they govern. */
export interface IgnoreRules {
  base: string;
  rules: Ignore;
}

let loading: Promise<(options: { allowRelativePaths: boolean }) => Ignore> | undefined;

/**
 * A matcher for `.gitignore` rules, from the `ignore` package, which loads with the first
 * `.gitignore` read rather than with the tools: an MCP server's first answers go without it.
 */
export async function gitignoreRules(text: string): Promise<Ignore> {
  loading ??= import('ignore').then((m) => m.default);
  return (await loading)({ allowRelativePaths: true }).add(text);
}

/** Parse the text of a `.gitignore` found in folder `base`. */
export async function parseGitignore(base: string, text: string): Promise<IgnoreRules> {
  return { base, rules: await gitignoreRules(text) };
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
