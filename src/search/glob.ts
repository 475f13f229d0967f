import type picomatchModule from 'picomatch/posix.js';
import { ToolError } from '../contract/index.js';
import { globToRe2 } from './glob-source.js';

/** A compiled glob: true when a root-relative path matches. */
export type PathTest = (rel: string) => boolean;

let compiler: Promise<typeof picomatchModule> | null = null;
let engine: Promise<typeof import('re2js')> | null = null;

/** picomatch, for the literal base of a pattern only: its matching RegExp backtracks. */
function picomatch(): Promise<typeof picomatchModule> {
  return (compiler ??= import('picomatch/posix.js').then((m) => m.default));
}

/**
 * Compile a glob. A pattern without a slash (`*.ts`) matches basenames at any depth, as in
 * `.gitignore` and ripgrep; a pattern with one (`src/**\/*.ts`) matches the whole path. Dot names
 * match too: whether hidden entries are visited at all is the walker's decision. Matching runs on
 * RE2 (see glob-source.ts), in time linear in the path, whatever the pattern.
 */
export async function compileGlob(pattern: string): Promise<PathTest> {
  let clean = pattern.replace(/^\.\//, '');
  const negated = clean.startsWith('!') && !clean.startsWith('!(');
  if (negated) clean = clean.slice(1);
  const { RE2JS } = await (engine ??= import('re2js'));
  let re: ReturnType<typeof RE2JS.compile>;
  try {
    re = RE2JS.compile(globToRe2(clean));
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError('INVALID_ARGUMENTS', `the pattern '${pattern.slice(0, 200)}' could not be compiled`, {
      hint: 'Use *, **, ?, [abc], {a,b} and escape other special characters with a backslash.',
      problems: [{ path: '/pattern', message: 'is not a valid pattern' }],
    });
  }
  const basename = !clean.includes('/');
  return (rel) => {
    const subject = basename ? rel.slice(rel.lastIndexOf('/') + 1) : rel;
    return re.matches(subject) !== negated;
  };
}

/** A test that passes when any of the globs matches (and always when there are none). */
export async function anyGlob(patterns: readonly string[] | undefined): Promise<PathTest | null> {
  if (!patterns || patterns.length === 0) return null;
  const tests = await Promise.all(patterns.map(compileGlob));
  return (rel) => tests.some((t) => t(rel));
}

/** The literal folder a pattern starts with (`src/lib` for `src/lib/**\/*.ts`), '' when none. */
export async function staticBase(pattern: string): Promise<string> {
  const clean = pattern.replace(/^\.\//, '');
  if (!clean.includes('/')) return '';
  return (await picomatch()).scan(clean).base.replace(/\/+$/, '');
}

/**
 * Compare root-relative paths component by component with plain code-unit order: the order of a
 * depth-first walk that sorts the names in each folder. `/` ranks below every other character.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca === 47) return -1;
    if (cb === 47) return 1;
    return ca - cb;
  }
  return a.length - b.length;
}
