// No Buffer polyfill here on purpose: a page workspace must undo (isomorphic-git reads) without one.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createMemoryFs, createWorkspace, type Workspace, type WorkspaceFs } from '../../src/index.js';
import { createIndexedDbFs, createOpfsFs, createPageRunner } from '../../web/index.js';
import { uniqueName } from './connect.js';

type Run = {
  exit_code: number;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  changed_files?: string[];
  change_id?: string;
};
async function run(ws: Workspace, command: string): Promise<Run> {
  const r = await ws.call('run_command', { command });
  if (!r.ok) throw new Error(`run_command failed: ${JSON.stringify(r.error)}`);
  return r.result as Run;
}
const bytesOf = async (fs: WorkspaceFs, path: string) =>
  fs.readFile(path).then(
    (b) => new TextDecoder().decode(b),
    () => null,
  );

const opened: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of opened.splice(0)) await close().catch(() => {});
});

// The page's own workspace, no worker in between: what a page gets from the main entry with no runner named.
const backends: Array<[string, () => Promise<WorkspaceFs>]> = [
  ['indexeddb', async () => createIndexedDbFs({ name: uniqueName('page-shell'), wipe: true })],
  ['opfs (tree, on the page)', async () => createOpfsFs({ name: uniqueName('page-shell'), layout: 'tree' })],
];

describe.each(backends)('run_command in a page workspace over %s', (_label, make) => {
  it('runs a shell line over the backend as one change that undo takes back', async () => {
    const fs = await make();
    const ws = createWorkspace({ fs });
    opened.push(() => ws.close());
    expect((await ws.call('write_file', { path: 'src/a.ts', content: 'const a = 1; // TODO\n' })).ok).toBe(true);
    expect((await ws.call('write_file', { path: 'notes.md', content: 'b\na\n' })).ok).toBe(true);
    expect(await run(ws, 'grep -rn TODO . | wc -l')).toMatchObject({ exit_code: 0, stdout: '1\n', timed_out: false });
    const write = await run(ws, "sed -i 's/1/2/' src/a.ts && sort notes.md > sorted.md && rm notes.md");
    expect(write.exit_code).toBe(0);
    expect(write.changed_files?.sort()).toEqual(['notes.md', 'sorted.md', 'src/a.ts']);
    // the shell wrote to the page's backend itself, not to a copy
    expect(await bytesOf(fs, '/src/a.ts')).toBe('const a = 2; // TODO\n');
    expect(await bytesOf(fs, '/sorted.md')).toBe('a\nb\n');
    expect(ws.changes.get(write.change_id!)?.unified_diff).toContain('+const a = 2; // TODO');
    const undo = await ws.call('undo', {});
    expect(undo.ok, JSON.stringify(undo)).toBe(true);
    expect(await bytesOf(fs, '/src/a.ts')).toBe('const a = 1; // TODO\n');
    expect(await bytesOf(fs, '/notes.md')).toBe('b\na\n');
    expect(await bytesOf(fs, '/sorted.md')).toBeNull();
  });

  it('installs packages with npm from the registry its .npmrc names, as one change, hoisted as npm hoists them', async () => {
    const fs = await make();
    const ws = createWorkspace({ fs });
    opened.push(() => ws.close());
    await ws.call('write_file', { path: 'package.json', content: '{"name":"page-app","version":"1.0.0"}\n' });
    await ws.call('write_file', { path: '.npmrc', content: `registry=${inject('npmRegistry').url}\n` });
    const installed = await run(ws, 'npm install b');
    expect(installed).toMatchObject({ exit_code: 0, stderr: '' });
    expect(installed.stdout).toMatch(/^\nadded 4 packages/);
    expect(installed.change_id).toEqual(expect.any(String));
    expect(installed.changed_files).toEqual(
      expect.arrayContaining(['package.json', 'package-lock.json', 'node_modules/shared/index.js']),
    );
    expect(await bytesOf(fs, '/node_modules/b/node_modules/shared/index.js')).toBeNull();
    expect(await bytesOf(fs, '/node_modules/shared/index.js')).toContain('shared@2.0.0');
    expect(await bytesOf(fs, '/node_modules/l3/index.js')).toContain('l3@1.0.0');
    expect(JSON.parse((await bytesOf(fs, '/package.json'))!).dependencies).toEqual({ b: '^1.0.0' });
  });
});

describe('node in a page workspace', () => {
  it("the main entry's shell says node is not available (exit 127), and nothing is written", async () => {
    const fs = createMemoryFs();
    const ws = createWorkspace({ fs });
    const r = await run(ws, "node -e \"require('fs').writeFileSync('n.txt', 'x')\"");
    expect(r).toMatchObject({ exit_code: 127, stdout: '' });
    expect(r.stderr).toMatch(/^node: not available here/);
    expect(await bytesOf(fs, '/n.txt')).toBeNull();
  });

  it('createPageRunner from sandpit/web runs node scripts in a module worker started by the page', async () => {
    const fs = createMemoryFs({ '/lib.js': 'module.exports = (n) => n * 2;\n' });
    const ws = createWorkspace({ fs, processRunner: createPageRunner(fs) });
    const r = await run(
      ws,
      "node -e \"const twice = require('./lib'); require('fs').writeFileSync('n.txt', String(twice(21)))\" && cat n.txt",
    );
    expect(r).toMatchObject({ exit_code: 0, stdout: '42', stderr: '', changed_files: ['n.txt'] });
    expect(await bytesOf(fs, '/n.txt')).toBe('42');
  });

  it('a script whose copy of the workspace hits the cap is told on stderr how many files it does not see', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const fs = createMemoryFs(Object.fromEntries(names.map((n) => [`/in/${n}.txt`, `${n}\n`])));
    const seen = `node -e "const fs = require('fs'); console.log(${JSON.stringify(names).replaceAll('"', "'")}.filter((n) => fs.existsSync('in/' + n + '.txt')).length)"`;
    const byCount = createWorkspace({ fs, processRunner: createPageRunner(fs, '/', { scriptCopy: { maxFiles: 3 } }) });
    expect(await run(byCount, seen)).toMatchObject({
      exit_code: 0,
      stdout: '3\n',
      stderr:
        "node: 2 files were left out of the script's copy of the workspace (it takes at most 3 files, 32 MiB); the script does not see them\n",
    });
    // A file bigger than what is left of the byte cap is left out too, and counted.
    const bySize = createWorkspace({ fs, processRunner: createPageRunner(fs, '/', { scriptCopy: { maxBytes: 4 } }) });
    expect(await run(bySize, seen)).toMatchObject({
      exit_code: 0,
      stdout: '2\n',
      stderr:
        "node: 3 files were left out of the script's copy of the workspace (it takes at most 5000 files, 4 bytes); the script does not see them\n",
    });
    // Within the cap the script sees everything, and stderr stays the script's own.
    const roomy = createWorkspace({ fs, processRunner: createPageRunner(fs, '/', { scriptCopy: { maxFiles: 5 } }) });
    expect(await run(roomy, seen)).toMatchObject({ exit_code: 0, stdout: '5\n', stderr: '' });
    expect(() => createPageRunner(fs, '/', { scriptCopy: { maxFiles: -1 } })).toThrow(
      /scriptCopy.maxFiles must be a whole number/,
    );
  });
});
