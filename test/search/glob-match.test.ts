import picomatch from 'picomatch/posix.js';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/search/glob.js';

const paths = [
  'a',
  'a.ts',
  '.hidden.ts',
  'a/x.ts',
  'a-b/x.ts',
  'src/index.ts',
  'src/util/str.ts',
  'src/util/str.test.ts',
  'src/readme.md',
  'docs/guide.md',
  '.github/ci.yml',
  'node_modules/pkg/index.ts',
  'file1.txt',
  'file12.txt',
  'fileb.txt',
  'x.js',
  'deep/a/b/c/d.js',
  'a/b',
  'a/b/c',
  'ab',
  'B',
  'é.md',
  'src/a(b).ts',
  'src/a+b.ts',
  'q[1].txt',
  'dir/sub',
];

const patterns = [
  '*',
  '**',
  '*.ts',
  '**/*.ts',
  'src/**/*.ts',
  'src/*.ts',
  'src/**',
  'a/**',
  '**/b',
  'a/**/c',
  '{docs,src}/*.md',
  '*.{ts,md}',
  '*.{ts,{md,yml}}',
  'file{1..3}.txt',
  'file{a..c}.txt',
  'file?.txt',
  'file??.txt',
  'file[0-9].txt',
  'file[^a].txt',
  'file[[:digit:]]*.txt',
  '*.@(ts|md)',
  '*.+(t|s)',
  'file?(1).txt',
  '*(x).js',
  '*.(ts|js)',
  'src/a\\(b\\).ts',
  'src/a+b.ts',
  'q\\[1\\].txt',
  '.*',
  'a*',
  '*b',
  '!*.ts',
  'deep/**/d.js',
  '**/c/*.js',
  'é.md',
  'src/util/*.test.ts',
];

describe('glob matching (RE2)', () => {
  it('agrees with picomatch (dot names included) on the patterns tools and tests use', async () => {
    const differences: string[] = [];
    for (const pattern of patterns) {
      const ours = await compileGlob(pattern);
      const theirs = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
      for (const p of paths) if (ours(p) !== theirs(p)) differences.push(`${pattern} ~ ${p}: ours ${ours(p)}`);
    }
    expect(differences).toEqual([]);
  });

  it("reads '[!0-9]' as POSIX does (not a digit), where picomatch 4 inverts it", async () => {
    const test = await compileGlob('file[!0-9].txt');
    expect([test('fileb.txt'), test('file1.txt')]).toEqual([true, false]);
  });

  it('matches names with line breaks, as search finds them', async () => {
    expect((await compileGlob('**'))('a/line\nbreak.txt')).toBe(true);
    expect((await compileGlob('*.txt'))('a/line\nbreak.txt')).toBe(true);
    expect((await compileGlob('a/*'))('a/line\nbreak.txt')).toBe(true);
    expect((await compileGlob('a/*'))('a/b/c')).toBe(false);
  });

  it('refuses negated extglobs, which have no linear-time form, by name', async () => {
    await expect(compileGlob('!(a).ts')).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS' });
    await expect(compileGlob('*.!(ts)')).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });
});
