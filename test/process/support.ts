import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNodeWorkspace, type NodeWorkspace, type NodeWorkspaceOptions } from '../../src/node/index.js';

export interface TempWorkspace {
  base: string;
  root: string;
  ws: NodeWorkspace;
  cleanup(): Promise<void>;
}

/** A real folder `ws/` beside an `outside/` one, opened as a Node workspace. */
export async function tempWorkspace(options: NodeWorkspaceOptions = {}): Promise<TempWorkspace> {
  const base = await mkdtemp(join(tmpdir(), 'sandpit-process-'));
  const root = join(base, 'ws');
  await mkdir(root);
  await mkdir(join(base, 'outside'));
  const ws = openNodeWorkspace(root, options);
  return {
    base,
    root,
    ws,
    async cleanup() {
      await ws.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** Whether a process still exists (a zombie waiting to be reaped counts as gone). */
export async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return process.platform !== 'linux';
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/**
 * Poll until `check` holds or `ms` pass; returns whether it held. The limit only ends a wait that
 * would never end: a process ending or starting is a state to wait for, and on a machine at load 45
 * a Node start alone took over 5 s, which failed tests whose behaviour was right.
 */
const HANG_GUARD_MS = 120_000;
export async function eventually(check: () => Promise<boolean> | boolean, ms = HANG_GUARD_MS): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const node = process.execPath;
