import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';
import { countingNodeFs, inotifyWatches } from '../support/node-watch-probes.js';

// A rescan narrowed to what the backend's change feed saw (a folder watcher on node, the
// backend's own journal on memory) must find every change a whole pass finds. Each step changes
// the tree behind the tools' back and rescans at once; the snapshot must then hold exactly what
// the disk holds, and the pass must have listed only a few folders, not the whole tree.

let root: string | null = null;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** path -> mode and blob id of every file and link below `dir`, as git would record them. */
function onDisk(dir: string, rel = '', out = new Map<string, string>()): Map<string, string> {
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    if (rel === '' && e.name === '.sandpit') continue;
    const path = rel ? `${rel}/${e.name}` : e.name;
    const abs = join(dir, path);
    if (e.isDirectory()) onDisk(dir, path, out);
    else if (e.isSymbolicLink()) out.set(path, `120000 ${blobId(new TextEncoder().encode(readlinkSync(abs)))}`);
    else out.set(path, `${statSync(abs).mode & 0o111 ? '100755' : '100644'} ${blobId(readFileSync(abs))}`);
  }
  return out;
}

async function held(ws: ReturnType<typeof createWorkspace>): Promise<Map<string, string>> {
  const files = await ws.snapshots!.tree.files('');
  return new Map([...files].map(([path, leaf]) => [path, `${leaf.mode} ${leaf.oid}`]));
}

it.runIf(process.platform === 'linux')(
  'on node, a rescan after changes behind the back looks only where the watcher saw them, and misses none',
  async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-rescan-watch-'));
    const at = root;
    const put = (rel: string, text: string) => {
      mkdirSync(join(at, rel, '..'), { recursive: true });
      writeFileSync(join(at, rel), text);
    };
    for (let d = 0; d < 20; d++) for (let f = 0; f < 5; f++) put(`pkg/d${d}/f${f}.txt`, `${d}/${f}\n`);
    put('top.txt', 'top\n');
    put('kind/inner.txt', 'inner\n');
    put('swap', 'a file\n');
    put('replaced/old.txt', 'old\n');
    symlinkSync('top.txt', join(at, 'link'));
    const watchesBefore = inotifyWatches();
    const { fs, listed } = countingNodeFs(at);
    const ws = createWorkspace({ fs, root: at });
    await ws.snapshots!.open();
    await ws.rescan();
    expect(inotifyWatches()).toBeGreaterThan(watchesBefore);

    const steps: Array<[string, () => void]> = [
      ['an edit right before the rescan', () => writeFileSync(join(at, 'pkg/d3/f1.txt'), 'changed\n')],
      [
        'a same-size edit in the same second, its mtime put back',
        () => {
          const p = join(at, 'pkg/d4/f2.txt');
          const before = statSync(p);
          writeFileSync(p, '4/X\n');
          utimesSync(p, before.atime, before.mtime);
        },
      ],
      ['a delete', () => unlinkSync(join(at, 'pkg/d5/f0.txt'))],
      ['a rename of a file', () => renameSync(join(at, 'pkg/d6/f1.txt'), join(at, 'pkg/d7/moved.txt'))],
      ['a rename of a folder', () => renameSync(join(at, 'pkg/d8'), join(at, 'pkg/d8-moved'))],
      [
        'a new folder with folders inside, then a file in its new subfolder',
        () => {
          put('fresh/a/b/c.txt', 'c\n');
          put('fresh/a/b/d/e.txt', 'e\n');
        },
      ],
      ['a file in the new folder after it was watched', () => put('fresh/a/b/d/later.txt', 'later\n')],
      [
        'a file that became a folder',
        () => {
          unlinkSync(join(at, 'swap'));
          put('swap/now-a-folder.txt', 'folder\n');
        },
      ],
      [
        'a folder that became a file',
        () => {
          rmSync(join(at, 'kind'), { recursive: true });
          writeFileSync(join(at, 'kind'), 'now a file\n');
        },
      ],
      ['a link retargeted', () => (unlinkSync(join(at, 'link')), symlinkSync('pkg/d0/f0.txt', join(at, 'link')))],
      ['a file that became a link', () => (unlinkSync(join(at, 'top.txt')), symlinkSync('link', join(at, 'top.txt')))],
      [
        'a folder replaced by another of the same name',
        () => {
          rmSync(join(at, 'replaced'), { recursive: true });
          put('replaced/new.txt', 'new\n');
        },
      ],
      ['an edit in the replacing folder', () => put('replaced/new.txt', 'newer\n')],
      ['an edit in the moved folder', () => put('pkg/d8-moved/f3.txt', 'moved and edited\n')],
      ['a mode change', () => chmodSync(join(at, 'pkg/d9/f4.txt'), 0o755)],
    ];
    const folders = readdirSync(join(at, 'pkg')).length;
    for (const [what, change] of steps) {
      change();
      const before = listed();
      await ws.rescan();
      expect(await held(ws), what).toEqual(onDisk(at));
      expect(listed() - before, `${what}: folders listed`).toBeLessThan(folders / 2);
    }
    // what the new folder held before its watch was set is in, and so is what came after
    expect([...(await held(ws)).keys()]).toContain('fresh/a/b/d/later.txt');
    expect(lstatSync(join(at, 'top.txt')).isSymbolicLink()).toBe(true);

    await ws.close();
    await expect.poll(() => inotifyWatches()).toBe(watchesBefore);
    // after close, a rescan still works, looking at everything
    put('after-close.txt', 'x\n');
    await ws.rescan();
    expect(await held(ws)).toEqual(onDisk(at));
    expect(inotifyWatches()).toBe(watchesBefore);
  },
);

