import { describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/fs/memory.js';
import { DIFF_FLAGS } from '../../src/shell/commands/files/diff.js';
import { DU_FLAGS } from '../../src/shell/commands/files/du.js';
import { FILE_FLAGS } from '../../src/shell/commands/files/file.js';
import { LS_FLAGS } from '../../src/shell/commands/files/ls.js';
import { STAT_FLAGS } from '../../src/shell/commands/files/stat.js';
import { BASE64_FLAGS } from '../../src/shell/commands/encode/base64.js';
import { DIGEST_FLAGS } from '../../src/shell/commands/encode/digest.js';
import { OD_FLAGS } from '../../src/shell/commands/encode/od.js';
import { XXD_FLAGS } from '../../src/shell/commands/encode/xxd.js';
import { RG_FLAGS } from '../../src/shell/commands/search/rg.js';
import { DATE_FLAGS } from '../../src/shell/commands/system/date.js';
import { COMM_FLAGS } from '../../src/shell/commands/text/comm.js';
import { PASTE_FLAGS } from '../../src/shell/commands/text/paste.js';
import { SORT_FLAGS } from '../../src/shell/commands/text/sort.js';
import { runShell } from '../../src/shell/run.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';
import { CHMOD_FLAGS } from '../../src/shell/commands/files/chmod.js';
import { LN_FLAGS } from '../../src/shell/commands/files/ln.js';
import { READLINK_FLAGS } from '../../src/shell/commands/files/readlink.js';
import { TREE_FLAGS } from '../../src/shell/commands/files/tree.js';
import { KILL_FLAGS } from '../../src/shell/commands/jobs/kill.js';
import { COLUMN_FLAGS } from '../../src/shell/commands/text/column.js';
import { JOIN_FLAGS } from '../../src/shell/commands/text/join.js';

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
  '/s1.txt': 'a\nb\n',
  '/s2.txt': 'b\nc\n',
  '/upper.txt': 'ONE\n',
  '/.ignore': 'ign.txt\n',
  '/ign.txt': 'one\n',
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
  sort: {
    r: ['sort -r a.txt', 'sort a.txt'],
    n: ['printf "10\\n9\\n" | sort -n', 'printf "10\\n9\\n" | sort'],
    u: ['printf "a\\na\\n" | sort -u', 'printf "a\\na\\n" | sort'],
    f: ['printf "a\\nB\\n" | sort -f', 'printf "a\\nB\\n" | sort'],
    b: ['printf " b\\na\\n" | sort -b', 'printf " b\\na\\n" | sort'],
    s: ['printf "b 1\\na 1\\n" | sort -s -k2,2', 'printf "b 1\\na 1\\n" | sort -k2,2'],
    V: ['printf "v10\\nv9\\n" | sort -V', 'printf "v10\\nv9\\n" | sort'],
    z: ['printf "b\\na\\n" | sort -z', 'printf "b\\na\\n" | sort'],
    h: ['printf "2K\\n1M\\n" | sort -h', 'printf "2K\\n1M\\n" | sort'],
    c: ['sort -c b.txt', 'sort b.txt'],
    k: ['printf "a 2\\nb 1\\n" | sort -k2', 'printf "a 2\\nb 1\\n" | sort'],
    o: ['sort -o out.txt a.txt', 'sort a.txt'],
    t: ['printf "a,2\\nb,1\\n" | sort -t, -k2', 'printf "a,2\\nb,1\\n" | sort -k2'],
  },
  paste: { s: ['paste -s a.txt', 'paste a.txt'], d: ['paste -d, a.txt b.txt', 'paste a.txt b.txt'] },
  comm: {
    '1': ['comm -1 s1.txt s2.txt', 'comm s1.txt s2.txt'],
    '2': ['comm -2 s1.txt s2.txt', 'comm s1.txt s2.txt'],
    '3': ['comm -3 s1.txt s2.txt', 'comm s1.txt s2.txt'],
  },
  base64: {
    d: ['echo aGkK | base64 -d', 'echo aGkK | base64'],
    i: ['echo "aGk*K" | base64 -d -i', 'echo "aGk*K" | base64 -d'],
    w: ['base64 -w 4 a.txt', 'base64 a.txt'],
  },
  sha256sum: {
    c: ['sha256sum a.txt > s; sha256sum -c s', 'sha256sum a.txt > s; sha256sum s'],
    b: ['sha256sum -b a.txt', 'sha256sum a.txt'],
  },
  xxd: {
    p: ['xxd -p a.txt', 'xxd a.txt'],
    u: ['xxd -u a.txt', 'xxd a.txt'],
    l: ['xxd -l 2 a.txt', 'xxd a.txt'],
    c: ['xxd -c 4 a.txt', 'xxd a.txt'],
    g: ['xxd -g 1 a.txt', 'xxd a.txt'],
    s: ['xxd -s 2 a.txt', 'xxd a.txt'],
    r: ['echo 6869 | xxd -r -p', 'echo 6869 | xxd -p'],
  },
  od: {
    A: ['od -A x a.txt', 'od a.txt'],
    t: ['od -t x1 a.txt', 'od a.txt'],
    N: ['od -N 2 a.txt', 'od a.txt'],
    j: ['od -j 2 a.txt', 'od a.txt'],
    v: ['od -v -c long.txt', 'od -c long.txt'],
    c: ['od -c a.txt', 'od a.txt'],
    x: ['od -x a.txt', 'od a.txt'],
    b: ['od -b a.txt', 'od a.txt'],
    d: ['od -d a.txt', 'od a.txt'],
  },
  du: {
    s: ['du -s .', 'du .'],
    h: ['du -sh long.txt', 'du -s long.txt'],
    a: ['du -a src', 'du src'],
    c: ['du -c a.txt', 'du a.txt'],
    b: ['du -b a.txt', 'du a.txt'],
    m: ['du -m long.txt', 'du long.txt'],
    d: ['du -d 0 .', 'du .'],
  },
  file: { b: ['file -b a.txt', 'file a.txt'] },
  stat: { c: ['stat -c %s a.txt', 'stat --printf %s a.txt'] },
  date: {
    d: ['date -d @0 +%Y', 'date +%Y'],
    r: ['date -r a.txt +%Y', 'date -d @0 +%Y'],
    I: ['date -d @0 -I', 'date -d @0'],
    R: ['date -d @0 -R', 'date -d @0'],
  },
  rg: {
    n: ['rg -n one a.txt', 'rg one a.txt'],
    N: ['rg -n -N one a.txt', 'rg -n one a.txt'],
    i: ['rg -i ONE a.txt', 'rg ONE a.txt'],
    l: ['rg -l one a.txt b.txt', 'rg one a.txt b.txt'],
    c: ['rg -c one a.txt', 'rg one a.txt'],
    w: ['rg -w tw a.txt', 'rg tw a.txt'],
    F: ['rg -F o.e a.txt', 'rg o.e a.txt'],
    v: ['rg -v one a.txt', 'rg one a.txt'],
    x: ['rg -x on a.txt', 'rg on a.txt'],
    o: ['rg -o on a.txt', 'rg on a.txt'],
    S: ['rg -S one upper.txt', 'rg one upper.txt'],
    s: ['rg -i -s one upper.txt', 'rg -i one upper.txt'],
    H: ['rg -H one a.txt', 'rg one a.txt'],
    I: ['rg -I one a.txt b.txt', 'rg one a.txt b.txt'],
    q: ['rg -q one a.txt', 'rg one a.txt'],
    u: ['rg -u -l one . | sort', 'rg -l one . | sort'],
    e: ['rg -e one -e two a.txt', 'rg one a.txt'],
  },
  // ln, readlink, chmod, tree, kill, column, join
  ln: {
    s: ['ln -s a.txt l; readlink l', 'ln a.txt l; readlink l'],
    f: ['ln -s a.txt l; ln -sf b.txt l; readlink l', 'ln -s a.txt l; ln -s b.txt l; readlink l'],
    v: ['ln -sv a.txt l', 'ln -s a.txt l'],
    T: ['ln -sT a.txt src; readlink src/a.txt; echo $?', 'ln -s a.txt src; readlink src/a.txt; echo $?'],
  },
  readlink: {
    f: ['ln -s a.txt l; readlink -f l', 'ln -s a.txt l; readlink l'],
    e: ['readlink -e src/nosuch', 'readlink -m src/nosuch'],
    m: ['readlink -m no/such', 'readlink -f no/such'],
    n: ['ln -s a.txt l; readlink -n l', 'ln -s a.txt l; readlink l'],
    v: ['readlink -v a.txt 2>&1', 'readlink a.txt 2>&1'],
  },
  chmod: {
    R: ['chmod -R +x src; stat -c %a src/main.ts', 'chmod +x src; stat -c %a src/main.ts'],
    v: ['chmod -v +x a.txt', 'chmod +x a.txt'],
    c: ['chmod -c +x a.txt', 'chmod +x a.txt'],
    f: ['chmod -f 600 a.txt 2>&1', 'chmod 600 a.txt 2>&1'],
  },
  tree: {
    L: ['tree -L 1', 'tree'],
    a: ['tree -a', 'tree'],
    d: ['tree -d', 'tree'],
    I: ['tree -I src', 'tree'],
    N: ['tree --noreport', 'tree'],
  },
  kill: { l: ['kill -l 9', 'kill 9'] },
  column: {
    t: ['column -t spaced.txt', 'column spaced.txt'],
    s: ['column -t -s x spaced.txt', 'column -t spaced.txt'],
    o: ['column -t -o : spaced.txt', 'column -t spaced.txt'],
    c: ['seq 12 | column -c 20', 'seq 12 | column'],
    x: ['seq 12 | column -x -c 30', 'seq 12 | column -c 30'],
  },
  join: {
    t: ["join -t ' ' -a1 spaced.txt nospace.txt", 'join -a1 spaced.txt nospace.txt'],
    i: ['join -i a.txt upper.txt', 'join a.txt upper.txt'],
    '1': ['join -1 2 -a1 spaced.txt a.txt', 'join -a1 spaced.txt a.txt'],
    '2': ['join -2 2 -a2 a.txt spaced.txt', 'join -a2 a.txt spaced.txt'],
    j: ['join -j 2 -a1 spaced.txt spaced.txt', 'join -a1 spaced.txt spaced.txt'],
    a: ['join -a1 a.txt b.txt', 'join a.txt b.txt'],
    v: ['join -v1 a.txt b.txt', 'join a.txt b.txt'],
    e: ['join -a1 -e X -o 0,2.1 a.txt b.txt', 'join -a1 -o 0,2.1 a.txt b.txt'],
    o: ['join -o 1.1,0 a.txt b.txt', 'join a.txt b.txt'],
  },
};

