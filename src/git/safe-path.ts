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

function unsafeComponent(name: string): boolean {
  if (name === '' || name === '.' || name === '..' || /[\\\0]/.test(name)) return true;
  const folded = name.replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, '').split(':')[0]!.toLowerCase().replace(/[. ]+$/, '');
  return folded === '' || folded === '.git' || /^git~[1-9]$/.test(folded);
}
