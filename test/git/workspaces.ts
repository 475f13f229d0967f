import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createMemoryFs, createWorkspace, type Workspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';

/** A fresh, empty workspace on one backend, and how to read back everything the backend holds. */
export interface Made {
  ws: Workspace;
  fs: WorkspaceFs;
  root: string;
  cleanup(): Promise<void>;
}

export const backends: Array<[string, () => Promise<Made>]> = [
  [
    'memory',
    async () => {
      const fs = createMemoryFs();
      return { ws: createWorkspace({ fs }), fs, root: '/', cleanup: async () => {} };
    },
  ],
  [
    'node',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'sandpit-git-ws-'));
      const fs = createNodeFs();
      return { ws: createWorkspace({ fs, root }), fs, root, cleanup: () => rm(root, { recursive: true, force: true }) };
    },
  ],
];

/** Every file below `dir` with its bytes (as latin1 text, so any byte compares), `.sandpit` included. */
export async function everything(fs: WorkspaceFs, dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const name of (await fs.readdir(abs)).sort()) {
      const path = abs === '/' ? `/${name}` : `${abs}/${name}`;
      const stat = await fs.lstat(path);
      const key = rel ? `${rel}/${name}` : name;
      if (stat.type === 'dir') {
        out[`${key}/`] = '';
        await walk(path, key);
      } else out[key] = Buffer.from(await fs.readFile(path)).toString('latin1');
    }
  };
  await walk(dir, '');
  return out;
}

/** The workspace's own files (no `.sandpit`, no `.git` a clone leaves), path to text. */
export async function workspaceFiles(made: Made): Promise<Record<string, string>> {
  const all = await everything(made.fs, made.root);
  return Object.fromEntries(
    Object.entries(all).filter(([k]) => !k.startsWith('.sandpit') && !k.startsWith('.git/') && !k.endsWith('/')),
  );
}

/**
 * The folder the real git reads: the node backend's own root, or memory's files written out to a
 * new temporary folder (added to `made`, for the caller to remove), `executable` ones as 0755.
 */
export async function onDisk(made: Made, exported: string[], executable: string[] = []): Promise<string> {
  if (made.root !== '/') return made.root;
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-dotgit-'));
  exported.push(dir);
  const { files } = await made.ws.exportFiles();
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.bytes, { mode: executable.includes(f.path) ? 0o755 : 0o644 });
  }
  return dir;
}
