import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/open.js';
import { recordFigures } from './figures.js';
import { FULL, replayHint } from './sizes.js';
import { eventually } from '../process/support.js';

// A process outside the tools swaps `ws/sub` between a real folder and a link to a folder outside
// as fast as it can, while clients call every path-taking tool on `sub/...`.
const CALLS_PER_CLIENT = FULL ? 400 : 25;
const CLIENTS = 8;
const SECRET = 'OUTSIDE-SECRET-7f3a';

let base: string;
let root: string;
let outside: string;

// Each state is held for a random fraction of a millisecond, so both a folder and a link are
// there long enough for a call to resolve through one and then use the other. It writes how many
// times the link was really in place to a file, so the test knows the race was on.
const SWAPPER = `
const fs = require('node:fs');
const [sub, real, target, countFile] = process.argv.slice(1);
const counter = fs.openSync(countFile, 'w');
const cell = new Int32Array(new SharedArrayBuffer(4));
const hold = () => Atomics.wait(cell, 0, 0, Math.random() * 0.5);
let swaps = 0;
for (;;) {
  try { fs.renameSync(sub, real); } catch {}
  try { fs.symlinkSync(target, sub); fs.writeSync(counter, String(++swaps).padStart(12), 0); } catch {}
  hold();
  try { fs.unlinkSync(sub); } catch {}
  try { fs.renameSync(real, sub); } catch {}
  hold();
}`;

async function snapshotOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const path = join(dir, name);
    out[name] = await readFile(path, 'utf8').catch(() => '<dir>');
  }
  return out;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-swap-'));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  await mkdir(join(root, 'sub', 'deep'), { recursive: true });
  await mkdir(join(outside, 'deep'), { recursive: true });
  for (const dir of [join(root, 'sub'), outside]) {
    await writeFile(join(dir, 't.txt'), dir === outside ? `${SECRET}\n` : 'inside\n');
    await writeFile(join(dir, 'deep', 'd.txt'), dir === outside ? `${SECRET}\n` : 'inside deep\n');
  }
  // a name only the outside folder has: a glob or listing that looked outside would show it
  await writeFile(join(outside, `${SECRET}.txt`), 'x\n');
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('confinement while a folder is swapped for a link outside', () => {
  it('never changes, reads or litters anything outside', async () => {
    console.log(replayHint('swap-race'));
    const before = await snapshotOf(outside);
    const ws = openNodeWorkspace(root, { snapshots: { when: 'call' } });
    const start = await ws.call<{ id: string }>('snapshot', { message: 'start' });
    expect(start.ok).toBe(true);
    const startId = start.ok ? start.result.id : '';
    const countFile = join(base, 'swaps');
    const swaps = async () => Number((await readFile(countFile, 'utf8').catch(() => '0')).trim() || 0);
    const swapper = spawn(
      process.execPath,
      ['-e', SWAPPER, join(root, 'sub'), join(base, 'parked'), outside, countFile],
      { stdio: 'ignore' },
    );
    let swapsBefore = 0;
    let swapsDuring = 0;
    let calls = 0;
    const leaks: string[] = [];
    try {
      const client = async (n: number) => {
        for (let i = 0; i < CALLS_PER_CLIENT; i++) {
          const name = `c${n}-${i}`;
          const patch = `*** Begin Patch\n*** Add File: sub/${name}.p\n+p\n*** Update File: sub/t.txt\n@@\n-inside\n+inside\n*** End Patch\n`;
          const steps: Array<[string, Record<string, unknown>]> = [
            ['read_file', { path: 'sub/t.txt' }],
            ['read_file', { path: 'sub/deep/d.txt' }],
            ['write_file', { path: 'sub/t.txt', content: 'inside\n' }],
            ['write_file', { path: `sub/${name}.txt`, content: 'new\n' }],
            ['write_file', { path: 'sub/deep/d.txt', content: 'inside deep\n' }],
            ['append_file', { path: `sub/${name}.txt`, content: 'more\n' }],
            ['edit_file', { path: 'sub/t.txt', old_text: 'inside', new_text: 'inside' }],
            ['create_directory', { path: `sub/${name}-dir` }],
            ['move_path', { from: `sub/${name}.txt`, to: `sub/${name}.moved` }],
            ['delete_path', { path: `sub/${name}.moved` }],
            ['delete_path', { path: 'sub/deep/d.txt' }],
            ['search_files', { pattern: 'SECRET', path: 'sub' }],
            ['search_files', { pattern: 'OUTSIDE' }],
            ['file_bytes', { path: 'sub/t.txt' }],
            ['list_directory', { path: 'sub', recursive: true }],
            ['apply_patch', { patch }],
            ['undo', {}],
            ['exists', { path: 'sub/deep' }],
            ['restore_snapshot', { id: startId }],
            ['glob', { pattern: '**/*.txt', path: 'sub' }],
          ];
          const [tool, args] = steps[(n + i) % steps.length]!;
          const out = await ws.call(tool, args);
          calls++;
          if (JSON.stringify(out).includes(SECRET)) leaks.push(`${tool}: ${JSON.stringify(out).slice(0, 300)}`);
        }
      };
      // the calls start once the swapper is swapping, and it must have kept swapping while they ran
      if (!(await eventually(async () => (await swaps()) > 0, 10_000))) throw new Error('the swapper never swapped');
      swapsBefore = await swaps();
      await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
      swapsDuring = (await swaps()) - swapsBefore;
    } finally {
      swapper.kill('SIGKILL');
      await new Promise((resolve) => swapper.once('exit', resolve));
      await ws.close();
    }
    const after = await snapshotOf(outside);
    const changed = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
    recordFigures({
      area: 'swap race',
      backend: 'node',
      attempts: calls,
      escapes: changed.length + leaks.length,
      uncaught: 0,
      partial: 0,
      lost: 0,
      torn: 0,
      note: `${CLIENTS} clients, a process swapping a folder for a link outside (${swapsDuring} swaps during the calls)`,
    });
    expect(swapsDuring).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
    expect(changed).toEqual([]);
    expect(calls).toBe(CLIENTS * CALLS_PER_CLIENT);
  });
});
