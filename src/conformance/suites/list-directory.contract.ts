import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { open, type Harness } from '../harness.js';

export function listDirectoryContract(backend: BackendUnderTest) {
  describe('list_directory', () => {
    let h: Harness | undefined;
    // Reset after cleaning up, so a test that returns early (no symlinks) never cleans twice.
    afterEach(async () => {
      await h?.cleanup();
      h = undefined;
    });

    const seed = {
      'b.txt': 'bee\n',
      'a.md': '# a\n',
      'src/z.ts': 'export {}\n',
      'src/lib/deep.ts': 'x',
      'src-extra/q.ts': 'q',
      '.env': 'SECRET=1\n',
      '.config/c.json': '{}',
      'node_modules/pkg/index.js': 'module.exports = 1;\n',
    };

    it('lists one level, sorted, with types and sizes', async () => {
      h = await open(backend, seed);
      const r = await h.ok('list_directory', {});
      expect(r.path).toBe('.');
      expect(r.entries).toEqual([
        { path: 'a.md', name: 'a.md', type: 'file', size_bytes: 4 },
        { path: 'b.txt', name: 'b.txt', type: 'file', size_bytes: 4 },
        { path: 'node_modules', name: 'node_modules', type: 'directory', size_bytes: null },
        { path: 'src', name: 'src', type: 'directory', size_bytes: null },
        { path: 'src-extra', name: 'src-extra', type: 'directory', size_bytes: null },
      ]);
      expect(r).toMatchObject({ count: 5, truncated: false });
    });

    it('recurses depth first in path order, without entering node_modules', async () => {
      h = await open(backend, seed);
      const r = await h.ok('list_directory', { recursive: true });
      expect(r.entries.map((e: { path: string }) => e.path)).toEqual([
        'a.md',
        'b.txt',
        'node_modules',
        'src',
        'src/lib',
        'src/lib/deep.ts',
        'src/z.ts',
        'src-extra',
        'src-extra/q.ts',
      ]);
      const inside = await h.ok('list_directory', { path: 'node_modules', recursive: true });
      expect(inside.entries.map((e: { path: string }) => e.path)).toEqual([
        'node_modules/pkg',
        'node_modules/pkg/index.js',
      ]);
    });

    it('stops at max_depth, and max_depth above 1 implies recursion', async () => {
      h = await open(backend, seed);
      const two = await h.ok('list_directory', { path: 'src', max_depth: 2 });
      expect(two.path).toBe('src');
      expect(two.entries.map((e: { path: string }) => e.path)).toEqual(['src/lib', 'src/lib/deep.ts', 'src/z.ts']);
      const one = await h.ok('list_directory', { path: 'src', recursive: true, max_depth: 1 });
      expect(one.entries.map((e: { path: string }) => e.path)).toEqual(['src/lib', 'src/z.ts']);
    });

    it('shows hidden entries only on request, and never the reserved .sandpit', async () => {
      h = await open(backend, seed);
      await h.put('.sandpit/shadow/HEAD', 'ref\n');
      const hidden = await h.ok('list_directory', { include_hidden: true, recursive: true });
      const paths = hidden.entries.map((e: { path: string }) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['.env', '.config', '.config/c.json']));
      expect(paths.some((p: string) => p.startsWith('.sandpit'))).toBe(false);
      expect(paths.indexOf('.config')).toBeLessThan(paths.indexOf('.env'));
    });

    it('caps entries at max_entries (default 200) and says so', async () => {
      const many: Record<string, string> = {};
      for (let i = 0; i < 205; i++) many[`f${String(i).padStart(3, '0')}.txt`] = 'x';
      h = await open(backend, many);
      const r = await h.ok('list_directory', {});
      expect(r).toMatchObject({ count: 200, truncated: true });
      expect(r.entries[199].name).toBe('f199.txt');
      const few = await h.ok('list_directory', { max_entries: 3 });
      expect(few.entries.map((e: { name: string }) => e.name)).toEqual(['f000.txt', 'f001.txt', 'f002.txt']);
      expect(few.truncated).toBe(true);
      expect((await h.ok('list_directory', { max_entries: 205 })).truncated).toBe(false);
    });

    it('shows links as links and never follows them, even when they point outside', async () => {
      if (!backend.symlinks) return;
      h = await open(backend, { 'real/inner.txt': 'in\n', 'top.txt': 'top\n' });
      await h.fs.symlink(`${h.root}/real`, h.abs('dirlink'));
      await h.fs.symlink(`${h.root}/top.txt`, h.abs('filelink'));
      await h.fs.symlink(h.outside, h.abs('escape'));
      const r = await h.ok('list_directory', { recursive: true });
      expect(r.entries).toEqual([
        { path: 'dirlink', name: 'dirlink', type: 'symlink', size_bytes: null },
        { path: 'escape', name: 'escape', type: 'symlink', size_bytes: null },
        { path: 'filelink', name: 'filelink', type: 'symlink', size_bytes: null },
        { path: 'real', name: 'real', type: 'directory', size_bytes: null },
        { path: 'real/inner.txt', name: 'inner.txt', type: 'file', size_bytes: 3 },
        { path: 'top.txt', name: 'top.txt', type: 'file', size_bytes: 4 },
      ]);
      expect((await h.fail('list_directory', { path: 'escape' })).code).toBe('OUTSIDE_WORKSPACE');
    });

    it('refuses missing paths, files, escapes and bad arguments with their codes', async () => {
      h = await open(backend, seed);
      expect((await h.fail('list_directory', { path: 'nope' })).code).toBe('NOT_FOUND');
      expect((await h.fail('list_directory', { path: 'a.md' })).code).toBe('NOT_A_DIRECTORY');
      const out = await h.fail('list_directory', { path: '../outside' });
      expect(out.code).toBe('OUTSIDE_WORKSPACE');
      expect(JSON.stringify(out)).not.toContain(h.root);
      const bad = await h.fail('list_directory', { max_entries: 0, depth: 2 });
      expect(bad.code).toBe('INVALID_ARGUMENTS');
      expect(bad.problems).toEqual(
        expect.arrayContaining([
          { path: '/depth', message: 'is not a known argument' },
          expect.objectContaining({ path: '/max_entries' }),
        ]),
      );
    });
  });
}
