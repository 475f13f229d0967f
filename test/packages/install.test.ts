import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { createMemoryFs } from '../../src/fs/memory.js';
import { memoryTarballCache, type TarballCache } from '../../src/packages/cache.js';
import { createShellRunner } from '../../src/process/shell-runner.js';
import { type LocalRegistry, startNpmRegistry } from '../support/npm-registry.js';
import { FIXTURE_PACKAGES, FIXTURE_PROJECT } from './fixture-tree.js';

const run = promisify(execFile);
let registry: LocalRegistry;
let npmDir: string;
/** The lock and layout the real npm CLI made for the fixture project against the same registry. */
let npmLock: { packages: Record<string, Record<string, unknown>> };
let npmLayout: string[];
/** npm's hidden lockfile, node_modules/.package-lock.json, for the same install. */
let npmHiddenLock: string;
/** `npm ls` by the npm CLI on that tree, by arguments, without its first line (which names the host folder). */
const npmLs: Record<string, string> = {};

const decoder = new TextDecoder();

function open(files: Record<string, string>, cache: TarballCache = memoryTarballCache()) {
  const fs = createMemoryFs(files);
  const runner = createShellRunner(fs, '/', { packages: { registry: registry.url, cache } });
  return { fs, ws: createWorkspace({ fs, processRunner: runner }), cache };
}

/** Package folders and .bin names below node_modules, as sorted paths (what a layout comparison needs). */
async function layout(
  list: (dir: string) => Promise<string[]>,
  isDir: (p: string) => Promise<boolean>,
): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of await list(dir)) {
      if (name === '.package-lock.json') continue;
      const path = `${dir}/${name}`;
      if (name === '.bin') {
        for (const bin of await list(path)) out.push(`${path}/${bin}`);
        continue;
      }
      if (name.startsWith('@')) {
        for (const scoped of await list(path)) {
          out.push(`${path}/${scoped}`);
          if (await isDir(`${path}/${scoped}/node_modules`)) await walk(`${path}/${scoped}/node_modules`);
        }
        continue;
      }
      out.push(path);
      if (await isDir(`${path}/node_modules`)) await walk(`${path}/node_modules`);
    }
  };
  await walk('node_modules');
  return out.sort();
}

const treeOf = (lock: { packages: Record<string, Record<string, unknown>> }) =>
  Object.fromEntries(
    Object.entries(lock.packages).map(([path, e]) => [
      path,
      {
        version: e.version,
        resolved: e.resolved,
        integrity: e.integrity,
        dev: e.dev,
        optional: e.optional,
        peer: e.peer,
      },
    ]),
  );

beforeAll(async () => {
  registry = await startNpmRegistry(FIXTURE_PACKAGES);
  npmDir = await mkdtemp(join(tmpdir(), 'sandpit-npm-'));
  await writeFile(join(npmDir, 'package.json'), JSON.stringify(FIXTURE_PROJECT, null, 2));
  await run(
    'npm',
    [
      'install',
      '--registry',
      registry.url,
      '--cache',
      join(npmDir, '.cache'),
      '--userconfig',
      join(npmDir, '.npmrc-user'),
      // npm's defaults, whatever the machine's own config says: resolved URLs in the lock, no network but the registry
      '--omit-lockfile-registry-resolved=false',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
    ],
    { cwd: npmDir },
  );
  npmLock = JSON.parse(await readFile(join(npmDir, 'package-lock.json'), 'utf8'));
  npmHiddenLock = await readFile(join(npmDir, 'node_modules/.package-lock.json'), 'utf8');
  for (const args of ['', '--depth=1', '--all']) {
    const out = await run('npm', ['ls', ...(args ? [args] : []), '--userconfig', join(npmDir, '.npmrc-user')], {
      cwd: npmDir,
    });
    npmLs[args] = out.stdout.slice(out.stdout.indexOf('\n') + 1);
  }
  npmLayout = await layout(
    (d) => readdir(join(npmDir, d)),
    (p) =>
      readdir(join(npmDir, p)).then(
        () => true,
        () => false,
      ),
  );
});

afterAll(async () => {
  await registry?.close();
  if (npmDir) await rm(npmDir, { recursive: true, force: true });
});

