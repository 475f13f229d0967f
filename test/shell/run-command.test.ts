import { describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { createMemoryFs } from '../../src/fs/memory.js';
import { createShellRunner } from '../../src/process/shell-runner.js';

function open(files: Record<string, string> = { '/a.txt': 'one\ntwo\n', '/src/x.ts': '// TODO\n' }) {
  const fs = createMemoryFs(files);
  return { fs, ws: createWorkspace({ fs, processRunner: createShellRunner(fs) }) };
}
const text = async (fs: ReturnType<typeof createMemoryFs>, p: string) =>
  fs.readFile(p).then(
    (b) => new TextDecoder().decode(b),
    () => null,
  );

describe('run_command over the built-in shell', () => {
  it('answers with the same fields as on Node, and describes the shell to the model', async () => {
    const { ws } = open();
    const r = await ws.call('run_command', {
      command: 'grep -c TODO src/x.ts | tr -d "\\n"; echo " $FOO"',
      env: { FOO: 'bar' },
    });
    expect(r).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: '1 bar\n', stderr: '', timed_out: false, truncated: false },
    });
    expect(typeof (r.ok && r.result.duration_ms)).toBe('number');
    const tool = ws.listTools().find((t) => t.name === 'run_command')!;
    expect(tool.description).toMatch(/bash command line/);
    expect(tool.description).toMatch(/awk/);
  });

  it("makes a command's writes one change and one snapshot, and undo takes them back", async () => {
    const { ws, fs } = open();
    const before = (await ws.call('list_snapshots', {})).ok;
    expect(before).toBe(true);
    const r = await ws.call('run_command', {
      command: 'mkdir -p out && sort -r a.txt > out/s.txt && rm a.txt && echo new > b.txt',
    });
    expect(r.ok && r.result).toMatchObject({
      exit_code: 0,
      changed_files: expect.arrayContaining(['a.txt', 'b.txt', 'out/s.txt']),
    });
    expect(await text(fs, '/out/s.txt')).toBe('two\none\n');
    expect(await text(fs, '/a.txt')).toBeNull();
    const changes = ws.changes.list();
    expect(changes.filter((c) => c.tool === 'run_command')).toHaveLength(1);
    // The snapshot is the command's, under its name and change id, not an anonymous rescan.
    const listed = await ws.call('list_snapshots', {});
    const newest = listed.ok
      ? (listed.result as { snapshots: Array<{ tool?: string; message: string; change_id?: string }> }).snapshots[0]
      : undefined;
    expect(newest).toMatchObject({
      tool: 'run_command',
      message: expect.stringMatching(/^run_command: /),
      change_id: r.ok ? r.result.change_id : 'none',
    });
    const undo = await ws.call('undo', {});
    expect(undo.ok).toBe(true);
    expect(await text(fs, '/a.txt')).toBe('one\ntwo\n');
    expect(await text(fs, '/b.txt')).toBeNull();
    expect(await text(fs, '/out/s.txt')).toBeNull();
  });

  it('keeps the writes made before a failure, and says so', async () => {
    const { ws, fs } = open();
    const r = await ws.call('run_command', { command: 'echo kept > k.txt && cat missing.txt && echo never > n.txt' });
    expect(r.ok && r.result).toMatchObject({
      exit_code: 1,
      changed_files: ['k.txt'],
      note: expect.stringMatching(/kept/),
    });
    expect(r.ok && r.result.stderr).toBe('cat: missing.txt: No such file or directory\n');
    expect(await text(fs, '/k.txt')).toBe('kept\n');
    expect(await text(fs, '/n.txt')).toBeNull();
  });

  it('stays inside the root: .. and / map to the root, .sandpit is closed, links are not followed', async () => {
    const { ws, fs } = open();
    await fs.mkdir('/outside-target', { recursive: true });
    await fs.symlink('/a.txt', '/link.txt');
    const r = await ws.call('run_command', { command: 'cd ../../..; pwd; cat /a.txt ../a.txt | wc -l; ls /' });
    expect(r.ok && r.result.stdout).toBe('/\n4\na.txt\nlink.txt\noutside-target\nsrc\n');
    const sandpit = await ws.call('run_command', {
      command: 'ls .sandpit; echo x > .sandpit/HEAD; cat /.sandpit/HEAD',
    });
    expect(sandpit.ok && sandpit.result.exit_code).not.toBe(0);
    expect(sandpit.ok && sandpit.result.stderr).toMatch(/Permission denied/);
    const link = await ws.call('run_command', { command: 'cat link.txt; echo y > link.txt' });
    expect(link.ok && link.result.stderr).toMatch(/symbolic link/);
    expect(await text(fs, '/a.txt')).toBe('one\ntwo\n');
    expect((await fs.lstat('/link.txt')).type).toBe('symlink');
  });

  it('honours cwd, refuses one outside the workspace, and times out a loop', async () => {
    const { ws } = open();
    const inSrc = await ws.call('run_command', { command: 'ls; pwd', cwd: 'src' });
    expect(inSrc.ok && inSrc.result.stdout).toBe('x.ts\n/src\n');
    const outside = await ws.call('run_command', { command: 'ls', cwd: '../..' });
    expect(outside).toMatchObject({ ok: false, error: { code: 'OUTSIDE_WORKSPACE' } });
    const loop = await ws.call('run_command', { command: 'while true; do :; done', timeout_seconds: 0.2 });
    expect(loop.ok && loop.result).toMatchObject({ timed_out: true, exit_code: -1 });
  });

  it('runs an argv array as one command, without reading shell syntax in it', async () => {
    const { ws } = open();
    const r = await ws.call('run_command', { command: ['echo', '$HOME', 'a|b', '*.txt'] });
    expect(r.ok && r.result.stdout).toBe('$HOME a|b *.txt\n');
  });

  it('caps stdout keeping head and tail', async () => {
    const fs = createMemoryFs({});
    const ws = createWorkspace({ fs, processRunner: createShellRunner(fs, '/', { maxOutputBytes: 100 }) });
    const r = await ws.call('run_command', { command: 'seq 1000' });
    expect(r.ok && r.result.truncated).toBe(true);
    expect(r.ok && r.result.stdout).toMatch(/^1\n2\n[\s\S]*left out[\s\S]*\n1000\n$/);
  });

  it('reports a syntax error as bash does: status 2, nothing run', async () => {
    const { ws, fs } = open();
    const r = await ws.call('run_command', { command: 'echo a > z.txt; if true; then' });
    expect(r.ok && r.result.exit_code).toBe(2);
    expect(await text(fs, '/z.txt')).toBeNull();
  });
});

describe("the agent's system prompt with the browser shell", () => {
  it('tells the model it has a bash command line and which commands exist', async () => {
    const { systemPrompt } = await import('../../src/agent/system-prompt.js');
    const { ws } = open();
    const prompt = systemPrompt(ws.listTools());
    expect(prompt).toMatch(/run_command takes a bash command line/);
    expect(prompt).toMatch(/grep .* sed awk jq find/);
    expect(prompt).not.toMatch(/without a shell/);
  });
});
