import { describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/fs/memory.js';
import { DIFF_FLAGS } from '../../src/shell/commands/files/diff.js';
import { LS_FLAGS } from '../../src/shell/commands/files/ls.js';
import { runShell } from '../../src/shell/run.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';

const FILES: Record<string, string> = {
  '/a.txt': 'one\ntwo\nthree\n',
  '/b.txt': 'one\n2\nthree\n',
  '/spaced.txt': 'one\ntwo  x\nthree\n',
  '/nospace.txt': 'one\ntwox\nthree\n',
  '/blank.txt': 'one\n\ntwo\nthree\n',
  '/long.txt': `${'x'.repeat(3000)}\n`,
  '/.hidden': 'h\n',
  '/src/main.ts': 'm\n',
  '/ctx1.txt': 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n',
  '/ctx2.txt': 'l1\nl2\nl3\nl4\nCHANGED\nl6\nl7\nl8\n',
};

async function run(command: string, fresh?: (fs: ReturnType<typeof createMemoryFs>) => Promise<void>) {
  const fs = createMemoryFs(FILES);
  await fresh?.(fs);
  const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
  const r = await runShell({
    fs,
    root: '/',
    command,
    cwd: '.',
    env: {},
    timeoutMs: 10_000,
    apply: (steps) => writer.apply(steps, { allOrNothing: false }),
  });
  return `${r.exit_code}\n${r.stdout}`;
}

/** For each option a command parses: a command line with it and the same line without it. */
const CASES: Record<string, Record<string, [string, string]>> = {
  ls: {
    l: ['ls -l a.txt', 'ls a.txt'],
    a: ['ls -a', 'ls'],
    A: ['ls -A', 'ls'],
    R: ['ls -R', 'ls'],
    F: ['ls -F', 'ls'],
    d: ['ls -d src', 'ls src'],
    h: ['ls -lh long.txt', 'ls -l long.txt'],
    t: ['ls -t a.txt new.txt', 'ls a.txt new.txt'],
    S: ['ls -S a.txt long.txt', 'ls a.txt long.txt'],
    r: ['ls -r', 'ls'],
  },
  diff: {
    u: ['diff -u a.txt b.txt | tail -n +3', 'diff a.txt b.txt'],
    q: ['diff -q a.txt b.txt', 'diff a.txt b.txt'],
    N: ['diff -N a.txt missing.txt', 'diff a.txt missing.txt'],
    b: ['diff -b spaced.txt <(sed "s/  / /" spaced.txt)', 'diff spaced.txt <(sed "s/  / /" spaced.txt)'],
    w: ['diff -w spaced.txt nospace.txt', 'diff spaced.txt nospace.txt'],
    B: ['diff -B a.txt blank.txt', 'diff a.txt blank.txt'],
    U: ['diff -U 1 ctx1.txt ctx2.txt | tail -n +3', 'diff -u ctx1.txt ctx2.txt | tail -n +3'],
  },
};

/** Options whose effect cannot show in a pipe's output, with the reason. */
const NO_VISIBLE_EFFECT: Record<string, Record<string, string>> = {
  ls: { '1': 'one name per line is already what ls prints when its output is not a terminal' },
};

const TABLES: Record<string, string> = { ls: LS_FLAGS, diff: DIFF_FLAGS };

describe('no option is accepted and ignored', () => {
  for (const [command, letters] of Object.entries(TABLES)) {
    it(`${command}: every option it parses has a case where it changes the output`, async () => {
      const missing = [...letters].filter((l) => !CASES[command]?.[l] && !NO_VISIBLE_EFFECT[command]?.[l]);
      expect(missing).toEqual([]);
      const same: string[] = [];
      for (const [letter, [withIt, without]] of Object.entries(CASES[command]!)) {
        // -t needs a file newer than the fixture: made in the overlay once the clock has moved on.
        const start = Date.now();
        while (letter === 't' && Date.now() <= start) await new Promise((r) => setTimeout(r, 1));
        const a = await run(letter === 't' ? `touch new.txt; ${withIt}` : withIt);
        const b = await run(letter === 't' ? `touch new.txt; ${without}` : without);
        if (a === b) same.push(`-${letter}: ${JSON.stringify(a)}`);
      }
      expect(same).toEqual([]);
    });
  }
});
