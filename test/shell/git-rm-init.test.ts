import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeBackend, realGit, shellGit } from './git-harness.js';

const base = mkdtempSync(join(tmpdir(), 'sandpit-git-rm-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Each line after the first runs in both gits on the same files, and must print and exit alike, stderr included. */
const LINES = [
  "git init -q; printf 'a\\n' > a.txt; printf 'b\\n' > b.txt; printf 'c\\n' > c.txt; git add .; git commit -qm one",
  'echo more >> a.txt; git rm a.txt',
  'echo more >> b.txt; git rm a.txt b.txt',
  'git rm -q --cached b.txt; git status --porcelain; git reset -q',
  'git add a.txt; git rm a.txt',
  'echo again >> a.txt; git rm a.txt',
  'git rm --cached a.txt',
  'git ls-files; git status --porcelain',
  'printf n > new.txt; git add new.txt; git rm new.txt',
  'rm c.txt; git rm c.txt',
  'git rm -f a.txt new.txt; git status --porcelain',
];

describe("the shell's git rm refuses to lose local work as git does; git init elsewhere is refused", () => {
  it('prints what git prints for rm of modified and staged files, stderr included, and removes nothing', async () => {
    const real = realGit(join(base, 'real'));
    const ours = shellGit(nodeBackend(join(base, 'ours')));
    const mismatches: string[] = [];
    for (const line of LINES) {
      const [want, got] = [real(line), await ours(line)];
      if (JSON.stringify(got) !== JSON.stringify(want))
        mismatches.push(`${line}\n ours: ${JSON.stringify(got)}\n real: ${JSON.stringify(want)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses `git init DIR` below the top with PERMISSION_DENIED, making nothing, inside a repository or not', async () => {
    const dir = join(base, 'init');
    const ours = shellGit(nodeBackend(dir));
    expect(await ours('git init -q')).toMatchObject({ exit: 0 });
    for (const line of ['git init x', 'mkdir -p y && cd y && git init']) {
      const r = await ours(line);
      expect(r.exit).toBe(128);
      expect(r.stderr).toMatch(/^fatal: cannot create a repository in '(x|\.)': .*\(PERMISSION_DENIED\)/);
    }
    expect(existsSync(join(dir, 'x'))).toBe(false);
    expect(existsSync(join(dir, 'y/.git'))).toBe(false);
    expect((await ours('git status --porcelain')).exit).toBe(0);
  });
});
