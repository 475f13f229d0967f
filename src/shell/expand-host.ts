import type { Word, WordPart } from './ast.js';
import type { ShellFs } from './overlay.js';

/** What expansion needs from the running shell. */
export interface ExpandHost {
  fs: ShellFs;
  cwd: string;
  getVar(name: string): string | undefined;
  setVar(name: string, value: string): void;
  /** an array's elements by key (indexed arrays in index order), or undefined */
  getArray(name: string): Map<string, string> | undefined;
  isAssoc(name: string): boolean;
  /** replace an array whole (BASH_REMATCH) */
  setArray(name: string, value: Map<string, string>): void;
  /** `set -u` is on */
  nounset(): boolean;
  /** positional parameters, $1 onward */
  args: string[];
  /** run `$(...)` and give its stdout */
  substitute(src: string): Promise<string>;
  /** run `<(...)` and give the name of a file holding its output */
  procsub(src: string): Promise<string>;
  /** one part's text, unsplit (for patterns) */
  partText(part: WordPart): Promise<string>;
  /** a word's text, unsplit */
  wordText(word: Word): Promise<string>;
}