it.runIf(process.platform === 'linux')(
  'on node, what a tool wrote and what changed behind its back between two rescans are both found',
  async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-rescan-watch-'));
    const at = root;
    mkdirSync(join(at, 'src'));
    writeFileSync(join(at, 'src/a.txt'), 'a\n');
    const ws = createWorkspace({ fs: createNodeFs({ root: at }), root: at });
    await ws.snapshots!.open();
    await ws.rescan();
    expect((await ws.call('write_file', { path: 'src/a.txt', content: 'tool\n' })).ok).toBe(true);
    // the same size as the tool's bytes, right after them
    writeFileSync(join(at, 'src/a.txt'), 'back\n');
    writeFileSync(join(at, 'src/node_modules'), 'a file named like a skipped folder\n');
    mkdirSync(join(at, 'node_modules/pkg'), { recursive: true });
    writeFileSync(join(at, 'node_modules/pkg/i.js'), 'i\n');
    const found = await ws.rescan();
    expect(await held(ws)).toEqual(new Map([...onDisk(at)].filter(([p]) => !p.startsWith('node_modules/'))));
    expect(found?.skipped.map((s) => [s.path, s.reason])).toEqual([['node_modules', 'excluded']]);
    // a narrowed pass reports what the last whole pass skipped, as a whole pass would
    writeFileSync(join(at, 'src/b.txt'), 'b\n');
    expect((await ws.rescan())?.skipped.map((s) => s.path)).toEqual(['node_modules']);
    await ws.close();
  },
);

