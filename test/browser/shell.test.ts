import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteWorkspace } from '../../web/client.js';
import type { BackendKind } from '../../web/protocol.js';
import { connect, uniqueName } from './connect.js';

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});
const track = (ws: RemoteWorkspace) => (open.push(ws), ws);
type Run = {
  exit_code: number;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  changed_files?: string[];
  change_id?: string;
  note?: string;
};
async function run(ws: RemoteWorkspace, command: string, extra: Record<string, unknown> = {}): Promise<Run> {
  const r = await ws.call('run_command', { command, ...extra });
  if (!r.ok) throw new Error(`run_command failed: ${JSON.stringify(r.error)}`);
  return r.result as Run;
}
const read = async (ws: RemoteWorkspace, path: string) => {
  const r = await ws.call('read_file', { path });
  return r.ok ? (r.result as { content: string }).content : null;
};

// The browser's stores; the shell over the memory backend is the same code in Node (test/shell),
// and this file's node-script tests run it in a worker on memory.
describe.each<BackendKind>(['indexeddb', 'opfs'])('run_command in the worker: %s', (backend) => {
  it('runs shell lines over the workspace as one undoable change', async () => {
    const ws = track(await connect({ backend, name: uniqueName('shell') }));
    await ws.call('write_file', { path: 'src/a.ts', content: 'const a = 1; // TODO\n' });
    await ws.call('write_file', { path: 'notes.md', content: 'b\na\nc\n' });
    const grep = await run(ws, 'grep -rn TODO . && find . -name "*.ts" | wc -l');
    expect(grep).toMatchObject({ exit_code: 0, stdout: './src/a.ts:1:const a = 1; // TODO\n1\n', timed_out: false });
    const write = await run(ws, "sort notes.md > sorted.md && sed -i 's/1/2/' src/a.ts && rm notes.md");
    expect(write.changed_files?.sort()).toEqual(['notes.md', 'sorted.md', 'src/a.ts']);
    expect(await read(ws, 'sorted.md')).toBe('a\nb\nc\n');
    expect((await ws.changes()).filter((c) => c.tool === 'run_command')).toHaveLength(1);
    const detail = await ws.change(write.change_id!);
    expect(detail?.unified_diff).toContain('+const a = 2; // TODO');
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(await read(ws, 'notes.md')).toBe('b\na\nc\n');
    expect(await read(ws, 'sorted.md')).toBeNull();
    expect(await read(ws, 'src/a.ts')).toBe('const a = 1; // TODO\n');
  });
});

describe('node scripts in a throwaway worker', () => {
  it('read and write files, import a module, take argv and env, and land as one change', async () => {
    const ws = track(await connect({ backend: 'memory', name: uniqueName('node') }));
    await ws.call('write_file', { path: 'lib.js', content: 'module.exports = { twice: (n) => n * 2 };\n' });
    await ws.call('write_file', { path: 'esm/util.mjs', content: 'export const shout = (s) => s.toUpperCase();\n' });
    await ws.call('write_file', { path: 'data.json', content: '{"n": 21}\n' });
    await ws.call('write_file', {
      path: 'main.js',
      content: [
        "const fs = require('fs');",
        "const { twice } = require('./lib');",
        "const { n } = JSON.parse(fs.readFileSync('data.json', 'utf8'));",
        "fs.mkdirSync('out', { recursive: true });",
        "fs.writeFileSync('out/result.txt', String(twice(n)) + '\\n');",
        "console.log('argv', process.argv.slice(2).join(','), process.env.MODE);",
        "console.error('to stderr', { ok: true });",
        '',
      ].join('\n'),
    });
    await ws.call('write_file', {
      path: 'mod.mjs',
      content:
        "import { shout } from './esm/util.mjs';\nimport { readFile } from 'node:fs/promises';\nconst text = await readFile('data.json', 'utf8');\nconsole.log(shout('hi'), JSON.parse(text).n);\n",
    });
    const r = await run(ws, 'node main.js a b && cat out/result.txt', { env: { MODE: 'test' } });
    expect(r).toMatchObject({
      exit_code: 0,
      stdout: 'argv a,b test\n42\n',
      stderr: 'to stderr { ok: true }\n',
      changed_files: ['out/result.txt'],
    });
    expect(await read(ws, 'out/result.txt')).toBe('42\n');
    expect(await run(ws, 'node mod.mjs')).toMatchObject({ exit_code: 0, stdout: 'HI 21\n' });
    expect(await run(ws, "node -e 'console.log(1 + 1)'")).toMatchObject({ exit_code: 0, stdout: '2\n' });
    // A pending timer keeps the script alive; a script may declare its own names for the scope it is given.
    expect(await run(ws, `node -e "setTimeout(() => console.log('late'), 50)"`)).toMatchObject({
      exit_code: 0,
      stdout: 'late\n',
    });
    expect(await run(ws, `node -e "const setTimeout = 7; process.stdout.write(String(setTimeout))"`)).toMatchObject({
      exit_code: 0,
      stdout: '7',
    });
  });

  it('reports a throw and a non-zero exit, and a timeout applies nothing', async () => {
    const ws = track(await connect({ backend: 'memory', name: uniqueName('node-fail') }));
    await ws.call('write_file', { path: 'throw.js', content: "throw new Error('boom');\n" });
    await ws.call('write_file', {
      path: 'exit.js',
      content: "require('fs').writeFileSync('partial.txt', 'x'); console.log('bye'); process.exit(3);\n",
    });
    await ws.call('write_file', {
      path: 'loop.js',
      content: "require('fs').writeFileSync('never.txt', 'x'); console.log('started'); while (true) {}\n",
    });
    const thrown = await run(ws, 'node throw.js');
    expect(thrown.exit_code).toBe(1);
    expect(thrown.stderr).toContain('Error: boom');
    const exited = await run(ws, 'node exit.js; echo status $?');
    expect(exited).toMatchObject({ exit_code: 0, stdout: 'bye\nstatus 3\n', changed_files: ['partial.txt'] });
    expect(exited.note).toBeUndefined();
    expect((await ws.call('delete_path', { path: 'partial.txt' })).ok).toBe(true);
    // A command that fails part-way keeps what it wrote before failing, as a shell does, and says so.
    const failed = await run(ws, 'node exit.js');
    expect(failed).toMatchObject({ exit_code: 3, stdout: 'bye\n', changed_files: ['partial.txt'] });
    expect(failed.note).toMatch(/failed \(exit 3\); the writes it made before that were kept/);
    expect(await read(ws, 'partial.txt')).toBe('x');
    // The timeout counts from the worker's start, so a loaded machine may end the script before it
    // prints: each try that timed out before 'started' applied nothing either, and the next one has
    // more time, until the script is seen to run and then to be stopped.
    let loop: Run | undefined;
    for (const timeout_seconds of [1, 4, 16]) {
      loop = await run(ws, 'node loop.js', { timeout_seconds });
      expect(loop).toMatchObject({ timed_out: true, exit_code: -1 });
      expect(await read(ws, 'never.txt')).toBeNull();
      if (loop.stdout !== '') break;
    }
    expect(loop!.stdout).toBe('started\n');
  });

  it('starts a script quickly enough to be worth a worker', async () => {
    const ws = track(await connect({ backend: 'memory', name: uniqueName('node-start') }));
    const first = await run(ws, 'node -e 1', { timeout_seconds: 20 });
    const r = await run(ws, 'node -e 1', { timeout_seconds: 5 });
    expect([first, r]).toMatchObject([{ exit_code: 0 }, { exit_code: 0 }]);
  });
});
