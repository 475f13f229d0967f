import { describe, expect, it } from 'vitest';
import {
  canonicalTools,
  createMemoryFs,
  createShellRunner,
  createShellTaskRegistry,
  createWorkspace,
  taskTools,
  type TaskEvent,
} from '../../src/index.js';
import { taskInbox } from '../../src/agent/index.js';

const text = async (fs: ReturnType<typeof createMemoryFs>, p: string) =>
  fs.readFile(p).then(
    (b) => new TextDecoder().decode(b),
    () => null,
  );

/** A memfs workspace whose run_command is the built-in shell with background tasks, and the task tools. */
function shellWorkspace(files: Record<string, string> = { '/a.txt': 'one\n' }, maxOutputBytes?: number) {
  const fs = createMemoryFs(files);
  const tasks = createShellTaskRegistry(maxOutputBytes);
  const ws = createWorkspace({
    fs,
    tools: [...canonicalTools, ...taskTools(tasks)],
    processRunner: createShellRunner(fs, '/', { tasks, ...(maxOutputBytes ? { maxOutputBytes } : {}) }),
  });
  const events: TaskEvent[] = [];
  tasks.onEvent((e) => events.push(e));
  return { fs, tasks, ws, events };
}

describe('background commands in the built-in shell', () => {
  it('returns at once, is listed, streams its output, and its writes land as one change when it ends', async () => {
    const { fs, ws, events } = shellWorkspace();
    const started = await ws.call('run_command', {
      command:
        'echo begun; while [ ! -f go ]; do sleep 0.02; done; echo two > b.txt; sed -i s/one/ONE/ a.txt; echo ended',
      background: true,
    });
    expect(started).toMatchObject({ ok: true, result: { task_id: 'task_1', cwd: '.' } });
    expect(await text(fs, '/b.txt')).toBeNull();
    const listed = await ws.call('list_tasks', {});
    expect(listed.ok && listed.result).toMatchObject({
      tasks: [
        { task_id: 'task_1', status: 'running', exit_code: null, command: expect.stringContaining('echo begun') },
      ],
    });
    // Read until the first line is there (the shell's code loads with the first command): the rest
    // waits for a file the test writes behind the shell's back, so the task is still running however
    // slow the machine is.
    let early: Record<string, unknown> = {};
    while (!early.stdout) {
      const read = await ws.call('task_output', { task_id: 'task_1' });
      early = read.ok ? (read.result as Record<string, unknown>) : {};
      if (!early.stdout) await new Promise((r) => setTimeout(r, 20));
    }
    expect(early).toMatchObject({ status: 'running', stdout: 'begun\n' });
    await fs.writeFile('/go', new Uint8Array());
    const before = ws.changes.list().length;
    const waited = await ws.call('task_wait', { task_id: 'task_1', timeout_seconds: 10 });
    expect(waited.ok && waited.result).toMatchObject({
      status: 'exited',
      exit_code: 0,
      stdout: 'ended\n',
      wait_timed_out: false,
    });
    expect(await text(fs, '/b.txt')).toBe('two\n');
    expect(await text(fs, '/a.txt')).toBe('ONE\n');
    const changes = ws.changes.list().slice(before);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.tool).toBe('run_command');
    expect(changes[0]!.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(ws.changes.get(changes[0]!.id)?.unified_diff).toMatch(/-one\n\+ONE/);
    expect(events.at(-1)).toEqual({
      type: 'task_exit',
      task_id: 'task_1',
      status: 'exited',
      exit_code: 0,
      change_id: changes[0]!.id,
    });
    // The snapshot holds the task's writes: undo takes them back.
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(await text(fs, '/a.txt')).toBe('one\n');
  });

  it('task_kill stops a running loop at its next step; a timeout stops it too', async () => {
    const { fs, ws } = shellWorkspace();
    await ws.call('run_command', {
      command: 'while true; do echo tick >> log.txt; echo wrote; sleep 0.05; done',
      background: true,
    });
    // Kill once the loop has written (its writes land when the task ends; its output streams), however
    // long the shell takes to start.
    const wrote = async () => {
      const read = await ws.call('task_output', { task_id: 'task_1' });
      return read.ok && String((read.result as { stdout?: string }).stdout ?? '').includes('wrote');
    };
    while (!(await wrote())) await new Promise((r) => setTimeout(r, 20));
    const killed = await ws.call('task_kill', { task_id: 'task_1' });
    expect(killed.ok && killed.result).toMatchObject({ status: 'killed', exit_code: -1 });
    // What it wrote before the kill is kept, as a real shell's writes would be.
    expect(await text(fs, '/log.txt')).toMatch(/^(tick\n)+$/);
    const timed = await ws.call('run_command', { command: 'sleep 5', background: true, timeout_seconds: 0.2 });
    expect(timed.ok).toBe(true);
    const waited = await ws.call('task_wait', { task_id: 'task_2', timeout_seconds: 5 });
    expect(waited.ok && waited.result).toMatchObject({ status: 'timed_out', exit_code: -1, wait_timed_out: false });
  });

  it("caps a task's unread output as the foreground is capped, keeping head and tail", async () => {
    const { ws } = shellWorkspace({}, 1000);
    await ws.call('run_command', { command: 'seq 1 2000', background: true });
    const out = await ws.call('task_wait', { task_id: 'task_1', timeout_seconds: 10 });
    const result = out.ok ? (out.result as { stdout: string; truncated: boolean }) : null;
    expect(result?.truncated).toBe(true);
    expect(result!.stdout.length).toBeLessThan(1200);
    expect(result!.stdout.startsWith('1\n2\n')).toBe(true);
    expect(result!.stdout.endsWith('1999\n2000\n')).toBe(true);
  });

  it("notes to $ZAGENT_NOTIFY_FILE become task_note events and reach a run's inbox, with the exit note", async () => {
    const { fs, tasks, ws, events } = shellWorkspace();
    const inbox = taskInbox(tasks);
    await ws.call('run_command', {
      command:
        'echo "halfway there" >> $ZAGENT_NOTIFY_FILE; echo \'{"text":"look now","wake":true}\' > "$ZAGENT_NOTIFY_FILE"; echo done',
      background: true,
    });
    expect(inbox.running()).toBe(1);
    await ws.call('task_wait', { task_id: 'task_1', timeout_seconds: 10 });
    expect(events.filter((e) => e.type === 'task_note')).toEqual([
      { type: 'task_note', task_id: 'task_1', text: 'halfway there', wake: false },
      { type: 'task_note', task_id: 'task_1', text: 'look now', wake: true },
    ]);
    expect(inbox.running()).toBe(0);
    const notes = inbox.take();
    expect(notes.map((n) => n.text)).toEqual([
      'halfway there',
      'look now',
      expect.stringMatching(
        /^background task task_1 \(.*\) exited with code 0; read its output with task_output task_1$/,
      ),
    ]);
    // The notify file is a device: nothing of it lands in the workspace.
    expect((await fs.readdir('/')).filter((n) => n !== '.sandpit')).toEqual(['a.txt']);
    inbox.close();
  });

  it('without a task registry, background stays NOT_SUPPORTED', async () => {
    const fs = createMemoryFs({});
    const ws = createWorkspace({ fs });
    const started = await ws.call('run_command', { command: 'echo hi', background: true });
    expect(started).toMatchObject({ ok: false, error: { code: 'NOT_SUPPORTED' } });
  });
});
