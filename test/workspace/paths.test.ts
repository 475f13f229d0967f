import { describe, expect, it } from 'vitest';
import { createMemoryFs, ToolError } from '../../src/index.js';
import { lexicalPath, normalizeAbsolute, PathResolver } from '../../src/workspace/paths.js';

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof ToolError ? error.code : `not a ToolError: ${String(error)}`;
  }
  return 'no error';
}

async function asyncCodeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return error instanceof ToolError ? error.code : `not a ToolError: ${String(error)}`;
  }
  return 'no error';
}

describe('lexicalPath', () => {
  it('gives canonical root-relative paths', () => {
    expect(lexicalPath('src/a.ts', '')).toBe('src/a.ts');
    expect(lexicalPath('./src//a.ts', '')).toBe('src/a.ts');
    expect(lexicalPath('src/x/../a.ts', '')).toBe('src/a.ts');
    expect(lexicalPath('src\\a.ts', '')).toBe('src/a.ts');
    expect(lexicalPath('.', '')).toBe('');
    expect(lexicalPath('./', '')).toBe('');
    expect(lexicalPath('src/', '')).toBe('src');
    expect(lexicalPath('...', '')).toBe('...');
    expect(lexicalPath('a..b/..c', '')).toBe('a..b/..c');
  });

  it('resolves a bare name, `.` and `./x` in cwd and other multi-part paths at the root', () => {
    expect(lexicalPath('a.ts', 'sub/dir')).toBe('sub/dir/a.ts');
    expect(lexicalPath('.', 'sub/dir')).toBe('sub/dir');
    expect(lexicalPath('./a.ts', 'sub/dir')).toBe('sub/dir/a.ts');
    expect(lexicalPath('..', 'sub/dir')).toBe('sub');
    expect(lexicalPath('./../a.ts', 'sub/dir')).toBe('sub/a.ts');
    expect(lexicalPath('src/a.ts', 'sub/dir')).toBe('src/a.ts');
    expect(lexicalPath('a.ts/', 'sub')).toBe('sub/a.ts');
  });

  it.each([
    '..',
    '../x',
    'a/../../x',
    './../x',
    'a/b/../../../x',
    '..%2fx',
    '%2e%2e/x',
    '%2E%2e/x',
    'a//..//../x',
    '..\\x',
    '/etc/passwd',
    '/',
    'file:///etc/passwd',
    'file:/x',
    'http://h/x',
    'a\0b',
    'C:\\x',
    'C:/x',
    'c:',
    '\\\\srv\\share\\x',
    '//srv/share/x',
    '~',
    '~/x',
    '../ws2/x',
  ])('refuses %j as OUTSIDE_WORKSPACE', (input) => {
    expect(codeOf(() => lexicalPath(input, ''))).toBe('OUTSIDE_WORKSPACE');
  });

  it('climbs from cwd only as far as the root', () => {
    expect(codeOf(() => lexicalPath('./../../x', 'sub'))).toBe('OUTSIDE_WORKSPACE');
    expect(codeOf(() => lexicalPath('../x', 'sub'))).toBe('OUTSIDE_WORKSPACE');
  });

  it('reserves .sandpit however it is spelled, but not names that merely start with it', () => {
    for (const input of ['.sandpit', '.sandpit/x', './.sandpit', 'a/../.sandpit/x']) {
      expect(codeOf(() => lexicalPath(input, ''))).toBe('PERMISSION_DENIED');
    }
    expect(lexicalPath('.sandpit2/x', '')).toBe('.sandpit2/x');
    expect(lexicalPath('sub/.sandpit', '')).toBe('sub/.sandpit');
  });

  it('never echoes a NUL byte raw', () => {
    try {
      lexicalPath('a\0b', '');
    } catch (error) {
      expect((error as Error).message).not.toContain('\0');
      expect((error as Error).message).toContain('a\\0b');
    }
  });
});

