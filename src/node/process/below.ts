import { isAbsolute, relative, sep } from 'node:path';

/**
 * `path` relative to `dir` with `/` separators when it lies in `dir` ('' for `dir` itself), else
 * null. Judged by whole components: a folder named `..x` is inside, `..` and `../x` are not.
 */
export function relativeBelow(dir: string, path: string): string | null {
  const rel = relative(dir, path);
  if (isAbsolute(rel)) return null;
  const parts = rel === '' ? [] : rel.split(sep);
  if (parts[0] === '..') return null;
  return parts.join('/');
}
