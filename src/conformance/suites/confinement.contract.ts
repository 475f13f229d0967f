import { toHex } from '../../fs/hash/hex.js';
// Over 400 lines: one table of every tool's path arguments run against every hostile path form;
// the table and its loops belong together.

import { afterEach, describe, expect, it } from '../api.js';
import { createWorkspace, type Envelope } from '../../index.js';
import type { BackendUnderTest } from '../backend.js';
import { open, type Harness } from '../harness.js';

/** One way a tool takes a path: its name, the arguments around the path, and whether it changes files. */
interface PathUse {
  label: string;
  tool: string;
  args: (path: string) => Record<string, unknown>;
  mutates: boolean;
  /** resolves the final component without following it (delete or move the link itself) */
  entry?: boolean;
}

const CANONICAL_USES: PathUse[] = [
  { label: 'read_file', tool: 'read_file', args: (p) => ({ path: p }), mutates: false },
  { label: 'write_file', tool: 'write_file', args: (p) => ({ path: p, content: 'pwned\n' }), mutates: true },
  { label: 'append_file', tool: 'append_file', args: (p) => ({ path: p, content: 'pwned\n' }), mutates: true },
  {
    label: 'edit_file',
    tool: 'edit_file',
    args: (p) => ({ path: p, old_text: 'top secret', new_text: 'pwned' }),
    mutates: true,
  },
  { label: 'exists', tool: 'exists', args: (p) => ({ path: p }), mutates: false },
  { label: 'create_directory', tool: 'create_directory', args: (p) => ({ path: p }), mutates: true },
  {
    label: 'move_path (from)',
    tool: 'move_path',
    args: (p) => ({ from: p, to: 'moved.txt' }),
    mutates: true,
    entry: true,
  },
  {
    label: 'move_path (to)',
    tool: 'move_path',
    args: (p) => ({ from: 'inside.txt', to: p, overwrite: true }),
    mutates: true,
  },
  {
    label: 'delete_path',
    tool: 'delete_path',
    args: (p) => ({ path: p, recursive: true }),
    mutates: true,
    entry: true,
  },
  { label: 'file_bytes', tool: 'file_bytes', args: (p) => ({ path: p, expected: 'top secret' }), mutates: false },
];

/** Tools landing in parallel: included when the workspace offers them. */
const OPTIONAL_USES: PathUse[] = [
  { label: 'list_directory', tool: 'list_directory', args: (p) => ({ path: p, recursive: true }), mutates: false },
  { label: 'glob', tool: 'glob', args: (p) => ({ pattern: '**', path: p }), mutates: false },
  { label: 'search_files', tool: 'search_files', args: (p) => ({ pattern: 'secret', path: p }), mutates: false },
];

/** Paths that are refused before anything is looked up. */
const LEXICAL_HOSTILE = [
  // `..` in every position
  '..',
  '../',
  '../x',
  '../outside/secret.txt',
  'a/../../x',
  './../x',
  'a/b/../../../x',
  'a/b/../../../outside/secret.txt',
  '../ws/inside.txt',
  'a/./../../x',
  // encoded and doubled separators, backslashes
  '..%2fx',
  '%2e%2e/x',
  '%2E%2E%2Foutside%2Fsecret.txt',
  '..%5cx',
  'a/%2e%2e/%2e%2e/x',
  'inside.txt%00.png',
  'a//..//../x',
  '..//x',
  './/..//x',
  '..\\x',
  'a\\..\\..\\x',
  '..\\outside\\secret.txt',
  // host absolute paths, URLs, home
  '/',
  '/x',
  '/etc/passwd',
  'file:///etc/passwd',
  'FILE:///etc/passwd',
  'file:/etc/passwd',
  'file://localhost/etc/passwd',
  'http://example.com/x',
  'https://example.com/../x',
  'data:text/plain,hi',
  'javascript:alert(1)',
  'blob:http://x/y',
  '~',
  '~/x',
  // NUL bytes
  'a\0',
  'inside.txt\0.png',
  '\0',
  '\0/../x',
  // Windows drive and UNC forms
  'C:\\x',
  'C:/x',
  'c:x',
  'C:',
  '\\\\server\\share\\x',
  '//server/share/x',
  '\\\\?\\C:\\x',
  '\\x',
  // the sibling that shares the root's name prefix
  '../ws2/sibling.txt',
  '../ws2',
  '../ws2/',
];