/** Options whose effect cannot show in a pipe's output, with the reason. */
const NO_VISIBLE_EFFECT: Record<string, Record<string, string>> = {
  ls: { '1': 'one name per line is already what ls prints when its output is not a terminal' },
  sha256sum: { t: 'text mode is already the default on GNU/Linux, as in GNU' },
  du: { k: 'KiB are already the default unit' },
  date: { u: "the shell's clock is UTC whether or not -u is given" },
  ln: { n: 'this shell never follows a link, so a link to a folder is never taken for the folder, with or without -n' },
};

const TABLES: Record<string, string> = {
  ls: LS_FLAGS,
  diff: DIFF_FLAGS,
  sort: SORT_FLAGS,
  paste: PASTE_FLAGS,
  comm: COMM_FLAGS,
  base64: BASE64_FLAGS,
  sha256sum: DIGEST_FLAGS,
  xxd: XXD_FLAGS,
  od: OD_FLAGS,
  du: DU_FLAGS,
  file: FILE_FLAGS,
  stat: STAT_FLAGS,
  date: DATE_FLAGS,
  rg: RG_FLAGS,
  ln: LN_FLAGS,
  readlink: READLINK_FLAGS,
  chmod: CHMOD_FLAGS,
  tree: TREE_FLAGS,
  kill: KILL_FLAGS,
  column: COLUMN_FLAGS,
  join: JOIN_FLAGS,
};

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
