import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, eventually, node, tempWorkspace, type TempWorkspace } from './support.js';

let t: TempWorkspace;
afterEach(async () => {
  await t?.cleanup();
});

async function call(tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const env = await t.ws.call(tool, args);
  if (!env.ok) throw new Error(`${tool} failed: ${JSON.stringify(env.error)}`);
  return env.result as Record<string, any>;
}

// Prints "one", waits until the file `go` exists, prints "two" and exits 4.
const STEPPED =
  'console.log("one"); const fs = require("fs");' +
  'const t = setInterval(() => { if (fs.existsSync("go")) { clearInterval(t); console.log("two"); process.exitCode = 4; } }, 20);';

describe('background tasks', () => {
  it('start, read output incrementally, wait for the end', async () => {
    t = await tempWorkspace();
    const started = await call('run_command', { command: [node, '-e', STEPPED], background: true });
    expect(started.task_id).toMatch(/^task_\d+$/);
    let seen = '';
    expect(
      await eventually(async () => {
        seen += (await call('task_output', { task_id: started.task_id })).stdout;
        return seen.includes('one');
      }),
    ).toBe(true);
    expect(seen).toBe('one\n');
    const still = await call('task_wait', { task_id: started.task_id, timeout_seconds: 0.2 });
    expect(still).toMatchObject({ status: 'running', wait_timed_out: true, stdout: '' });
    await writeFile(join(t.root, 'go'), '');
    const done = await call('task_wait', { task_id: started.task_id, timeout_seconds: 120 });
    expect(done).toMatchObject({ status: 'exited', exit_code: 4, stdout: 'two\n', wait_timed_out: false });
    expect((await call('list_tasks', {})).tasks).toEqual([
      expect.objectContaining({ task_id: started.task_id, status: 'exited', exit_code: 4 }),
    ]);
    // A rescan cannot tell who wrote a file: `go` (written by this test) is logged with the task's end.
    expect(t.ws.changes.list()).toEqual([
      expect.objectContaining({ tool: 'run_command', files: [expect.objectContaining({ path: 'go' })] }),
    ]);
    const writer = await call('run_command', {
      command: [node, '-e', 'require("fs").writeFileSync("made.txt", "x")'],
      background: true,
    });
    await call('task_wait', { task_id: writer.task_id, timeout_seconds: 120 });
    expect(t.ws.changes.list()[1]).toMatchObject({ tool: 'run_command', files: [{ path: 'made.txt' }] });
  });

  it('kill ends the task and everything it started', async () => {
    t = await tempWorkspace({ sandbox: 'none' });
    const started = await call('run_command', { command: ['sh', '-c', 'sleep 60 & echo $!; wait'], background: true });
    let out = '';
    expect(
      await eventually(async () => {
        out += (await call('task_output', { task_id: started.task_id })).stdout;
        return out.includes('\n');
      }),
    ).toBe(true);
    const grandchild = Number(out.trim());
    const killed = await call('task_kill', { task_id: started.task_id });
    expect(killed).toMatchObject({ status: 'killed', exit_code: -1 });
    expect(await eventually(async () => !(await alive(grandchild)))).toBe(true);
  });

  it('a timeout ends a background task; close() ends the rest', async () => {
    t = await tempWorkspace({ sandbox: 'none' });
    const short = await call('run_command', { command: ['sleep', '30'], background: true, timeout_seconds: 0.3 });
    expect(await call('task_wait', { task_id: short.task_id, timeout_seconds: 120 })).toMatchObject({
      status: 'timed_out',
      exit_code: -1,
    });
    const long = await call('run_command', { command: ['sh', '-c', 'sleep 60 & echo $!; wait'], background: true });
    let out = '';
    await eventually(async () => {
      out += (await call('task_output', { task_id: long.task_id })).stdout;
      return out.includes('\n');
    });
    await t.ws.close();
    expect((await call('list_tasks', {})).tasks[1]).toMatchObject({ status: 'killed' });
    expect(await eventually(async () => !(await alive(Number(out.trim()))))).toBe(true);
  });

  it('names an unknown task with NOT_FOUND', async () => {
    t = await tempWorkspace();
    const env = await t.ws.call('task_output', { task_id: 'task_99' });
    expect(env).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