const RESERVED = ['.sandpit', '.sandpit/x', './.sandpit/config', 'a/../.sandpit/x', '.sandpit/../.sandpit/x'];

/** Paths through links inside the root that lead outside it, as the final or a middle component. */
const LINKED_FINAL = ['out-file', 'out-dir', 'out-rel', 'sib', 'chain', 'a/up', 'loop1'];
const LINKED_MIDDLE = [
  'out-dir/secret.txt',
  'out-dir/new/x.txt',
  'out-rel/secret.txt',
  'sib/sibling.txt',
  'chain/secret.txt',
  'a/up/outside/secret.txt',
  'a/up/ws2/sibling.txt',
  'out-file/x',
  'loop1/x',
];

function parentOfRoot(root: string): { base: string; name: string } {
  const i = root.lastIndexOf('/');
  return { base: i <= 0 ? '/' : root.slice(0, i), name: root.slice(i + 1) };
}

/** Every entry beside the root (the outside folder, the sibling, anything a breakout would create), with bytes. */
async function besideRoot(h: Harness): Promise<Record<string, string>> {
  const { base, name } = parentOfRoot(h.root);
  const join = (dir: string, child: string) => (dir === '/' ? `/${child}` : `${dir}/${child}`);
  const out: Record<string, string> = {};
  const walk = async (dir: string, top: boolean) => {
    for (const child of (await h.fs.readdir(dir)).sort()) {
      if (top && child === name) continue;
      const abs = join(dir, child);
      const st = await h.fs.lstat(abs);
      if (st.type === 'dir') {
        out[`${abs}/`] = 'dir';
        await walk(abs, false);
      } else if (st.type === 'symlink') out[abs] = `-> ${await h.fs.readlink(abs)}`;
      else out[abs] = toHex(await h.fs.readFile(abs));
    }
  };
  await walk(base, true);
  return out;
}

/** The host strings no envelope may add: the root, the folder around it and the outside folder. */
function hostStrings(h: Harness): string[] {
  const { base } = parentOfRoot(h.root);
  const all = [h.root, h.outside, base === '/' ? null : base].filter((s): s is string => !!s);
  // without its leading slash a path still names the host, once it has two components ('outside' alone is a word)
  return [...all, ...all.map((s) => s.replace(/^\/+/, '')).filter((s) => s.includes('/'))];
}

/** What an envelope says beyond echoing the caller's own input. */
function addedText(env: Envelope, inputs: string[]): string {
  let text = JSON.stringify(env);
  const forms = inputs.flatMap((i) => [
    i,
    i.replace(/\\/g, '/'),
    i.replace(/\\/g, '/').replace(/^\/+/, ''),
    i.replace(/\0/g, '\\0'),
  ]);
  for (const form of [...new Set(forms)].sort((a, b) => b.length - a.length)) {
    if (form) text = text.split(JSON.stringify(form).slice(1, -1)).join('');
  }
  return text;
}

async function makeLinks(h: Harness): Promise<void> {
  const { base } = parentOfRoot(h.root);
  await h.fs.symlink(`${h.outside}/secret.txt`, h.abs('out-file'));
  await h.fs.symlink(h.outside, h.abs('out-dir'));
  await h.fs.symlink('../outside', h.abs('out-rel'));
  await h.fs.symlink(`${base === '/' ? '' : base}/ws2`, h.abs('sib'));
  await h.fs.symlink('out-dir', h.abs('chain'));
  await h.fs.symlink('../..', h.abs('a/up'));
  await h.fs.symlink('loop2', h.abs('loop1'));
  await h.fs.symlink('loop1', h.abs('loop2'));
  await h.fs.symlink('.sandpit', h.abs('sp-link'));
}