describe('npm install in the browser shell (memory backend)', () => {
  it('installs the fixture tree as the npm CLI does: the same lock tree and node_modules layout', async () => {
    const { ws, fs } = open({ '/package.json': JSON.stringify(FIXTURE_PROJECT, null, 2) });
    const r = await ws.call('run_command', { command: 'npm install' });
    expect(r.ok && r.result.stderr).toBe('');
    expect(r.ok && r.result.exit_code).toBe(0);
    const lock = JSON.parse(decoder.decode(await fs.readFile('/package-lock.json')));
    expect(Object.keys(lock.packages).length).toBeGreaterThanOrEqual(21);
    expect(treeOf(lock)).toEqual(treeOf(npmLock));
    const ours = await layout(
      (d) => fs.readdir(`/${d}`),
      (p) =>
        fs.stat(`/${p}`).then(
          (s) => s.type === 'dir',
          () => false,
        ),
    );
    expect(ours).toEqual(npmLayout);
    expect(ours).toContain('node_modules/b/node_modules/shared');
    expect(ours).toContain('node_modules/.bin/tool');
    expect(r.ok && r.result.stdout).toMatch(/scripted@1\.0\.0/);
    // The hidden lockfile holds what npm's holds (the same registry, so the same URLs); npm's
    // leaves out `license` and keeps each package's own dependency order, which this one does not yet.
    const hiddenLock = JSON.parse(decoder.decode(await fs.readFile('/node_modules/.package-lock.json')));
    expect(treeOf(hiddenLock)).toEqual(treeOf(JSON.parse(npmHiddenLock)));
    // npm makes a bin's target and (where links are made) the entry executable: 0755.
    expect((await fs.stat('/node_modules/.bin/tool')).mode & 0o777).toBe(0o755);
    expect((await fs.stat('/node_modules/tool/cli.js')).mode & 0o777).toBe(0o755);
    // npm ls as the npm CLI prints the same tree: nested, deduped, the optional package for another OS unmet.
    for (const args of ['', '--depth=1', '--all']) {
      const listed = await ws.call('run_command', { command: `npm ls ${args}` });
      const out = (listed.ok && listed.result.stdout) || '';
      expect(out.slice(out.indexOf('\n') + 1), `npm ls ${args}`).toBe(npmLs[args]);
    }
    expect(npmLs['--all']).toContain('│ │ └── scripted@1.0.0');
  });
});

