import type { GitignoreRules } from './gitignore.js';

/** The rules of one `.gitignore` file and the folder (root-relative, '' for the root) they govern. */
export interface IgnoreRules {
  base: string;
  rules: GitignoreRules;
}

let loading: Promise<typeof import('./gitignore.js')> | undefined;

/**
 * A matcher for the text of a `.gitignore` (see compileGitignore), which loads with the first
 * `.gitignore` read rather than with the tools: a worker's and an MCP server's first answers go
 * without it.
 */
export async function gitignoreRules(text: string): Promise<GitignoreRules> {
  loading ??= import('./gitignore.js');
  return (await loading).compileGitignore(text);
}

/** Parse the text of a `.gitignore` found in folder `base`. */
export async function parseGitignore(base: string, text: string): Promise<IgnoreRules> {
  return { base, rules: await gitignoreRules(text) };
}

/**
 * Whether `rel` (root-relative, a folder when `isDir`) is ignored by a stack of `.gitignore` files,
 * outermost first, given that the folders above it are not. As in git, the deepest file with an
 * opinion wins, so a nested `!pattern` re-includes what an outer file excluded.
 */
export function isIgnored(stack: readonly IgnoreRules[], rel: string, isDir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const { base, rules } = stack[i]!;
    if (base !== '' && !rel.startsWith(`${base}/`)) continue;
    const verdict = rules.verdict(base === '' ? rel : rel.slice(base.length + 1), isDir);
    if (verdict !== null) return verdict;
  }
  return false;
}
