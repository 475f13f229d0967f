import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';

/** inotify watches this process holds (every thread's): what the node backend's folder watcher has set. */
export function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== 'anon_inode:inotify') continue;
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      /* closed meanwhile */
    }
  }
  return count;
}

/** The node backend, counting the folder listings a pass makes. */
export function countingNodeFs(at: string): { fs: WorkspaceFs; listed: () => number } {
  const inner = createNodeFs({ root: at });
  let listings = 0;
  const fs: WorkspaceFs = {
    ...inner,
    readdirStats: (path) => {
      listings++;
      return inner.readdirStats!(path);
    },
  };
  return { fs, listed: () => listings };
}