describe('npm ci, failures, the cache and undo', () => {
  const text = async (fs: ReturnType<typeof createMemoryFs>, path: string) =>
    fs.readFile(path).then(
      (b) => decoder.decode(b),
      () => null,
    );

  it("installs exactly the npm CLI's lock with npm ci, then offline from the cache", async () => {
    const project = JSON.stringify(FIXTURE_PROJECT, null, 2);
    const lockText = JSON.stringify(npmLock, null, 2);
    const first = open({ '/package.json': project, '/package-lock.json': lockText });
    const r = await first.ws.call('run_command', { command: 'npm ci' });
    expect(r.ok && r.result).toMatchObject({ exit_code: 0, stderr: '' });
    expect(await text(first.fs, '/package-lock.json')).toBe(lockText);
    const ours = await layout(
      (d) => first.fs.readdir(`/${d}`),
      (p) =>
        first.fs.stat(`/${p}`).then(
          (s) => s.type === 'dir',
          () => false,
        ),
    );
    expect(ours).toEqual(npmLayout);
    expect(await text(first.fs, '/node_modules/b/node_modules/shared/index.js')).toContain('shared@2.0.0');

    // A new workspace, the same cache, and a network that fails every request: installed from the cache.
    const offline = createMemoryFs({ '/package.json': project, '/package-lock.json': lockText });
    const requests: string[] = [];
    const noNetwork: typeof fetch = async (input) => {
      requests.push(String(input));
      throw new TypeError('network is down');
    };
    const runner = createShellRunner(offline, '/', {
      packages: { registry: registry.url, cache: first.cache, fetch: noNetwork },
    });
    const ws = createWorkspace({ fs: offline, processRunner: runner });
    const again = await ws.call('run_command', { command: 'npm ci' });
    expect(again.ok && again.result).toMatchObject({ exit_code: 0, stderr: '' });
    expect(requests).toEqual([]);
    expect(await text(offline, '/node_modules/@scope/c/package.json')).toContain('"version": "1.2.0"');
  });

  it('refuses a tarball whose integrity does not match, naming it, and writes nothing', async () => {
    registry.tamper('shared', '3.0.0-beta.1');
    const { ws, fs } = open({ '/package.json': '{"name":"x","version":"1.0.0"}\n' });
    const before = ws.changes.list().length;
    const r = await ws.call('run_command', { command: 'npm install shared@next' });
    expect(r.ok && r.result.exit_code).toBe(1);
    expect(r.ok && r.result.stderr).toMatch(/code IO_ERROR[\s\S]*shared@3\.0\.0-beta\.1: integrity check failed/);
    expect(await text(fs, '/package.json')).toBe('{"name":"x","version":"1.0.0"}\n');
    expect(await text(fs, '/package-lock.json')).toBeNull();
    expect((await fs.readdir('/')).filter((n) => n !== '.sandpit')).toEqual(['package.json']);
    expect(ws.changes.list().length).toBe(before);
  });

  it('says which package is missing or has no matching version, and changes nothing', async () => {
    const { ws, fs } = open({ '/package.json': '{"name":"x"}\n' });
    const missing = await ws.call('run_command', { command: 'npm install no-such-package' });
    expect(missing.ok && missing.result.stderr).toMatch(
      /code NOT_FOUND\nnpm error no-such-package: is not in the registry \(404\)/,
    );
    const range = await ws.call('run_command', { command: 'npm install shared@^9' });
    expect(range.ok && range.result.stderr).toMatch(/shared: no version matches '\^9'/);
    expect((await fs.readdir('/')).filter((n) => n !== '.sandpit')).toEqual(['package.json']);
  });

  it('saves named packages as npm does, lists them, and is one change that undo takes back', async () => {
    const { ws, fs } = open({ '/package.json': '{\n  "name": "app",\n  "version": "1.0.0"\n}\n' });
    const progress: number[] = [];
    const r = await ws.call(
      'run_command',
      { command: 'npm install tool plugin@^1 @scope/c -D' },
      { onProgress: (done) => progress.push(done) },
    );
    expect(r.ok && r.result).toMatchObject({ exit_code: 0, stderr: '' });
    expect(progress.length).toBeGreaterThan(0);
    expect(JSON.parse((await text(fs, '/package.json'))!)).toEqual({
      name: 'app',
      version: '1.0.0',
      devDependencies: { '@scope/c': '^1.2.0', plugin: '^1.0.0', tool: '^1.0.0' },
    });
    // The peer host@2 came with plugin, as npm 7+ installs peers.
    expect(await text(fs, '/node_modules/host/index.js')).toContain('host@2.0.0');
    expect(await text(fs, '/node_modules/.bin/tool')).toContain('"$basedir/../tool/cli.js"');
    expect(ws.changes.list().filter((c) => c.tool === 'run_command')).toHaveLength(1);
    const ls = await ws.call('run_command', { command: 'npm ls' });
    expect(ls.ok && ls.result.stdout).toBe('app@1.0.0 /\n├── @scope/c@1.2.0\n├── plugin@1.0.0\n└── tool@1.0.0\n\n');

    const un = await ws.call('run_command', { command: 'npm uninstall tool' });
    expect(un.ok && un.result).toMatchObject({ exit_code: 0 });
    expect(await text(fs, '/node_modules/tool/package.json')).toBeNull();
    expect(await text(fs, '/node_modules/l6/package.json')).toBeNull();
    expect(await text(fs, '/node_modules/.bin/tool')).toBeNull();
    expect(JSON.parse((await text(fs, '/package-lock.json'))!).packages['node_modules/tool']).toBeUndefined();

    // Snapshots leave node_modules out; the undo puts the lock back and node_modules follows it
    // from the tarball cache in the same call, without the network.
    const hits = registry.hits.length;
    const undo = await ws.call('undo', {});
    expect(undo.ok && undo.result).toMatchObject({ packages: expect.stringMatching(/added 2/) });
    expect(JSON.parse((await text(fs, '/package.json'))!).devDependencies.tool).toBe('^1.0.0');
    expect(await text(fs, '/node_modules/tool/package.json')).toContain('"version": "1.0.0"');
    expect(await text(fs, '/node_modules/l6/package.json')).not.toBeNull();
    expect(await text(fs, '/node_modules/.bin/tool')).toContain('../tool/cli.js');
    expect(registry.hits.length).toBe(hits);
    const ok = await ws.call('run_command', { command: 'npm install' });
    expect(ok.ok && ok.result.stdout).toMatch(/up to date/);
  });

  it('sees a package folder removed by hand, as npm does: npm ls names it unmet, npm install adds it back from the cache', async () => {
    const { ws, fs } = open({ '/package.json': '{"name":"app","version":"1.0.0"}\n' });
    expect((await ws.call('run_command', { command: 'npm install b' })).ok).toBe(true);
    // The hidden lockfile still lists it: npm drops that file once a folder it lists is gone.
    expect((await ws.call('delete_path', { path: 'node_modules/l3', recursive: true })).ok).toBe(true);
    const listed = await ws.call('run_command', { command: 'npm ls --all' });
    expect(listed.ok && listed.result.exit_code).toBe(1);
    expect(listed.ok && listed.result.stdout).toContain('UNMET DEPENDENCY l3@1.x');
    const hits = registry.hits.length;
    const again = await ws.call('run_command', { command: 'npm install' });
    expect(again.ok && again.result).toMatchObject({ exit_code: 0, stderr: '' });
    expect(again.ok && again.result.stdout).toMatch(/^\nadded 1 package, audited/);
    expect(await text(fs, '/node_modules/l3/index.js')).toContain('l3@1.0.0');
    expect(registry.hits.length).toBe(hits);
  });

  it('undoes an install with its node_modules, and redoes it, each in one call', async () => {
    const { ws, fs } = open({ '/package.json': '{\n  "name": "app",\n  "version": "1.0.0"\n}\n' });
    await ws.call('snapshot', { message: 'before' });
    const r = await ws.call('run_command', { command: 'npm install @scope/c b' });
    expect(r.ok && r.result).toMatchObject({ exit_code: 0, stderr: '' });
    const installed = await fs.readdir('/node_modules');
    expect(installed).toEqual(expect.arrayContaining(['.package-lock.json', '@scope', 'b', 'l3', 'scripted']));

    const undo = await ws.call('undo', {});
    expect(undo.ok && undo.result).toMatchObject({ packages: expect.stringMatching(/removed 7/) });
    expect((await fs.readdir('/')).filter((n) => n !== '.sandpit')).toEqual(['package.json']);

    const hits = registry.hits.length;
    const redo = await ws.call('restore_snapshot', { id: undo.ok ? undo.result.redo_with : '' });
    expect(redo.ok && redo.result).toMatchObject({ packages: expect.stringMatching(/added 7/) });
    expect(registry.hits.length).toBe(hits);
    expect(await fs.readdir('/node_modules')).toEqual(installed);
    expect(await text(fs, '/node_modules/shared/index.js')).toContain('shared@2.0.0');
  });

  it('leaves node_modules as it was when an undo needs a tarball the cache no longer holds, and says so', async () => {
    const held = memoryTarballCache();
    let evicted = false;
    // a real cache that then loses its entries, as a browser may evict Cache Storage
    const cache: TarballCache = { get: (key) => (evicted ? Promise.resolve(undefined) : held.get(key)), put: held.put };
    const { ws, fs } = open({ '/package.json': '{"name":"app"}\n' }, cache);
    await ws.call('run_command', { command: 'npm install @scope/c' });
    await ws.call('run_command', { command: 'npm uninstall @scope/c' });
    evicted = true;
    const undo = await ws.call('undo', {});
    expect(undo.ok && undo.result).toMatchObject({
      packages: expect.stringMatching(/left as it was .*c-1\.2\.0\.tgz: is not in the tarball cache/),
    });
    expect(JSON.parse((await text(fs, '/package.json'))!).dependencies).toEqual({ '@scope/c': '^1.2.0' });
    expect(await fs.stat('/node_modules').catch(() => null)).toBeNull();
  });

  it('refuses subcommands and flags it does not have', async () => {
    const { ws } = open({ '/package.json': '{}' });
    for (const [spec, kind] of [
      ['github:user/repo', 'git'],
      ['user/repo', 'git'],
      ['x@git+https://example.com/x.git', 'git'],
      ['file:../x', 'file'],
      ['./local.tgz', 'file'],
      ['https://example.com/x.tgz', 'URL'],
      ['y@npm:shared@^1', 'alias'],
    ]) {
      const r = await ws.call('run_command', { command: `npm install ${spec}` });
      expect(r.ok && r.result.stderr, spec).toMatch(new RegExp(`code NOT_SUPPORTED\\n.*${kind} spec`));
    }
    const r = await ws.call('run_command', { command: 'npm publish' });
    expect(r.ok && r.result).toMatchObject({
      exit_code: 1,
      stderr: expect.stringMatching(/'publish' is not a command/),
    });
    const flag = await ws.call('run_command', { command: 'npm install --global tool' });
    expect(flag.ok && flag.result).toMatchObject({
      exit_code: 1,
      stderr: expect.stringMatching(/'--global' is not supported/),
    });
  });
});
