import type { Link, Superblock } from '@jsonjoy.com/fs-core';
import { statOfNode } from './memory-links.js';
import type { PlainFile } from './types.js';

/**
 * `base/rel` read straight from memfs's tree when no component is a link (see
 * WorkspaceFs.readPlainFile): one walk over the folder links instead of an lstat per component and
 * a path-parsing open, read and close through memfs's API. Permissions are checked as memfs does.
 */
export function readPlainMemory(sb: Superblock, base: string, rel: string, maxBytes: number): PlainFile | null {
  let link: Link = sb.root;
  for (const name of walkNames(base, rel)) {
    const dir = link.getNode();
    if (!dir.isDirectory() || !dir.canExecute(0, 0)) return null;
    const child = link.getChild(name);
    if (!child || child.getNode().isSymlink()) return null;
    link = child;
  }
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
