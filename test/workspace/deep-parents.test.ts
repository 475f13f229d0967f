import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter, type FileStep } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';

// Issue 30 item 6: checking every folder from the root again for each folder and file below it
// made a checkout of one file N folders deep cost N² stat calls. The work is counted, not timed.
const DEPTH = 300;
const deepDir = Array.from({ length: DEPTH }, () => 'a').join('/');

/** A real memfs whose lstat and stat calls are counted. */
function counting(inner: WorkspaceFs): WorkspaceFs & { stats: number } {
  const out = Object.create(inner) as WorkspaceFs & { stats: number };
  out.stats = 0;
  out.lstat = (path: string) => {
    out.stats++;
    return inner.lstat(path);
  };
  out.stat = (path: string) => {
    out.stats++;
    return inner.stat(path);
  };
  return out;
}

describe(`a file ${DEPTH} folders deep`, () => {
  it('is checked out as a clone does with stat calls proportional to the depth', async () => {
    const fs = counting(createMemoryFs({}));
    const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
    // what a clone's checkout hands the write path: every file written in parallel batches
    const steps: FileStep[] = [
      { kind: 'write', rel: `${deepDir}/f.txt`, bytes: new TextEncoder().encode('deep\n'), before: null },
      { kind: 'write', rel: `${deepDir}/g.txt`, bytes: new TextEncoder().encode('deep too\n'), before: null },
      { kind: 'write', rel: 'top.txt', bytes: new TextEncoder().encode('top\n'), before: null },
    ];
    await writer.apply(steps, { parallel: 16, prune: true, noteForSnapshot: false });
    expect(new TextDecoder().decode(await fs.readFile(`/${deepDir}/g.txt`))).toBe('deep too\n');
    expect(fs.stats).toBeLessThan(2 * DEPTH);
  });

  it('is made below its first new folder with no lookups: a folder this change made holds nothing yet', async () => {
    const fs = counting(createMemoryFs({}));
    const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
    const steps: FileStep[] = ['f.txt', 'g.txt'].map((name) => ({
      kind: 'write',
      rel: `${deepDir}/${name}`,
      bytes: new TextEncoder().encode(`${name}\n`),
      before: null,
    }));
    await writer.apply(steps, { parallel: 16, prune: true, noteForSnapshot: false });
    expect(new TextDecoder().decode(await fs.readFile(`/${deepDir}/g.txt`))).toBe('g.txt\n');
    // the top folder is looked up (the root was there before), then at most each file's own path
    expect(fs.stats).toBeLessThanOrEqual(1 + steps.length);
  });

  it('still refuses a file another call puts where a new folder goes, and leaves that file as it is', async () => {
    const inner = createMemoryFs({});
    const fs = Object.create(inner) as WorkspaceFs;
    // another call writes a file at the very path, inside a folder this change just made, first
    fs.mkdir = async (path, options) => {
      if (path === '/new/a/b') await inner.writeFile(path, 'theirs');
      return inner.mkdir(path, options);
    };
    const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
    const steps: FileStep[] = [
      { kind: 'write', rel: 'new/a/b/c/f.txt', bytes: new TextEncoder().encode('mine\n'), before: null },
    ];
    await expect(writer.apply(steps, { parallel: 16, noteForSnapshot: false })).rejects.toMatchObject({
      code: 'NOT_A_DIRECTORY',
    });
    expect(new TextDecoder().decode(await inner.readFile('/new/a/b'))).toBe('theirs');
    await expect(inner.lstat('/new/a/b/c')).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('is restored by undo, folder by folder, with stat calls proportional to the depth', async () => {
    const fs = counting(createMemoryFs({ 'top.txt': 'top\n' }));
    const ws = createWorkspace({ fs });
    expect((await ws.call('write_file', { path: `${deepDir}/f.txt`, content: 'deep\n' })).ok).toBe(true);
    expect((await ws.call('delete_path', { path: 'a', recursive: true })).ok).toBe(true);
    fs.stats = 0;
    // undo recreates each of the folders as its own step, outermost first, then the file
    const undone = await ws.call('undo', {});
    expect(undone.ok).toBe(true);
    const read = await ws.call<{ content: string }>('read_file', { path: `${deepDir}/f.txt` });
    expect(read.ok && read.result.content).toBe('deep\n');
    expect(fs.stats).toBeLessThan(3 * DEPTH);
  });
});
