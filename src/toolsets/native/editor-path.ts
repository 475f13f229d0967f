/**
 * The workspace path for a path Claude sends. Claude's editor and bash are trained on a machine
 * whose files it names absolutely (`/repo/src/a.py`); in a workspace `/` is the root, so a leading
 * slash means the root, exactly as the built-in shell reads it. Everything else (`..`, links,
 * URLs) still goes through the workspace's confinement.
 */
export function editorPath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) return path;
  const rest = path.replace(/^\/+/, '');
  return rest === '' ? '.' : rest;
}
