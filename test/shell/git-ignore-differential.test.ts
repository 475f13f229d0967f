import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryBackend, nodeBackend, realGit, shellGit } from './git-harness.js';

const base = mkdtempSync(join(tmpdir(), 'sandpit-git-ignore-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/**
 * .gitignore as projects write them, the shell's git against the real one: names differing only in
 * case (git on Linux matches case), a nested `.gitignore` re-including what the outer one
 * excludes, a folder excluded and then re-included by name, negations and `**`.
 */
const LINES = [
  'git init',
  "mkdir -p Build build logs/keep src/Generated src/generated docs/api vendor/lib; printf 'x\\n' > Build/out.txt; printf 'x\\n' > build/out.txt",
  "printf 'x\\n' > logs/a.log; printf 'x\\n' > logs/keep/b.log; printf 'x\\n' > logs/IMPORTANT.LOG; printf 'x\\n' > src/Generated/g.ts; printf 'x\\n' > src/generated/g.ts",
  "printf 'x\\n' > docs/api/index.md; printf 'x\\n' > docs/readme.md; printf 'x\\n' > vendor/lib/v.js; printf 'x\\n' > vendor/README; printf 'x\\n' > App.JS; printf 'x\\n' > app.js",
  "printf 'build/\\n*.log\\ngenerated/\\ndocs/**\\n!docs/readme.md\\n*.js\\nvendor/\\n' > .gitignore",
  'git status --porcelain',
  "printf '!keep/\\n!*.log\\n' > logs/.gitignore",
  'git status --porcelain',
  'git status --porcelain --untracked-files=all',
  "printf 'x\\n' > logs/keep/.gitignore; printf 'b.log\\n' > logs/keep/.gitignore",
  'git status --porcelain --untracked-files=all',
  "printf '*.JS\\n!App.JS\\n' > src/.gitignore; printf 'x\\n' > src/Main.JS; printf 'x\\n' > src/App.JS; printf 'x\\n' > src/generated.ts",
  'git status --porcelain --untracked-files=all',
  'git add .',
  'git status --porcelain',
  'git ls-files',
  "git commit -q -m 'with ignores'",
  // what git moves, checks out or stashes is staged though its new name is ignored
  'git mv docs/readme.md docs/renamed.log',
  'git status --porcelain',
  "git commit -q -m 'renamed'",
  'git checkout HEAD~1 -- docs/readme.md',
  'git status --porcelain',
  'git add build/out.txt',
  'git add build',
  "printf 'x\\n' > top.log; git add top.log",
  'git add -f build/out.txt; git status --porcelain',
  'git status -u --porcelain',
  "printf 'y\\n' > logs/stashed.log; git add logs/stashed.log; git status --porcelain",
  'git stash',
  'git status --porcelain',
  'git stash pop',
  'git status --porcelain',
  'git ls-files',
];

describe("the shell's git honours .gitignore as the real git does", () => {
  it('lists the same untracked and added files, on real files and on memory', async () => {
    const real = realGit(join(base, 'real'));
    const shells = { node: shellGit(nodeBackend(join(base, 'ours'))), memory: shellGit(memoryBackend()) };
    const mismatches: string[] = [];
    for (const line of LINES) {
      const want = real(line);
      for (const [name, shell] of Object.entries(shells)) {
        const got = await shell(line);
        if (got.exit !== want.exit || got.stdout !== want.stdout)
          mismatches.push(
            `${name}: ${line}\n${got.stdout}${got.stderr} (exit ${got.exit})\n!= git\n${want.stdout} (exit ${want.exit})`,
          );
      }
    }
    expect(mismatches).toEqual([]);
  });
});
