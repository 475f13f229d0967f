import { foldedName, foldsToGitDir } from '../workspace/git-names.js';

/**
 * Whether a path from a fetched tree must not be written: Sandpit's own `.sandpit` at the top,
 * and anywhere a component git itself would refuse to check out: `.git` in any spelling
 * Windows or macOS would fold onto it (case, trailing dots and spaces, `git~1`, ignorable
 * Unicode), `.` and `..`, an empty name, or a backslash or NUL. Such paths are skipped and listed.
 */
export function isSkippedPath(path: string): boolean {
  const parts = path.split('/');
  if (parts[0] === '.sandpit') return true;
  return parts.some(unsafeComponent);
}

/**
 * A name of ASCII letters, digits and `._+,=@-` with something besides dots: it folds to itself in
 * lower case less its trailing dots, so of the names below only `.git` and `.git.` and the like
 * fold onto `.git` (git~1 holds a `~`). Most names of a tree are such, and a clone of thousands of
 * files checked each through the whole fold.
 */
const PLAIN = /^[\w.+,=@-]*[\w+,=@-][\w.+,=@-]*$/;

function unsafeComponent(name: string): boolean {
  if (PLAIN.test(name)) return /^\.git\.*$/i.test(name);
  if (name === '' || name === '.' || name === '..' || /[\\\0]/.test(name)) return true;
  return foldedName(name) === '' || foldsToGitDir(name);
}