describe('PathResolver', () => {
  async function make() {
    const fs = createMemoryFs({ '/ws/a/b.txt': 'b', '/ws/f.txt': 'f', '/ws2/s.txt': 's', '/out/secret.txt': 'x' });
    await fs.symlink('/out', '/ws/out');
    await fs.symlink('a', '/ws/alias');
    await fs.symlink('../ws2', '/ws/sib');
    await fs.symlink('/ws/f.txt', '/ws/abs-in');
    await fs.symlink('l2', '/ws/l1');
    await fs.symlink('l1', '/ws/l2');
    return { fs, paths: new PathResolver(fs, '/ws/') };
  }

  it('maps between backend and root-relative paths, keeping a prefix-sharing sibling outside', async () => {
    const { paths } = await make();
    expect(paths.root).toBe('/ws');
    expect(paths.toAbs('')).toBe('/ws');
    expect(paths.toAbs('a/b.txt')).toBe('/ws/a/b.txt');
    expect(paths.toRel('/ws')).toBe('');
    expect(paths.toRel('/ws/a/../f.txt')).toBe('f.txt');
    expect(paths.toRel('/ws2/s.txt')).toBeNull();
    expect(paths.toRel('/wsx')).toBeNull();
    expect(paths.toRel('/ws/../ws2')).toBeNull();
    expect(paths.toRel('/')).toBeNull();
    const top = new PathResolver(createMemoryFs(), '/');
    expect(top.toAbs('')).toBe('/');
    expect(top.toAbs('x')).toBe('/x');
    expect(top.toRel('/x/y')).toBe('x/y');
  });

  it('follows in-root links for reads and reports both the named and the real path', async () => {
    const { paths } = await make();
    const r = await paths.resolve('alias/b.txt', '', 'read');
    expect(r).toMatchObject({ rel: 'alias/b.txt', realRel: 'a/b.txt', abs: '/ws/a/b.txt' });
    expect(r.stat?.type).toBe('file');
    expect((await paths.resolve('abs-in', '', 'read')).realRel).toBe('f.txt');
  });

  it('refuses outside links in every mode, and in-root links for writes', async () => {
    const { paths } = await make();
    for (const mode of ['read', 'entry', 'write'] as const) {
      expect(await asyncCodeOf(() => paths.resolve('out/secret.txt', '', mode)), mode).toBe('OUTSIDE_WORKSPACE');
      expect(await asyncCodeOf(() => paths.resolve('sib/s.txt', '', mode)), mode).toBe('OUTSIDE_WORKSPACE');
    }
    expect(await asyncCodeOf(() => paths.resolve('out', '', 'read'))).toBe('OUTSIDE_WORKSPACE');
    expect(await asyncCodeOf(() => paths.resolve('out', '', 'write'))).toBe('OUTSIDE_WORKSPACE');
    expect((await paths.resolve('out', '', 'entry')).stat?.type).toBe('symlink');
    expect(await asyncCodeOf(() => paths.resolve('alias/b.txt', '', 'write'))).toBe('PERMISSION_DENIED');
    expect(await asyncCodeOf(() => paths.resolve('alias/b.txt', '', 'entry'))).toBe('PERMISSION_DENIED');
    expect(await asyncCodeOf(() => paths.resolve('l1', '', 'read'))).toBe('OUTSIDE_WORKSPACE');
  });

  it('gives a null stat for missing paths and for paths below a file', async () => {
    const { paths } = await make();
    expect(await paths.resolve('a/new/x.txt', '', 'write')).toMatchObject({ realRel: 'a/new/x.txt', stat: null });
    expect(await paths.resolve('f.txt/x', '', 'read')).toMatchObject({ realRel: 'f.txt/x', stat: null });
    expect((await paths.resolve('.', '', 'read')).stat?.type).toBe('dir');
  });

  it('re-reads links on every call', async () => {
    const { fs, paths } = await make();
    expect((await paths.resolve('a/b.txt', '', 'read')).stat?.type).toBe('file');
    await fs.unlink('/ws/a/b.txt');
    await fs.rmdir('/ws/a');
    await fs.symlink('/out', '/ws/a');
    expect(await asyncCodeOf(() => paths.resolve('a/b.txt', '', 'read'))).toBe('OUTSIDE_WORKSPACE');
  });

  it('normalises absolute paths without climbing above /', () => {
    expect(normalizeAbsolute('/a/./b/../c')).toBe('/a/c');
    expect(normalizeAbsolute('/../../x')).toBe('/x');
    expect(normalizeAbsolute('//a//b/')).toBe('/a/b');
  });
});
