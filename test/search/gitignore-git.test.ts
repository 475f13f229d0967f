import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';
import { compileGitignore } from '../../src/search/gitignore.js';
import { isIgnored, type IgnoreRules } from '../../src/search/ignore.js';
import { DEFAULT_SNAPSHOT_EXCLUDES, SKIPPED_FOLDERS } from '../../src/search/skipped-folders.js';

/**
 * .gitignore patterns against git itself: random trees, random `.gitignore` files at random
 * levels (patterns from real projects' files and the corners of gitignore(5)), and the files
 * `git ls-files --others --exclude-standard` lists against those a walk with these rules keeps.
 */
const NAMES = [
  'a',
  'b',
  'c.log',
  'd.tmp',
  'Foo',
  'foo',
  'e.md',
  'x.js',
  'keep.log',
  'tmp',
  'logs',
  'doc',
  'a b',
  '#x',
  '!y',
  'z[1]',
  'q?',
  'build.js',
  'Out',
  'v1.2',
  'x.JS',
  'log',
  'caf\u00e9',
  'na\u00efve.txt',
  '.env',
  '.hidden',
  'x*y',
  'back\\slash',
  'sp ace ',
  '-dash',
  'abc',
  'ab',
  'a.b.c',
  '__init__.py',
  'x.pyc',
  'Cargo.lock',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'aaaaaaaaaaab',
];
const PATTERNS = [
  '*.log',
  '!keep.log',
  '/a',
  'a/',
  'tmp',
  'tmp/',
  '**/tmp',
  'doc/*.md',
  'doc/**',
  '!doc/e.md',
  '/foo',
  'Foo',
  '*.tmp',
  '!*.tmp',
  'logs/',
  '!logs/',
  'a/**/b',
  '**/a/x.js',
  '\\#x',
  '\\!y',
  'z\\[1\\]',
  'z[1]',
  'q?',
  '*',
  '!*/',
  '!*.js',
  'a/b',
  '/a/b/',
  '**',
  'doc/',
  '!/doc',
  'x.js ',
  'x.js\\ ',
  '#comment',
  '',
  '*.[jJ][sS]',
  'v1.*',
  '**/e.md',
  'a/**',
  '/*',
  '!/a',
  '*/',
  'log*',
  'b/',
  '!b',
  '?',
  'a*/',
  '**/b/**',
  'caf?',
  'caf\u00e9',
  'caf[\u00e9]',
  '[!a-c]*',
  '[^x]*',
  '[a-c]',
  '[[:upper:]]*',
  '[[:digit:]]*',
  '*[[:space:]]*',
  'x\\*y',
  'x*y',
  'back\\\\slash',
  'sp ace\\ ',
  '[z-a]',
  '[a-]*',
  '[]]',
  'a[',
  '.env',
  '.*',
  '!.env',
  '*.py[cod]',
  '__pycache__/',
  '/Cargo.lock',
  '**/*.log',
  'a/**/',
  '***',
  'a**b',
  '**/',
  '*.b.*',
  '\\',
  'foo\\',
  '[\\]]',
  'doc/**/*.md',
  '!**/keep.log',
  'x.JS',
  '*.JS',
  '*a*b*',
  '**/a/**/x.js',
  'a/**/b/**',
  '*.*.*',
  '**/**/e.md',
  '*o*o*',
  '?*?',
  'a*/**/*',
  '**/*[0-9]*',
  '*a*a*a*',
  '**/b*/**/*.log',
  'a**/**b',
  '/**/a',
  'a/*',
  '*/a',
  '!',
  '/',
  '//a',
  '-dash',
  '!-dash',
  '\\-dash',
];

function* seeds(count: number, first: number) {
  for (let i = 0; i < count; i++) yield first + i;
}

