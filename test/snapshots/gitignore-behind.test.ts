import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';

// A .gitignore edited outside the tools (by a person, an editor, `git checkout`) rules the next
// snapshot, as `git add -A` would: a file it no longer names goes in, a new file it now names stays
// out, a file a snapshot already holds stays held. Whether the rescan is narrowed by the backend's
// change feed or walks everything (a backend with no feed, as IndexedDB and OPFS have none). The
// expected trees are what `git add -A && git commit` records after the same steps.

let temp: string | null = null;
afterEach(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = null;
});

const seed = {
  '.gitignore': '*.log\n',
  'a.log': 'log\n',
  'a.txt': 'a\n',
  'sub/b.tmp': 'held\n',
  'sub/deep/c.txt': 'c\n',
};

interface Setup {
  fs: WorkspaceFs;
  root: string;
  /** write a file behind the workspace's back */
  behind(rel: string, text: string): Promise<void>;
}

/** The same memfs with its change feed hidden: a real backend that, like IndexedDB, has none. */
function withoutFeed(inner: WorkspaceFs): WorkspaceFs {
  const out = Object.create(inner) as WorkspaceFs;
  Object.defineProperty(out, 'watchChanges', { value: undefined });
  return out;
}

const setups: Record<string, () => Setup> = {
  'memory, narrowed by its change feed': () => {
    const fs = createMemoryFs(Object.fromEntries(Object.entries(seed).map(([k, v]) => [`/ws/${k}`, v])));
    return { fs, root: '/ws', behind: (rel, text) => fs.writeFile(`/ws/${rel}`, new TextEncoder().encode(text)) };
  },
  'memory without a change feed, a whole walk': () => {
    const inner = createMemoryFs(Object.fromEntries(Object.entries(seed).map(([k, v]) => [`/ws/${k}`, v])));
    return {
      fs: withoutFeed(inner),
      root: '/ws',
      behind: (rel, text) => inner.writeFile(`/ws/${rel}`, new TextEncoder().encode(text)),
    };
  },
  'node, narrowed by its folder watcher': () => nodeSetup(false),
  'node without a change feed, a whole walk, every file an hour old': () => nodeSetup(true),
};

/**
 * A real folder. With `old`, every write behind the back also dates the file an hour back (each a
 * second apart), so the rules read from it are trusted by their stat and only a changed stat, not
 * a recent mtime, can tell the walk that the file changed.
 */
function nodeSetup(old: boolean): Setup {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-gitignore-behind-'));
  temp = dir;
  let aged = 0;
  const write = (rel: string, text: string) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
    if (old) {
      const when = Date.now() / 1000 - 3600 + aged++;
      utimesSync(join(dir, rel), when, when);
    }
  };
  for (const [rel, text] of Object.entries(seed)) write(rel, text);
  const fs = createNodeFs({ root: dir });
  return { fs: old ? withoutFeed(fs) : fs, root: dir, behind: async (rel, text) => write(rel, text) };
}

describe.each(Object.keys(setups))('a .gitignore changed behind the tools: %s', (name) => {
  it('rules the next snapshot', async () => {
    const { fs, root, behind } = setups[name]!();
    const ws = createWorkspace({ fs, root });
    await ws.snapshots!.open();
    await ws.rescan();
    const tree = () => ws.snapshots!.tree;
    expect(await tree().get('a.log')).toBeFalsy();
    expect(await tree().get('a.txt')).toBeTruthy();
    expect(await tree().get('sub/b.tmp')).toBeTruthy();

    await behind('.gitignore', '');
    await behind('sub/.gitignore', '*.tmp\n');
    await behind('sub/new.tmp', 'new\n');
    await ws.rescan();
    expect(await tree().get('a.log'), 'no longer ignored').toBeTruthy();
    expect(await tree().get('sub/new.tmp'), 'newly ignored').toBeFalsy();
    expect(await tree().get('sub/b.tmp'), 'held before the rule came').toBeTruthy();

    await behind('sub/.gitignore', '*.tmp\n!new.tmp\n');
    await ws.rescan();
    expect(await tree().get('sub/new.tmp'), 'taken in again').toBeTruthy();
    await ws.close();
  });
});
