/**
 * A path component as Windows or macOS may see it: ignorable Unicode removed, an NTFS stream
 * suffix (`:...`) cut, lower case, trailing dots and spaces dropped.
 */
export function foldedName(name: string): string {
  return name
    .replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, '')
    .split(':')[0]!
    .toLowerCase()
    .replace(/[. ]+$/, '');
}

/**
 * Whether a path component names a `.git` folder on some file system: `.git` itself, or any
 * spelling that folds onto it (`.GIT`, `.Git.`, `.git::$INDEX_ALLOCATION`) or the 8.3 short
 * name `git~1`, as git refuses them on checkout.
 */
export function foldsToGitDir(name: string): boolean {
  // every spelling above has a `g` (no other character lower-cases to one): most names are ruled out without folding
  if (!name.includes('g') && !name.includes('G')) return false;
  const folded = foldedName(name);
  return folded === '.git' || /^git~[1-9]$/.test(folded);
}
