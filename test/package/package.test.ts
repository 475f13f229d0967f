import { readFile, rm } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../web/chromium.js';
import { filesBelow, servePage } from '../web/page-server.js';
import {
  browserProject,
  jestFiles,
  NO_DOM_ENTRIES,
  noDomProject,
  nodeProject,
  nodeTestFiles,
} from './consumer-files.js';
import { makeConsumer, mustRun, packSandpit, repoRoot, run, writeTree, type Packed } from './stage.js';

let work: string;
let packed: Packed;
let app: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'sandpit-package-'));
  packed = await packSandpit(work);
  app = await makeConsumer(work, packed.tarball);
});
afterAll(() => rm(work, { recursive: true, force: true }));

const tsc = () => join(app, 'node_modules', 'typescript', 'bin', 'tsc');

describe('the npm package, installed into a fresh project', () => {
  it('ships only the built entries, their types and the README', async () => {
    const pkg = JSON.parse(await readFile(join(app, 'node_modules', 'sandpit-workspace', 'package.json'), 'utf8'));
    const others = packed.files.filter(
      (f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f),
    );
    expect(others).toEqual([]);
    expect(packed.files.filter((f) => f.endsWith('.map') || f.includes('tsbuildinfo') || f.includes('/test/'))).toEqual(
      [],
    );
    for (const [entry, target] of Object.entries(pkg.exports as Record<string, string | Record<string, string>>)) {
      const paths = typeof target === 'string' ? [target] : Object.values(target);
      for (const path of paths) expect(packed.files, `${entry} -> ${path}`).toContain(path.replace(/^\.\//, ''));
      if (entry !== './package.json')
        expect(typeof target === 'object' && target.types, `${entry} has types`).toMatch(/\.d\.ts$/);
    }
    expect(Object.keys(pkg.exports)).toEqual(
      expect.arrayContaining([
        '.',
        './node',
        './web',
        './web/worker',
        './conformance',
        './conformance/patch-scenarios',
      ]),
    );
    expect(pkg.bin.sandpit).toBe('dist/node/cli.js');
    expect(pkg.bin['sandpit-workspace']).toBe('dist/node/cli.js');
    expect(packed.files).toContain('LICENSE');
    expect(pkg).toMatchObject({ name: 'sandpit-workspace', license: 'MIT', repository: { type: 'git' } });
    expect(pkg.private).toBeUndefined();
    expect(typeof pkg.description).toBe('string');
    expect(pkg.keywords.length).toBeGreaterThan(3);
    // Installing from the registry must build nothing: the tarball carries dist/ already.
    expect(Object.keys(pkg.scripts ?? {}).filter((s) => ['preinstall', 'install', 'postinstall'].includes(s))).toEqual(
      [],
    );
  });

  it('passes npm publish --dry-run with no warning but the missing login', () => {
    // The checkout packSandpit packed: --ignore-scripts, so the dry run checks the package, not a rebuild.
    const dry = run('npm', ['publish', '--dry-run', '--ignore-scripts'], repoRoot);
    expect(dry.status, dry.stderr.slice(-3000)).toBe(0);
    const warnings = dry.stderr
      .split('\n')
      .filter((l) => /^npm (warn|error)/i.test(l) && !/requires you to be logged in/.test(l));
    expect(warnings).toEqual([]);
    expect(dry.stderr).toMatch(/^npm notice name: sandpit-workspace$/m);
    expect(dry.stdout).toContain('+ sandpit-workspace@');
    // npm's own start-up and packing: over 30 s once under load 20. Nothing here is a time limit.
  });

  it('type-checks a Node program against every entry and runs it', async () => {
    await writeTree(app, nodeProject);
    mustRun(process.execPath, [tsc(), '-p', 'tsconfig.json'], app);
    const result = JSON.parse(mustRun(process.execPath, ['out/sample.js'], app));
    expect(result.edit).toMatchObject({ ok: true, tool: 'edit_file', result: { path: 'a.txt', replacements: 1 } });
    expect(result.bytes).toBe('one\r\n2\r\n');
    expect(result.missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(result.wrote).toMatchObject({ ok: true, result: { path: 'hello.txt', created: true } });
    expect(result.disk).toBe('hi\n');
    expect(result.codes).toBeGreaterThan(20);
    expect(result.seeded).toBe('x');
    expect(result.runConformance).toBe('function');
    expect(result.web).toMatch(/\/node_modules\/sandpit-workspace\/dist\/web\/index\.js$/);
    expect(result.worker).toMatch(/\/node_modules\/sandpit-workspace\/dist\/web\/worker\.js$/);
    // The CLI the package declares runs from the install.
    const cli = run(join(app, 'node_modules', '.bin', 'sandpit'), ['tools'], app);
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain('read_file');
    const named = run(join(app, 'node_modules', '.bin', 'sandpit-workspace'), ['tools'], app);
    expect(named.stdout).toBe(cli.stdout);
    // tsc over every entry's types, then three processes: over 60 s once under load 20. Not a time limit.
  });

  it('type-checks every entry under lib ES2022 with @types/node and no DOM', async () => {
    await writeTree(app, noDomProject(NO_DOM_ENTRIES));
    const files = mustRun(process.execPath, [tsc(), '-p', 'tsconfig.json', '--listFiles'], join(app, 'nodom')).split(
      '\n',
    );
    expect(files.filter((f) => /lib\.dom[.\w]*\.d\.ts$/.test(f))).toEqual([]);
    for (const entry of NO_DOM_ENTRIES)
      expect(
        files.some((f) => f.endsWith(`/nodom/${entry.replaceAll('/', '_')}.ts`)),
        entry,
      ).toBe(true);
  });

  it('runs the conformance suite under node:test: the memory backend passes, a flawed one fails by name', async () => {
    await writeTree(app, nodeTestFiles);
    const good = run(process.execPath, ['--test', '--test-reporter=tap', 'memory.test.mjs'], app);
    const count = (out: string, what: string) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
    expect(count(good.stdout, 'fail'), good.stdout.slice(-3000)).toBe(0);
    // The memory backend's share of the suite in vitest: 244 tests, 73 of them apply_patch scenarios.
    expect(count(good.stdout, 'pass')).toBeGreaterThan(200);
    expect(good.stdout).toMatch(/^\s*ok \d+ - scenario 072_/m);
    expect(good.status).toBe(0);

    // The planted bug's own test, picked by name through the runner's filter: the whole suite ran above.
    const bad = run(
      process.execPath,
      ['--test', '--test-reporter=tap', '--test-name-pattern=refuses to clobber without overwrite', 'flawed.test.mjs'],
      app,
    );
    expect(bad.status).not.toBe(0);
    expect(count(bad.stdout, 'fail')).toBeGreaterThan(0);
    expect(bad.stdout).toMatch(/not ok \d+ - moves a file into a new folder and refuses to clobber without overwrite/);
  });

  it('runs the conformance suite under Jest: the shipped example passes, a planted bug fails by name', async () => {
    await writeTree(app, jestFiles);
    const jest = (file: string, ...filter: string[]) => {
      const report = join(app, `${file}.json`);
      const r = run(
        process.execPath,
        [
          '--experimental-vm-modules',
          join(app, 'node_modules', 'jest', 'bin', 'jest.js'),
          '--json',
          `--outputFile=${report}`,
          ...filter,
          file,
        ],
        app,
      );
      return { status: r.status, log: r.stderr.slice(-3000), report };
    };
    type JestReport = {
      numFailedTests: number;
      numPassedTests: number;
      testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>;
    };
    const read = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as JestReport;
    const good = jest('jest-example.test.mjs');
    const passed = await read(good.report);
    expect(passed.numFailedTests, good.log).toBe(0);
    expect(passed.numPassedTests).toBeGreaterThan(150);
    expect(good.status).toBe(0);
    // As under node:test: the whole suite passed above, the planted bug's test is picked by name.
    const bad = jest('jest-flawed.test.mjs', '-t', 'rmdir refuses a folder that still holds entries');
    const failed = (await read(bad.report)).testResults
      .flatMap((t) => t.assertionResults)
      .filter((a) => a.status === 'failed')
      .map((a) => a.fullName);
    expect(bad.status).not.toBe(0);
    expect(failed).toContain(
      'contract: flawed under jest WorkspaceFs itself rmdir refuses a folder that still holds entries with ENOTEMPTY and removes nothing',
    );
  });

  it('builds a Vite page from both browser entries with no configuration, and it runs in Chromium', async () => {
    await writeTree(app, browserProject);
    const web = join(app, 'web');
    mustRun(process.execPath, [tsc(), '-p', 'tsconfig.json'], web);
    mustRun(
      process.execPath,
      [
        join(app, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--outDir',
        'dist',
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      web,
    );
    const out = join(web, 'dist');
    const files: Record<string, string> = {};
    for (const rel of await filesBelow(out)) files[rel] = await readFile(join(out, rel), 'utf8');
    expect(Object.keys(files).some((f) => /^assets\/worker-[\w-]+\.js$/.test(f))).toBe(true);
    expect(
      Object.entries(files)
        .filter(([, t]) => /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']node:/.test(t))
        .map(([f]) => f),
    ).toEqual([]);
    expect(Object.keys(files).filter((f) => f.endsWith('.wasm'))).toEqual([]);

    const server = await servePage(out);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'loading', null, {
        timeout: 120_000,
      });
      const text = (await page.textContent('#out'))!;
      expect(text.startsWith('ERROR'), text).toBe(false);
      const r = JSON.parse(text);
      expect(r.localRead).toMatchObject({ ok: true, result: { content: 'one\n' } });
      expect(r.tools).toBeGreaterThan(10);
      expect(r.edit).toMatchObject({ ok: true, result: { replacements: 1 } });
      expect(r.read).toMatchObject({ ok: true, result: { content: 'console.log("hello");\n' } });
      expect(r.undo).toMatchObject({ ok: true });
      expect(r.after).toMatchObject({ ok: true, result: { content: 'console.log("hi");\n' } });
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});
