import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { open, type Harness } from '../harness.js';

export function globContract(backend: BackendUnderTest) {
  describe('glob', () => {
    let h: Harness | undefined;
    // Reset after cleaning up, so a test that returns early (no symlinks) never cleans twice.
    afterEach(async () => {
      await h?.cleanup();
      h = undefined;
    });

    const seed = {
      'a.ts': '',
      'a/x.ts': '',
      'a-b/x.ts': '',
      'src/index.ts': '',
      'src/util/str.ts': '',
      'src/util/str.test.ts': '',
      'src/readme.md': '',
      'docs/guide.md': '',
      '.github/ci.yml': '',
      '.hidden.ts': '',
      'node_modules/pkg/index.ts': '',
      'dist/out.ts': '',
      'logs/app.log': '',
      'tmp/keep.ts': '',
      'tmp/drop.ts': '',
      '.gitignore': 'logs/\ntmp/*\n!tmp/keep.ts\n',
      'src/util/.gitignore': '*.test.ts\n',
    };

    it('matches basenames at any depth for a pattern without a slash, in walk order', async () => {
      h = await open(backend, seed);
      const r = await h.ok('glob', { pattern: '*.ts' });
      expect(r.matches).toEqual(['a/x.ts', 'a-b/x.ts', 'a.ts', 'src/index.ts', 'src/util/str.ts', 'tmp/keep.ts']);
      expect(r).toMatchObject({ count: 6, truncated: false });
    });

    it('matches whole paths for a pattern with a slash, relative to path', async () => {
      h = await open(backend, seed);
      expect((await h.ok('glob', { pattern: 'src/*.ts' })).matches).toEqual(['src/index.ts']);
      expect((await h.ok('glob', { pattern: 'src/**/*.ts' })).matches).toEqual(['src/index.ts', 'src/util/str.ts']);
      expect((await h.ok('glob', { pattern: '**/*.md' })).matches).toEqual(['docs/guide.md', 'src/readme.md']);
      expect((await h.ok('glob', { pattern: 'util/*.ts', path: 'src' })).matches).toEqual(['src/util/str.ts']);
      expect((await h.ok('glob', { pattern: '{docs,src}/*.md' })).matches).toEqual(['docs/guide.md', 'src/readme.md']);
    });

    it('honours nested .gitignore files and their negations', async () => {
      h = await open(backend, seed);
      const all = await h.ok('glob', { pattern: '**/*' });
      expect(all.matches).not.toContain('logs/app.log');
      expect(all.matches).not.toContain('tmp/drop.ts');
      expect(all.matches).toContain('tmp/keep.ts');
      expect(all.matches).not.toContain('src/util/str.test.ts');
    });

    it('skips hidden entries unless asked, and dependency or build folders unless named', async () => {
      h = await open(backend, seed);
      const plain = await h.ok('glob', { pattern: '*' });
      expect(plain.matches.some((p: string) => p.startsWith('.') || p.includes('/.'))).toBe(false);
      expect(plain.matches.some((p: string) => p.startsWith('node_modules') || p.startsWith('dist'))).toBe(false);
      const hidden = await h.ok('glob', { pattern: '*', include_hidden: true });
      expect(hidden.matches).toEqual(expect.arrayContaining(['.github/ci.yml', '.hidden.ts', '.gitignore']));
      expect((await h.ok('glob', { pattern: 'node_modules/pkg/*.ts' })).matches).toEqual(['node_modules/pkg/index.ts']);
      expect((await h.ok('glob', { pattern: '.github/*.yml' })).matches).toEqual(['.github/ci.yml']);
    });

    it('finds folders with a trailing slash', async () => {
      h = await open(backend, seed);
      expect((await h.ok('glob', { pattern: 'src/*/' })).matches).toEqual(['src/util']);
      expect((await h.ok('glob', { pattern: 'a*/' })).matches).toEqual(['a', 'a-b']);
    });

    it('caps results at max_results and says so', async () => {
      h = await open(backend, seed);
      const r = await h.ok('glob', { pattern: '*.ts', max_results: 2 });
      expect(r).toMatchObject({ matches: ['a/x.ts', 'a-b/x.ts'], count: 2, truncated: true });
      expect((await h.ok('glob', { pattern: '*.ts', max_results: 6 })).truncated).toBe(false);
    });

    it('follows links to files inside the root and drops links that escape', async () => {
      if (!backend.symlinks) return;
      h = await open(backend, { 'real.ts': '' });
      await h.fs.symlink(`${h.root}/real.ts`, h.abs('alias.ts'));
      await h.fs.symlink(`${h.outside}/secret.txt`, h.abs('secret.ts'));
      expect((await h.ok('glob', { pattern: '*.ts' })).matches).toEqual(['alias.ts', 'real.ts']);
    });

    it('refuses escaping patterns, missing or file paths and bad arguments', async () => {
      h = await open(backend, seed);
      expect((await h.fail('glob', { pattern: '../*' })).code).toBe('INVALID_ARGUMENTS');
      expect((await h.fail('glob', { pattern: '/etc/*' })).code).toBe('INVALID_ARGUMENTS');
      expect((await h.fail('glob', { pattern: '*', path: 'nope' })).code).toBe('NOT_FOUND');
      expect((await h.fail('glob', { pattern: '*', path: 'a.ts' })).code).toBe('NOT_A_DIRECTORY');
      expect((await h.fail('glob', { pattern: '*', path: '../outside' })).code).toBe('OUTSIDE_WORKSPACE');
      expect((await h.fail('glob', {})).problems).toEqual([{ path: '/pattern', message: 'is required but missing' }]);
      expect((await h.ok('glob', { pattern: 'missing/**/*.ts' })).matches).toEqual([]);
    });
  });
}
