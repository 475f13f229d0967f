import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolsetWorkspace } from '../../src/node/index.js';
import { callChecked } from '../support/result-check.js';
import { writeToolsFolder } from './fixtures.js';

let base: string;
let root: string;
let toolsDir: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-result-schemas-'));
  root = join(base, 'ws');
  toolsDir = join(base, 'home', 'tools');
  await mkdir(root);
  await writeFile(join(root, 'a.txt'), 'a\n');
  await writeToolsFolder(toolsDir);
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('Node tools answer what their result schemas say (own checker and ajv)', () => {
  it('run_command, the task tools and manifest tools in every mode', async () => {
    const { ws, set } = openToolsetWorkspace(root, 'canonical', { toolsDir, snapshots: false });
    const call = (name: string, args: unknown) => callChecked(ws, set.tools, name, args);
    try {
      await call('run_command', { command: ['node', '-e', "require('fs').writeFileSync('made.txt', 'x')"] });
      await call('run_command', { command: 'sleep 5', timeout_seconds: 0.2 });
      const started = await call('run_command', { command: ['node', '-e', "console.log('bg')"], background: true });
      await call('task_wait', { task_id: started.task_id, timeout_seconds: 10 });
      await call('task_output', { task_id: started.task_id });
      const slow = await call('run_command', { command: ['sleep', '30'], background: true });
      await call('list_tasks', {});
      expect(await call('task_kill', { task_id: slow.task_id })).toMatchObject({ status: 'killed' });
      await call('word_count', { text: 'one two' });
      await call('echo_args', { n: 1 });
      // a non-zero exit or a crash is an error in every surface (issue 22), not a result to check
      for (const failing of ['fails', 'crashes']) expect((await ws.call(failing, {})).ok, failing).toBe(false);
      expect((await call('chart', {})).media).toEqual([expect.objectContaining({ mime: 'image/png' })]);
      const indexing = await call('indexer', {});
      await call('task_wait', { task_id: indexing.task_id, timeout_seconds: 10 });
    } finally {
      await ws.close();
    }
  });

  it("fs_process's run_command over real processes", async () => {
    const { ws, set } = openToolsetWorkspace(root, 'fs_process', { snapshots: false });
    try {
      await callChecked(ws, set.tools, 'run_command', { command: 'node -e "console.log(1)"' });
      await callChecked(ws, set.tools, 'run_command', { command: 'sleep 5', timeout: 0.2 });
    } finally {
      await ws.close();
    }
  });
});
