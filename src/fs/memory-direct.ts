import type { Link, Superblock } from '@jsonjoy.com/fs-core';
import { statOfNode } from './memory-links.js';
import type { PlainFile } from './types.js';

/**
 * `base/rel` read straight from memfs's tree when no component is a link (see
 * WorkspaceFs.readPlainFile): one walk over the folder links instead of an lstat per component and
 * a path-parsing open, read and close through memfs's API. Permissions are checked as memfs does.
 */
export function readPlainMemory(sb: Superblock, base: string, rel: string, maxBytes: number): PlainFile | null {
  let link: Link | null = sb.root;
  for (const name of walkNames(base, rel)) link = link && step(link, name);
  return link && plainFile(link, maxBytes);
}

/** readPlainMemory of each of `names` in folder `base`, the folder walked to once. */
export function readPlainMemoryMany(
  sb: Superblock,
  base: string,
  names: readonly string[],
  maxBytes: number,
): Array<PlainFile | null> {
  let dir: Link | null = sb.root;
  for (const name of base.split('/')) if (name !== '') dir = dir && step(dir, name);
  return names.map((name) => {
    if (dir === null || name === '' || name === '.' || name === '..' || name.includes('/')) return null;
    const link = step(dir, name);
    return link && plainFile(link, maxBytes);
  });
}

/** `name` in folder `link`, when the folder may be entered and the entry is no link. */
function step(link: Link, name: string): Link | null {
  const dir = link.getNode();
  if (!dir.isDirectory() || !dir.canExecute(0, 0)) return null;
  const child = link.getChild(name);
  return child && !child.getNode().isSymlink() ? child : null;
}

function plainFile(link: Link, maxBytes: number): PlainFile | null {
  const node = link.getNode();
  if (!node.isFile() || !node.canRead(0, 0)) return null;
  const stat = statOfNode(node)!;
  if (stat.size > maxBytes) return { stat, bytes: null };
  const bytes = node.getBuffer();
  return { stat, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

function walkNames(base: string, rel: string): string[] {
  const names = base.split('/').filter((n) => n !== '');
  for (const n of rel.split('/')) names.push(n);
  return names;
}
