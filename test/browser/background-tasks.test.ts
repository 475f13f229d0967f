import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteWorkspace } from '../../web/client.js';
import type { TaskNoteEvent } from '../../web/protocol.js';
import { connect, uniqueName } from './connect.js';

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});
const result = <T>(envelope: { ok: boolean; result?: unknown; error?: unknown }): T => {
  if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
  return envelope.result as T;
};
/** Ask again until `ready` says yes: the tests wait for a state, however slow the machine (the test's timeout bounds it). */
async function until(ready: () => Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((r) => setTimeout(r, 20));
}

describe("background tasks in the worker's shell", () => {
  it('start at once, are listed and read, send their notes and end to the page, and land their writes as one change', async () => {
    const ws = await connect({ backend: 'indexeddb', name: uniqueName('tasks') });
    open.push(ws);
    const heard: TaskNoteEvent[] = [];
    const ended = new Promise<void>((resolve) =>
      ws.onTask((event) => {
        heard.push(event);
        if (event.ended) resolve();
      }),
    );
    const tools = (await ws.listTools()).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['task_output', 'task_wait', 'task_kill', 'list_tasks']));
    const started = result<{ task_id: string }>(
      await ws.call('run_command', {
        command: 'echo "halfway" >> $ZAGENT_NOTIFY_FILE; sleep 0.5; echo built > out.txt; echo done',
        background: true,
      }),
    );
    expect(started.task_id).toBe('task_1');
    expect(result<{ tasks: Array<{ status: string }> }>(await ws.call('list_tasks', {})).tasks).toMatchObject([
      { status: 'running' },
    ]);
    const waited = result<Record<string, unknown>>(
      await ws.call('task_wait', { task_id: 'task_1', timeout_seconds: 20 }),
    );
    expect(waited).toMatchObject({ status: 'exited', exit_code: 0, stdout: 'done\n', wait_timed_out: false });
    expect(result<{ content: string }>(await ws.call('read_file', { path: 'out.txt' })).content).toBe('built\n');
    const changes = (await ws.changes()).filter((c) => c.tool === 'run_command');
    expect(changes.map((c) => c.files.map((f) => f.path))).toEqual([['out.txt']]);
    // Events cross on their own channel: the exit may arrive after the answer to task_wait.
    await ended;
    expect(heard).toEqual([
      { task_id: 'task_1', text: 'halfway', wake: false, ended: false },
      {
        task_id: 'task_1',
        text: expect.stringMatching(
          /^background task task_1 \(.*\) exited with code 0; read its output with task_output task_1$/,
        ),
        wake: true,
        ended: true,
        change_id: changes[0]!.id,
      },
    ]);
  });

  it('task_kill stops a loop in the worker and keeps what it wrote', async () => {
    const ws = await connect({ backend: 'memory', name: uniqueName('kill') });
    open.push(ws);
    result(
      await ws.call('run_command', {
        command: 'while true; do echo tick >> log.txt; echo wrote; sleep 0.05; done',
        background: true,
      }),
    );
    // Killed once the loop has written (it says so on stdout; its writes land when it ends): the kill must keep them.
    await until(
      async () => result<{ stdout: string }>(await ws.call('task_output', { task_id: 'task_1' })).stdout !== '',
    );
    expect(result<Record<string, unknown>>(await ws.call('task_kill', { task_id: 'task_1' }))).toMatchObject({
      status: 'killed',
      exit_code: -1,
    });
    expect(result<{ content: string }>(await ws.call('read_file', { path: 'log.txt' })).content).toMatch(/^(tick\n)+$/);
  });

  it('task_kill ends a node script that never returns, in its own worker', async () => {
    const ws = await connect({ backend: 'memory', name: uniqueName('kill-node') });
    open.push(ws);
    result(await ws.call('run_command', { command: 'node -e "console.log(1); while (true) {}"', background: true }));
    await new Promise((r) => setTimeout(r, 500));
    expect(result<Record<string, unknown>>(await ws.call('task_kill', { task_id: 'task_1' }))).toMatchObject({
      status: 'killed',
      exit_code: -1,
    });
  });
});
