import { afterEach, describe, expect, it } from '../api.js';
import { createWorkspace } from '../../index.js';
import type { BackendUnderTest } from '../backend.js';
import { enc, open, type Harness } from '../harness.js';

interface Match {
  path: string;
  line: number;
  column: number;
  content: string;
  before?: string[];
  after?: string[];
}

export function searchFilesContract(backend: BackendUnderTest) {
  describe('search_files', () => {
    let h: Harness | undefined;
    // Reset after cleaning up, so a test that returns early (no symlinks) never cleans twice.
    afterEach(async () => {
      await h?.cleanup();
      h = undefined;
    });

    const where = (r: Record<string, any>) => (r.matches as Match[]).map((m) => `${m.path}:${m.line}:${m.column}`);

    it('finds literal text with path, line, column and content, one result per line, in path order', async () => {
      h = await open(backend, {
        'src/b.ts': 'none\nlet needle = needle;\n',
        'src/a.ts': 'needle first\nmiddle\n  two needle\n',
        'a/x.txt': 'needle\n',
        'a-b/x.txt': 'needle\n',
        'a.txt': 'needle\n',
        'emoji.txt': '😀é needle\n',
      });
      const r = await h.ok('search_files', { pattern: 'needle' });
      expect(where(r)).toEqual([
        'a/x.txt:1:1',
        'a-b/x.txt:1:1',
        'a.txt:1:1',
        'emoji.txt:1:4',
        'src/a.ts:1:1',
        'src/a.ts:3:7',
        'src/b.ts:2:5',
      ]);
      expect(r.matches[4]).toEqual({ path: 'src/a.ts', line: 1, column: 1, content: 'needle first' });
      expect(r).toMatchObject({ count: 7, truncated: false, next_cursor: null });
    });

    it('is case-sensitive by default, and takes regexes; a bad regex is INVALID_ARGUMENTS', async () => {
      h = await open(backend, { 'f.txt': 'Foo\nfoo\nFOO bar\nfood 42\n' });
      expect(where(await h.ok('search_files', { pattern: 'foo' }))).toEqual(['f.txt:2:1', 'f.txt:4:1']);
      expect(where(await h.ok('search_files', { pattern: 'foo', case_sensitive: false }))).toEqual([
        'f.txt:1:1',
        'f.txt:2:1',
        'f.txt:3:1',
        'f.txt:4:1',
      ]);
      expect(where(await h.ok('search_files', { pattern: '\\d+$', is_regex: true }))).toEqual(['f.txt:4:6']);
      expect(where(await h.ok('search_files', { pattern: '^fo+ ', is_regex: true, case_sensitive: false }))).toEqual([
        'f.txt:3:1',
      ]);
      expect((await h.ok('search_files', { pattern: 'f.o' })).count).toBe(0);
      const bad = await h.fail('search_files', { pattern: 'foo(', is_regex: true });
      expect(bad.code).toBe('INVALID_ARGUMENTS');
      expect(bad.message).toMatch(/not a valid regular expression/);
      expect(bad.problems).toEqual([{ path: '/pattern', message: 'is not a valid regular expression' }]);
      expect((await h.fail('search_files', { pattern: 'two\nlines' })).code).toBe('INVALID_ARGUMENTS');
    });

    it('skips hidden folders, node_modules, build outputs, binary and undecodable files', async () => {
      h = await open(backend, {
        'keep.txt': 'hit\n',
        '.hidden/x.txt': 'hit\n',
        '.dotfile': 'hit\n',
        'node_modules/p/i.js': 'hit\n',
        'dist/o.js': 'hit\n',
        'build/o.js': 'hit\n',
        'target/o.rs': 'hit\n',
        '__pycache__/m.pyc': 'hit\n',
        'bin.dat': new Uint8Array([...enc('hit\n'), 0, 1, 2]),
        'latin1.txt': new Uint8Array([...enc('hit caf'), 0xe9, 0x0a]),
        'u16.txt': new Uint8Array([0xff, 0xfe, ...[...'a hit\n'].flatMap((c) => [c.charCodeAt(0), 0])]),
        'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...enc('hit\r\nhit again\r\n')]),
      });
      await h.put('.sandpit/objects/x', 'hit\n');
      const r = await h.ok('search_files', { pattern: 'hit' });
      expect(r.matches).toEqual([
        { path: 'bom.txt', line: 1, column: 1, content: 'hit' },
        { path: 'bom.txt', line: 2, column: 1, content: 'hit again' },
        { path: 'keep.txt', line: 1, column: 1, content: 'hit' },
        { path: 'u16.txt', line: 1, column: 3, content: 'a hit' },
      ]);
      expect(where(await h.ok('search_files', { pattern: 'HIT', case_sensitive: false }))).toEqual([
        'bom.txt:1:1',
        'bom.txt:2:1',
        'keep.txt:1:1',
        'u16.txt:1:3',
      ]);
    });

    it('honours .gitignore, nested files and negations', async () => {
      h = await open(backend, {
        '.gitignore': '*.log\ngen/\n',
        'a.log': 'hit\n',
        'gen/x.ts': 'hit\n',
        'src/ok.ts': 'hit\n',
        'src/.gitignore': 'secret.ts\n!important.log\n',
        'src/secret.ts': 'hit\n',
        'src/important.log': 'hit\n',
      });
      expect(where(await h.ok('search_files', { pattern: 'hit' }))).toEqual(['src/important.log:1:1', 'src/ok.ts:1:1']);
      expect(where(await h.ok('search_files', { pattern: 'hit', path: 'src' }))).toEqual([
        'src/important.log:1:1',
        'src/ok.ts:1:1',
      ]);
      expect(where(await h.ok('search_files', { pattern: 'hit', path: 'gen' }))).toEqual(['gen/x.ts:1:1']);
    });

    it('filters files with include globs: bare basenames anywhere, or root-relative paths', async () => {
      h = await open(backend, {
        'a.md': 'hit\n',
        'docs/b.md': 'hit\n',
        'src/c.ts': 'hit\n',
        'src/deep/d.ts': 'hit\n',
        'e.toml': 'hit\n',
      });
      expect(where(await h.ok('search_files', { pattern: 'hit', include: ['*.md'] }))).toEqual([
        'a.md:1:1',
        'docs/b.md:1:1',
      ]);
      expect(where(await h.ok('search_files', { pattern: 'hit', include: ['*.md', '*.toml'] }))).toEqual([
        'a.md:1:1',
        'docs/b.md:1:1',
        'e.toml:1:1',
      ]);
      expect(where(await h.ok('search_files', { pattern: 'hit', include: ['src/*.ts'] }))).toEqual(['src/c.ts:1:1']);
      expect(where(await h.ok('search_files', { pattern: 'hit', include: ['src/**/*.ts'], path: 'src' }))).toEqual([
        'src/c.ts:1:1',
        'src/deep/d.ts:1:1',
      ]);
    });

    it('caps content at 500 characters with a marker, showing the match when it lies past the cap', async () => {
      h = await open(backend, {
        'long.txt': `needle${'x'.repeat(1000)}\n${'y'.repeat(900)}needle${'z'.repeat(300)}\n`,
      });
      const [first, second] = (await h.ok('search_files', { pattern: 'needle' })).matches as Match[];
      expect(first!.content.startsWith(`needle${'x'.repeat(494)}`)).toBe(true);
      expect(first!.content).toMatch(/truncated: 506 more characters/);
      expect(first!.content.length).toBeLessThan(560);
      expect(second!.column).toBe(901);
      expect(second!.content).toContain('needle');
      expect(second!.content).toMatch(/^\[… \d+ characters before\]/);
      expect(second!.content.length).toBeLessThan(600);
    });

    it('adds context lines before and after each match on request', async () => {
      h = await open(backend, { 'f.txt': 'l1\nl2 hit\nl3\nl4\nl5 hit\n', 'crlf.txt': 'a\r\nhit\r\nb\r\n' });
      const r = await h.ok('search_files', { pattern: 'hit', context_lines: 2 });
      expect(r.matches).toEqual([
        { path: 'crlf.txt', line: 2, column: 1, content: 'hit', before: ['a'], after: ['b'] },
        { path: 'f.txt', line: 2, column: 4, content: 'l2 hit', before: ['l1'], after: ['l3', 'l4'] },
        { path: 'f.txt', line: 5, column: 4, content: 'l5 hit', before: ['l3', 'l4'], after: [] },
      ]);
      const regex = await h.ok('search_files', { pattern: 'h.t', is_regex: true, context_lines: 1 });
      expect(regex.matches).toEqual(
        r.matches.map((m: Match) => ({ ...m, before: m.before!.slice(-1), after: m.after!.slice(0, 1) })),
      );
    });

    it('returns 50 matches by default, and pages through the rest with no gaps or duplicates', async () => {
      const seed: Record<string, string> = {};
      for (let f = 0; f < 12; f++)
        seed[`d${f % 3}/f${f}.txt`] = Array.from({ length: 7 }, (_, i) => (i % 2 ? 'other' : `hit ${f}.${i}`)).join(
          '\n',
        );
      h = await open(backend, seed);
      const all = await h.ok('search_files', { pattern: 'hit', max_matches: 1000 });
      expect(all).toMatchObject({ count: 48, truncated: false, next_cursor: null });
      for (const size of [1, 3, 4, 7, 47, 48]) {
        const pages: Match[] = [];
        let cursor: string | undefined;
        let calls = 0;
        do {
          const r = await h.ok('search_files', { pattern: 'hit', max_matches: size, ...(cursor ? { cursor } : {}) });
          pages.push(...r.matches);
          cursor = r.next_cursor ?? undefined;
          expect(r.truncated).toBe(cursor !== undefined);
          calls++;
        } while (cursor);
        expect(pages).toEqual(all.matches);
        expect(calls).toBe(Math.ceil(48 / size));
      }
      const many: Record<string, string> = {};
      for (let i = 0; i < 60; i++) many[`m${String(i).padStart(2, '0')}.txt`] = 'hit\n';
      const h2 = await open(backend, many);
      try {
        const first = await h2.ok('search_files', { pattern: 'hit' });
        expect(first).toMatchObject({ count: 50, truncated: true });
        expect(first.matches[49].path).toBe('m49.txt');
      } finally {
        await h2.cleanup();
      }
    });

    it('continues from a cursor in a brand-new workspace, and refuses cursors of other queries', async () => {
      h = await open(backend, { 'a.txt': 'hit\nhit\n', 'b.txt': 'hit\n', 'c.txt': 'hit\nhit\n' });
      const first = await h.ok('search_files', { pattern: 'hit', max_matches: 2 });
      expect(where(first)).toEqual(['a.txt:1:1', 'a.txt:2:1']);
      const fresh = createWorkspace({ fs: h.fs, root: h.root });
      const next = await fresh.call('search_files', { pattern: 'hit', max_matches: 10, cursor: first.next_cursor });
      expect(next.ok && where(next.result as Record<string, any>)).toEqual(['b.txt:1:1', 'c.txt:1:1', 'c.txt:2:1']);
      const other = await h.fail('search_files', { pattern: 'hit', include: ['*.txt'], cursor: first.next_cursor });
      expect(other.code).toBe('INVALID_ARGUMENTS');
      expect(other.message).toMatch(/different search/);
      expect((await h.fail('search_files', { pattern: 'hat', cursor: first.next_cursor })).code).toBe(
        'INVALID_ARGUMENTS',
      );
      expect((await h.fail('search_files', { pattern: 'hit', cursor: 'not-a-cursor' })).code).toBe('INVALID_ARGUMENTS');
    });

    it('searches one named file, even a hidden one; refuses binary, missing and outside paths', async () => {
      h = await open(backend, {
        '.env': 'KEY=hit\n',
        'bin.dat': new Uint8Array([104, 105, 116, 0]),
        'dir/x.txt': 'hit\n',
      });
      expect(where(await h.ok('search_files', { pattern: 'hit', path: '.env' }))).toEqual(['.env:1:5']);
      expect(where(await h.ok('search_files', { pattern: 'hit', path: 'dir' }))).toEqual(['dir/x.txt:1:1']);
      expect((await h.fail('search_files', { pattern: 'hit', path: 'bin.dat' })).code).toBe('BINARY_FILE');
      expect((await h.fail('search_files', { pattern: 'hit', path: 'nope' })).code).toBe('NOT_FOUND');
      const out = await h.fail('search_files', { pattern: 'secret', path: '../outside' });
      expect(out.code).toBe('OUTSIDE_WORKSPACE');
      expect(JSON.stringify(out)).not.toContain(h.root);
      expect((await h.fail('search_files', { pattern: '' })).code).toBe('INVALID_ARGUMENTS');
      expect((await h.fail('search_files', { pattern: 'x', max_matches: 0 })).code).toBe('INVALID_ARGUMENTS');
    });

    it('skips links that escape the root and searches links to files inside it', async () => {
      if (!backend.symlinks) return;
      h = await open(backend, { 'real.txt': 'secret twin\n' });
      await h.fs.symlink(`${h.outside}/secret.txt`, h.abs('leak.txt'));
      await h.fs.symlink(h.outside, h.abs('leakdir'));
      await h.fs.symlink(`${h.root}/real.txt`, h.abs('twin.txt'));
      expect(where(await h.ok('search_files', { pattern: 'secret' }))).toEqual(['real.txt:1:1', 'twin.txt:1:1']);
    });
  });
}