export function confinementContract(backend: BackendUnderTest) {
  describe('path confinement', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());
    const withLinks = backend.symlinks ? it : it.skip;

    const seed = { 'inside.txt': 'inside\n', 'a/b/c.txt': 'abc\n', 'dir/f.txt': 'f\n', '.sandpit/x': 'reserved\n' };

    async function usesOf(ws: Harness['ws']): Promise<PathUse[]> {
      const names = new Set(ws.listTools().map((t) => t.name));
      for (const use of CANONICAL_USES) expect(names, `canonical tool ${use.tool}`).toContain(use.tool);
      return [...CANONICAL_USES, ...OPTIONAL_USES.filter((u) => names.has(u.tool))];
    }

    /** Try every path with one tool; return a line per broken rule (so a failure lists them all). */
    async function attempt(use: PathUse, paths: string[], expected: (p: string) => string[]): Promise<string[]> {
      const broken: string[] = [];
      const host = hostStrings(h);
      // Every attempt must change nothing, so the state before the first one is the state before each.
      const rootBefore = await h.tree();
      const outBefore = await besideRoot(h);
      for (const p of paths) {
        const env = await h.ws.call(use.tool, use.args(p));
        const shown = JSON.stringify(p);
        if (env.ok) broken.push(`${use.label} ${shown}: succeeded with ${JSON.stringify(env.result).slice(0, 200)}`);
        else if (!expected(p).includes(env.error.code))
          broken.push(`${use.label} ${shown}: ${env.error.code} (${env.error.message})`);
        const extra = addedText(env, [p]);
        for (const s of host)
          if (extra.includes(s)) broken.push(`${use.label} ${shown}: the envelope names the host path ${s}`);
        if (extra.includes('top secret') || extra.includes('sibling\\n'))
          broken.push(`${use.label} ${shown}: outside content leaked`);
      }
      // Once per tool, not per path: a refused call that changed something leaves the trees
      // different, and reading both trees after each of ~40 paths was most of the test's time.
      if (JSON.stringify(await besideRoot(h)) !== JSON.stringify(outBefore))
        broken.push(`${use.label}: one of ${JSON.stringify(paths)} changed something outside the root`);
      if (JSON.stringify(await h.tree()) !== JSON.stringify(rootBefore))
        broken.push(`${use.label}: one of ${JSON.stringify(paths)} changed the workspace`);
      return broken;
    }

    it('refuses `..`, encodings, host paths, URLs, NUL, Windows forms and the sibling on every path tool', async () => {
      h = await open(backend, seed);
      const paths = [
        ...LEXICAL_HOSTILE,
        `${h.root}`,
        `${h.root}/inside.txt`,
        `${h.outside}/secret.txt`,
        `${h.outside}/new.txt`,
        `${parentOfRoot(h.root).base}/ws2/sibling.txt`,
      ];
      const broken: string[] = [];
      for (const use of await usesOf(h.ws)) {
        // never aim a write at this machine's real /etc, even though it must be refused
        const mine = backend.name === 'node' && use.mutates ? paths.filter((p) => !p.startsWith('/etc')) : paths;
        broken.push(...(await attempt(use, mine, () => ['OUTSIDE_WORKSPACE'])));
      }
      expect(broken).toEqual([]);
    });

    it('refuses the reserved .sandpit folder', async () => {
      h = await open(backend, seed);
      const broken: string[] = [];
      for (const use of await usesOf(h.ws)) broken.push(...(await attempt(use, RESERVED, () => ['PERMISSION_DENIED'])));
      expect(broken).toEqual([]);
    });

    withLinks('refuses the reserved .sandpit folder through a link', async () => {
      h = await open(backend, seed);
      await h.fs.symlink('.sandpit', h.abs('sp-link'));
      const broken: string[] = [];
      for (const use of await usesOf(h.ws))
        broken.push(...(await attempt(use, ['sp-link/x', 'sp-link'], () => ['PERMISSION_DENIED'])));
      expect(broken).toEqual([]);
    });

    withLinks(
      'refuses links that lead outside, as the final component and in the middle, on every path tool',
      async () => {
        h = await open(backend, seed);
        await makeLinks(h);
        const broken: string[] = [];
        for (const use of await usesOf(h.ws)) {
          // delete_path and move_path act on a final link itself; that case is below
          const paths = use.entry ? LINKED_MIDDLE : [...LINKED_FINAL, ...LINKED_MIDDLE];
          // a write through an in-root link (chain -> out-dir, the loop) stops at that link: writes never follow links
          const inRootFirst = (p: string) => use.mutates && /^(chain|loop1)(\/|$)/.test(p);
          broken.push(
            ...(await attempt(use, paths, (p) => (inRootFirst(p) ? ['PERMISSION_DENIED'] : ['OUTSIDE_WORKSPACE']))),
          );
        }
        expect(broken).toEqual([]);
      },
    );

    withLinks('deletes an outside-pointing link itself, never its target', async () => {
      h = await open(backend, seed);
      await makeLinks(h);
      const outBefore = await besideRoot(h);
      await h.ok('delete_path', { path: 'out-file' });
      await h.ok('delete_path', { path: 'out-dir', recursive: true });
      expect(await besideRoot(h)).toEqual(outBefore);
      expect((await h.ok('exists', { path: 'out-file' })).exists).toBe(false);
      expect(await h.tree()).not.toHaveProperty('out-dir');
    });

    // memfs's own rename follows a symbolic link and moves its target; the memory adapter must move the link itself
    withLinks('moves an outside-pointing link itself, never its target', async () => {
      h = await open(backend, seed);
      await makeLinks(h);
      const outBefore = await besideRoot(h);
      await h.ok('move_path', { from: 'sib', to: 'moved/sib' });
      await h.ok('move_path', { from: 'out-file', to: 'moved/out-file' });
      expect(await besideRoot(h)).toEqual(outBefore);
      expect(await h.tree()).toMatchObject({
        'moved/sib': expect.stringMatching(/^-> /),
        'moved/out-file': expect.stringMatching(/^-> /),
      });
      expect((await h.fail('read_file', { path: 'moved/sib/sibling.txt' })).code).toBe('OUTSIDE_WORKSPACE');
      expect((await h.fail('write_file', { path: 'moved/sib/sibling.txt', content: 'x' })).code).toBe(
        'OUTSIDE_WORKSPACE',
      );
      expect(await besideRoot(h)).toEqual(outBefore);
    });

    withLinks(
      're-checks links on every call: a folder replaced by an outside link after a read is refused',
      async () => {
        h = await open(backend, { 'd/secret.txt': 'mine\n', 'f.txt': 'top secret\n' });
        expect((await h.ok('read_file', { path: 'd/secret.txt' })).content).toBe('mine\n');
        expect((await h.ok('read_file', { path: 'f.txt' })).content).toBe('top secret\n');
        await h.fs.unlink(h.abs('d/secret.txt'));
        await h.fs.rmdir(h.abs('d'));
        await h.fs.symlink(h.outside, h.abs('d'));
        await h.fs.unlink(h.abs('f.txt'));
        await h.fs.symlink(`${h.outside}/secret.txt`, h.abs('f.txt'));
        const outBefore = await besideRoot(h);
        const calls: Array<[string, Record<string, unknown>]> = [
          ['read_file', { path: 'd/secret.txt' }],
          ['write_file', { path: 'd/secret.txt', content: 'pwned\n' }],
          ['append_file', { path: 'd/secret.txt', content: 'pwned\n' }],
          ['edit_file', { path: 'd/secret.txt', old_text: 'top secret', new_text: 'pwned' }],
          ['delete_path', { path: 'd/secret.txt' }],
          ['move_path', { from: 'd/secret.txt', to: 'stolen.txt' }],
          ['file_bytes', { path: 'd/secret.txt' }],
          ['create_directory', { path: 'd/new' }],
          ['read_file', { path: 'f.txt' }],
          ['write_file', { path: 'f.txt', content: 'pwned\n' }],
          ['append_file', { path: 'f.txt', content: 'pwned\n' }],
          ['edit_file', { path: 'f.txt', old_text: 'top secret', new_text: 'pwned' }],
        ];
        for (const [tool, args] of calls) {
          const err = await h.fail(tool, args);
          expect(err.code, `${tool} ${JSON.stringify(args)}`).toBe('OUTSIDE_WORKSPACE');
          for (const s of hostStrings(h)) expect(JSON.stringify(err)).not.toContain(s);
        }
        expect(await besideRoot(h)).toEqual(outBefore);
        expect(await h.text('stolen.txt')).toBeNull();
      },
    );

    withLinks('follows links that stay inside the root for reads, and refuses writes through them', async () => {
      h = await open(backend, seed);
      await h.fs.symlink('a', h.abs('alias-dir'));
      await h.fs.symlink(h.abs('inside.txt'), h.abs('alias-abs'));
      await h.fs.symlink('../inside.txt', h.abs('a/alias-rel'));
      await h.fs.symlink('alias-dir', h.abs('alias-chain'));
      expect(await h.ok('read_file', { path: 'alias-dir/b/c.txt' })).toMatchObject({
        path: 'alias-dir/b/c.txt',
        content: 'abc\n',
      });
      expect(await h.ok('read_file', { path: 'alias-abs' })).toMatchObject({ path: 'alias-abs', content: 'inside\n' });
      expect(await h.ok('read_file', { path: 'a/alias-rel' })).toMatchObject({ content: 'inside\n' });
      expect(await h.ok('read_file', { path: 'alias-chain/b/c.txt' })).toMatchObject({ content: 'abc\n' });
      expect(await h.ok('exists', { path: 'alias-dir/b' })).toMatchObject({ exists: true, type: 'directory' });
      expect(await h.ok('file_bytes', { path: 'alias-abs', expected: 'inside' })).toMatchObject({ verdict: 'ok' });
      const before = await h.tree();
      for (const [tool, args] of [
        ['write_file', { path: 'alias-dir/b/c.txt', content: 'x' }],
        ['write_file', { path: 'alias-abs', content: 'x' }],
        ['append_file', { path: 'a/alias-rel', content: 'x' }],
        ['edit_file', { path: 'alias-dir/b/c.txt', old_text: 'abc', new_text: 'x' }],
        ['create_directory', { path: 'alias-dir/new' }],
        ['move_path', { from: 'inside.txt', to: 'alias-dir/inside.txt' }],
      ] as const) {
        const err = await h.fail(tool, args);
        expect(err.code, `${tool} ${JSON.stringify(args)}`).toBe('PERMISSION_DENIED');
        for (const s of hostStrings(h)) expect(JSON.stringify(err)).not.toContain(s);
      }
      expect(await h.tree()).toEqual(before);
    });

    it('resolves a bare name, `.` and `./x` in cwd, other multi-part paths at the root, and never answers with ./', async () => {
      h = await open(backend, { 'sub/f.txt': 'in sub\n', 'top.txt': 'top\n', 'x/y.txt': 'xy\n' }, { cwd: 'sub' });
      expect(await h.ok('read_file', { path: 'f.txt' })).toMatchObject({ path: 'sub/f.txt', content: 'in sub\n' });
      expect(await h.ok('read_file', { path: './f.txt' })).toMatchObject({ path: 'sub/f.txt' });
      expect(await h.ok('read_file', { path: 'x/y.txt' })).toMatchObject({ path: 'x/y.txt', content: 'xy\n' });
      expect(await h.ok('read_file', { path: 'sub/f.txt' })).toMatchObject({ path: 'sub/f.txt' });
      expect((await h.fail('read_file', { path: 'top.txt' })).code).toBe('NOT_FOUND');
      expect(await h.ok('exists', { path: '.' })).toMatchObject({ path: 'sub', exists: true, type: 'directory' });
      expect(await h.ok('exists', { path: '..' })).toMatchObject({ path: '.', exists: true });
      expect(await h.ok('read_file', { path: './../top.txt' })).toMatchObject({ path: 'top.txt', content: 'top\n' });
      expect(await h.ok('write_file', { path: 'new.txt', content: 'n\n' })).toMatchObject({
        path: 'sub/new.txt',
        created: true,
      });
      expect(await h.text('sub/new.txt')).toBe('n\n');
      expect(await h.ok('write_file', { path: './deep/n.txt', content: 'n\n' })).toMatchObject({
        path: 'sub/deep/n.txt',
      });
      expect(await h.ok('write_file', { path: 'z/n.txt', content: 'n\n' })).toMatchObject({ path: 'z/n.txt' });
      expect(await h.ok('move_path', { from: 'new.txt', to: './moved.txt' })).toMatchObject({
        from: 'sub/new.txt',
        to: 'sub/moved.txt',
      });
      expect((await h.fail('read_file', { path: '../x' })).code).toBe('OUTSIDE_WORKSPACE');
      const results = [
        await h.ok('read_file', { path: './f.txt' }),
        await h.ok('append_file', { path: './f.txt', content: 'more\n' }),
        await h.ok('edit_file', { path: './f.txt', old_text: 'more', new_text: 'less' }),
        await h.ok('create_directory', { path: './dir' }),
        await h.ok('file_bytes', { path: './f.txt' }),
        await h.ok('delete_path', { path: './dir', recursive: true }),
      ];
      for (const r of results) {
        for (const key of ['path', 'from', 'to']) if (typeof r[key] === 'string') expect(r[key]).not.toMatch(/^\.\//);
        expect(r.path).toMatch(/^sub\/(f\.txt|dir)$/);
      }
    });

    it('answers with canonical root-relative paths when there is no cwd', async () => {
      h = await open(backend, { 'a/b/c.txt': 'abc\n' });
      expect(await h.ok('read_file', { path: './a//b/./c.txt' })).toMatchObject({ path: 'a/b/c.txt' });
      expect(await h.ok('read_file', { path: 'a/x/../b/c.txt' })).toMatchObject({ path: 'a/b/c.txt' });
      expect(await h.ok('exists', { path: './' })).toMatchObject({ path: '.', type: 'directory' });
      expect(await h.ok('write_file', { path: './n.txt', content: '' })).toMatchObject({ path: 'n.txt' });
      expect(await h.ok('exists', { path: 'a\\b\\c.txt' })).toMatchObject({ path: 'a/b/c.txt', exists: true });
    });

    it('confines the cwd option itself', async () => {
      h = await open(backend, seed);
      expect(() => createWorkspace({ fs: h.fs, root: h.root, cwd: '../outside' })).toThrow();
      // an absolute-looking cwd is taken as root-relative, never as the host folder
      const etc = createWorkspace({ fs: h.fs, root: h.root, cwd: '/etc' });
      const passwd = await etc.call('read_file', { path: 'passwd' });
      expect(passwd.ok ? 'ok' : passwd.error.code).toBe('NOT_FOUND');
    });

    withLinks('refuses a cwd that is a link to outside', async () => {
      h = await open(backend, seed);
      await h.fs.symlink(h.outside, h.abs('out-dir'));
      const ws = createWorkspace({ fs: h.fs, root: h.root, cwd: 'out-dir' });
      const env = await ws.call('read_file', { path: 'secret.txt' });
      expect(env.ok ? 'ok' : env.error.code).toBe('OUTSIDE_WORKSPACE');
    });
  });
}