describe('.gitignore rules against git', () => {
  const base = mkdtempSync(join(tmpdir(), 'sandpit-gitignore-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  /** The files a walk keeps: excluded folders are not entered, the deepest file with an opinion wins. */
  function kept(root: string): string[] {
    const out: string[] = [];
    const visit = (rel: string, stack: IgnoreRules[]) => {
      const dir = join(root, rel);
      const names = readdirSync(dir, { withFileTypes: true });
      const here = names.some((d) => d.name === '.gitignore' && d.isFile())
        ? [
            ...stack,
            { base: rel, rules: compileGitignore(new TextDecoder().decode(readFileSync(join(dir, '.gitignore')))) },
          ]
        : stack;
      for (const d of names) {
        if (rel === '' && d.name === '.git') continue;
        const path = rel === '' ? d.name : `${rel}/${d.name}`;
        if (isIgnored(here, path, d.isDirectory())) continue;
        if (d.isDirectory()) visit(path, here);
        else out.push(path);
      }
    };
    visit('', []);
    return out.sort();
  }

  /** A random tree with random `.gitignore` files in folder `seed` under base, git initialised there; what git keeps. */
  function randomTree(seed: number): { root: string; ignores: Record<string, string>; git: string[] } {
    let state = seed;
    const random = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
    const root = join(base, String(seed));
    const files = new Set<string>();
    const add = (dir: string, depth: number) => {
      for (let i = 0; i < 4; i++) {
        const path = dir ? `${dir}/${pick(NAMES)}` : pick(NAMES);
        if (depth < 3 && random() < 0.35) add(path, depth + 1);
        else files.add(path);
      }
    };
    add('', 0);
    const leaves = [...files].filter((f) => ![...files].some((g) => g.startsWith(`${f}/`)));
    const dirs = new Set(['']);
    for (const f of leaves) {
      const parts = f.split('/');
      for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), 'x\n');
    }
    const ignores: Record<string, string> = {};
    for (const d of dirs) {
      if (d !== '' && random() >= 0.3) continue;
      const lines = Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(PATTERNS));
      const end = random() < 0.1 ? '\r\n' : '\n';
      ignores[d] = (random() < 0.05 ? '\uFEFF' : '') + lines.join(end) + (random() < 0.8 ? end : '');
      writeFileSync(join(root, d, '.gitignore'), ignores[d]!);
    }
    execFileSync('git', ['init', '-q'], { cwd: root });
    const git = execFileSync('git', ['-c', 'core.quotePath=false', 'ls-files', '-o', '--exclude-standard', '-z'], {
      cwd: root,
    })
      .toString()
      .split('\0')
      .filter(Boolean)
      .sort();
    return { root, ignores, git };
  }

  const differing = (seed: number, ignores: unknown, git: string[], ours: string[]) =>
    JSON.stringify(git) === JSON.stringify(ours)
      ? []
      : [
          {
            seed,
            ignores,
            onlyGit: git.filter((p) => !ours.includes(p)),
            onlyOurs: ours.filter((p) => !git.includes(p)),
          },
        ];

  it('keeps the files git keeps, on 150 random trees', () => {
    const differences: unknown[] = [];
    for (const seed of seeds(150, 1)) {
      const { root, ignores, git } = randomTree(seed);
      differences.push(...differing(seed, ignores, git, kept(root)));
      rmSync(root, { recursive: true, force: true });
    }
    expect(differences.slice(0, 5)).toEqual([]);
  });

  it('answers hostile patterns on names of many a-s as git does, each in one pass over the name', () => {
    const root = join(base, 'hostile');
    const deep = `${Array(40).fill('x').join('/')}/b`;
    const names = ['a'.repeat(200), `${'a'.repeat(120)}b`, deep, `${deep}a`];
    for (const name of names) {
      mkdirSync(join(root, name, '..'), { recursive: true });
      writeFileSync(join(root, name), '');
    }
    execFileSync('git', ['init', '-q'], { cwd: root });
    const hostile = [
      '*a*a*a*a*a*a*a*a*a*a*a*a*b',
      'a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a',
      '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*',
      '**/**/**/**/**/**/**/**/**/**/a',
      '**/**/**/**/b',
      'x/**/x/**/x/**/x/**/x/**/c',
      '**/*a*a*a*a*a*a*a*/**/b',
      '[a][a]*[a]*[a]*[a]*[a]*[a]*b',
    ];
    // git's own matcher backtracks for many seconds over these (none of them matches): not asked
    const gitTooSlow = new Set([
      `${hostile[1]} ${names[1]}`,
      `${hostile[6]} ${names[1]}`,
      `${hostile[3]} ${names[2]}`,
      `${hostile[3]} ${names[3]}`,
    ]);
    const differences: string[] = [];
    for (const pattern of hostile) {
      writeFileSync(join(root, '.gitignore'), `${pattern}\n`);
      const rules = compileGitignore(`${pattern}\n`);
      for (const name of names) {
        const git =
          !gitTooSlow.has(`${pattern} ${name}`) &&
          spawnSync('git', ['check-ignore', '-q', name], { cwd: root }).status === 0;
        if (rules.verdict(name, false) !== (git ? true : null)) differences.push(`${pattern} ${name}: git ${git}`);
      }
    }
    expect(differences).toEqual([]);
    expect(compileGitignore('**/**/**/**/**/**/**/**/**/**/b\n').verdict(deep, false)).toBe(true);
  });

  it('rules snapshots and search as git rules `git add -A`, on 25 random trees', async () => {
    const differences: unknown[] = [];
    const leftOut = new Set(DEFAULT_SNAPSHOT_EXCLUDES);
    for (const seed of seeds(25, 5001)) {
      const { root, ignores, git } = randomTree(seed);
      const ws = createWorkspace({ fs: createNodeFs({ root }), root });
      await ws.snapshots!.open();
      await ws.rescan();
      const snapshot = [...(await ws.snapshots!.tree.files()).keys()].sort();
      await ws.close();
      const wanted = git.filter(
        (p) =>
          !p
            .split('/')
            .slice(0, -1)
            .some((name) => leftOut.has(name)),
      );
      differences.push(...differing(seed, ignores, wanted, snapshot));
      // glob (and search) also leave out hidden names and every folder of SKIPPED_FOLDERS
      const globbed = await createWorkspace({ fs: createNodeFs(), root }).call<{ matches: string[] }>('glob', {
        pattern: '**',
        max_results: 100_000,
      });
      if (!globbed.ok) throw new Error(JSON.stringify(globbed.error));
      const visible = git.filter(
        (p) =>
          !p
            .split('/')
            .some((name, i, all) => name.startsWith('.') || (i < all.length - 1 && SKIPPED_FOLDERS.has(name))),
      );
      differences.push(...differing(seed, ignores, visible, [...globbed.result.matches].sort()));
      rmSync(root, { recursive: true, force: true });
    }
    expect(differences.slice(0, 5)).toEqual([]);
  });
});
