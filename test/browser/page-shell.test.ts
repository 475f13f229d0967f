// No Buffer polyfill here on purpose: a page workspace must undo (isomorphic-git reads) without one.
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type Workspace, type WorkspaceFs } from '../../src/index.js';
import { createIndexedDbFs, createOpfsFs, createPageRunner } from '../../web/index.js';
import { uniqueName } from './connect.js';

type Run = { exit_code: number; stdout: string; stderr: string; timed_out: boolean; changed_files?: string[]; change_id?: string };
async function run(ws: Workspace, command: string): Promise<Run> {
  const r = await ws.call('run_command', { command });
  if (!r.ok) throw new Error(`run_command failed: ${JSON.stringify(r.error)}`);
  return r.result as Run;
}
const bytesOf = async (fs: WorkspaceFs, path: string) => fs.readFile(path).then((b) => new TextDecoder().decode(b), () => null);

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
});

describe('node in a page workspace', () => {
  it('the main entry\'s shell says node is not available (exit 127), and nothing is written', async () => {
    const fs = createMemoryFs();
    const ws = createWorkspace({ fs });
    const r = await run(ws, 'node -e "require(\'fs\').writeFileSync(\'n.txt\', \'x\')"');
    expect(r).toMatchObject({ exit_code: 127, stdout: '' });
    expect(r.stderr).toMatch(/^node: not available here/);
    expect(await bytesOf(fs, '/n.txt')).toBeNull();
  });

  it('createPageRunner from sandpit/web runs node scripts in a module worker started by the page', async () => {
    const fs = createMemoryFs({ '/lib.js': 'module.exports = (n) => n * 2;\n' });
    const ws = createWorkspace({ fs, processRunner: createPageRunner(fs) });
    const r = await run(ws, 'node -e "const twice = require(\'./lib\'); require(\'fs\').writeFileSync(\'n.txt\', String(twice(21)))" && cat n.txt');
    expect(r).toMatchObject({ exit_code: 0, stdout: '42', changed_files: ['n.txt'] });
    expect(await bytesOf(fs, '/n.txt')).toBe('42');
  });
});