it('on memory, a rescan looks only at what changed through the backend, and misses none', async () => {
  const fs = createMemoryFs({ '/ws/a/one.txt': '1\n', '/ws/a/two.txt': '2\n', '/ws/b/c/three.txt': '3\n' });
  let listings = 0;
  const counting: WorkspaceFs = {
    ...fs,
    readdirStats: (path) => {
      listings++;
      return fs.readdirStats!(path);
    },
  };
  const ws = createWorkspace({ fs: counting, root: '/ws' });
  await ws.snapshots!.open();
  await ws.rescan();
  const text = (s: string) => new TextEncoder().encode(s);
  const tree = async () =>
    [...(await ws.snapshots!.tree.files(''))].map(([p, l]) => [p, l.oid.slice(0, 7)] as const).sort();
  const steps: Array<[string, () => Promise<unknown>, string[]]> = [
    ['an edit', () => fs.writeFile('/ws/a/one.txt', text('one\n')), ['a/one.txt', 'a/two.txt', 'b/c/three.txt']],
    ['a delete', () => fs.unlink('/ws/a/two.txt'), ['a/one.txt', 'b/c/three.txt']],
    ['a folder moved', () => fs.rename('/ws/b', '/ws/moved'), ['a/one.txt', 'moved/c/three.txt']],
    [
      'a write through a link to a folder',
      async () => {
        await fs.symlink('/ws/moved/c', '/ws/via');
        await fs.writeFile('/ws/via/four.txt', text('4\n'));
      },
      ['a/one.txt', 'moved/c/four.txt', 'moved/c/three.txt', 'via'],
    ],
    [
      'a write through a link to a file',
      async () => {
        await fs.symlink('a/one.txt', '/ws/to-one');
        await ws.rescan();
        await fs.writeFile('/ws/to-one', text('through the link\n'));
      },
      ['a/one.txt', 'moved/c/four.txt', 'moved/c/three.txt', 'to-one', 'via'],
    ],
  ];
  for (const [what, change, paths] of steps) {
    const before = await tree();
    await change();
    const start = listings;
    await ws.rescan();
    expect(
      (await tree()).map(([p]) => p),
      what,
    ).toEqual(paths);
    expect(await tree(), what).not.toEqual(before);
    if (what === 'an edit' || what === 'a delete') expect(listings - start, what).toBeLessThanOrEqual(1);
  }
  const one = await ws.call('read_file', { path: 'a/one.txt' });
  expect(one.ok && (one.result as { content: string }).content).toBe('through the link\n');
  const oneOid = (await ws.snapshots!.tree.files('')).get('a/one.txt')!.oid;
  expect(oneOid).toBe(blobId(text('through the link\n')));
  await ws.close();
});

it.runIf(process.platform === 'linux')(
  'a script that opens a node workspace, rescans and closes it exits by itself',
  async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-rescan-exit-'));
    writeFileSync(join(root, 'a.txt'), 'a\n');
    const entry = resolve('dist/node/index.js');
    const script = `
      // what the process holds before any work: its own stdout and stderr (pipes, made on first use)
      void process.stdout;
      void process.stderr;
      const atStart = process.getActiveResourcesInfo();
      const { openNodeWorkspace } = await import(${JSON.stringify(entry)});
      const { writeFileSync } = await import('node:fs');
      const ws = openNodeWorkspace(${JSON.stringify(root)});
      await ws.rescan();
      writeFileSync(${JSON.stringify(join(root, 'b.txt'))}, 'b\\n');
      const found = await ws.rescan();
      process.stdout.write(JSON.stringify(found.changed) + '\\n');
      await ws.close();
      // one turn of the loop after close: what it holds beyond its start would keep it alive
      setImmediate(() => process.stdout.write(JSON.stringify([atStart, process.getActiveResourcesInfo()]) + '\\n'));
    `;
    // No clock on the child (a busy machine took over 20 s to load, scan and close): the script says
    // when its work is done and what still holds its loop; with nothing held, it must exit on its own.
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // 'close': after the child's stdout has been read to its end
    const exited = new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    let out = '';
    const reported = new Promise<string[]>((done, fail) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const lines = out.split('\n');
        if (lines.length > 2) done(lines.slice(0, 2));
      });
      void exited.then(() => fail(new Error(`the script ended before it reported: ${out}`)));
    });
    let changed: string;
    try {
      const [first, held] = await reported;
      changed = first!;
      const [atStart, afterClose] = JSON.parse(held!) as string[][];
      expect(afterClose).toEqual(atStart);
    } catch (error) {
      child.kill();
      throw error;
    }
    expect(await exited).toBe(0);
    expect(changed).toBe('["b.txt"]');
  },
);
