import { chmodSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../cli/built-cli.js';
import { stdioChild, type McpChild } from './cli-child.js';
import { scratch } from './scratch.js';

// What `sandpit mcp` would otherwise only print reaches the session as log messages: the CLI's
// own wiring of the task registry and the snapshot store to the log hub, in a real child.
type Row = Record<string, any>;
const { folder } = scratch('sandpit-mcp-log-wiring-');
const children: McpChild[] = [];
beforeAll(async () => {
  await buildCli();
});
afterAll(async () => {
  for (const c of children) await c.close();
});

async function serve(dir: string, args: string[] = []): Promise<{ client: Client; logs: Row[] }> {
  const logs: Row[] = [];
  const child = stdioChild(['--root', dir, '--sandbox', 'none', ...args]);
  children.push(child);
  const client = await child.connect({}, (c) =>
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    }),
  );
  return { client, logs };
}

const write = async (client: Client, path: string) =>
  ((await client.callTool({ name: 'write_file', arguments: { path, content: `${path}\n` } })) as Row).structuredContent;

it('tells the session when a background manifest task exits', async () => {
  const tools = folder({
    'bg/bg.json': JSON.stringify({
      description: 'Works in the background.',
      command: ['node', 'bg.mjs'],
      background: true,
      timeout_seconds: -1,
    }),
    'bg/bg.mjs': 'setTimeout(() => console.log("done"), 200);',
  });
  const { client, logs } = await serve(folder({}), ['--tools', tools]);
  const started = ((await client.callTool({ name: 'bg', arguments: {} })) as Row).structuredContent;
  expect(started).toMatchObject({ status: 'running' });
  await expect
    .poll(() => logs.find((l) => l.logger === 'tasks'), { timeout: 120_000 })
    .toEqual({
      level: 'info',
      logger: 'tasks',
      data: { task_id: started.task_id, status: 'exited', exit_code: 0 },
    });
});

describe('a snapshot that fails after the change is made', () => {
  /** Serve `dir`, make the first commit, break the shadow repository's objects with `breakIt`, and change a file again. */
  async function failingSnapshot(breakIt: (objects: string) => void): Promise<Row[]> {
    const dir = folder({});
    const { client, logs } = await serve(dir);
    expect(await write(client, 'first.txt')).toMatchObject({ created: true });
    // the commit follows the answer; the next call waits for it
    await client.callTool({ name: 'list_snapshots', arguments: {} });
    const objects = join(dir, '.sandpit', 'git', 'objects');
    expect(statSync(objects).isDirectory()).toBe(true);
    breakIt(objects);
    expect(await write(client, 'second.txt')).toMatchObject({ created: true });
    await expect.poll(() => logs.filter((l) => l.logger === 'snapshots'), { timeout: 120_000 }).toHaveLength(1);
    const failure = logs.find((l) => l.logger === 'snapshots')!;
    expect(failure.level).toBe('error');
    expect(String(failure.data)).toMatch(/^a snapshot failed \(the change itself is made/);
    expect(String(failure.data)).not.toContain(dir);
    return logs;
  }

  // Root writes into a read-only folder anyway, so this way is only real for another user.
  it.skipIf(process.getuid?.() === 0)('is logged when the objects folder turned read-only', async () => {
    let objects = '';
    const setWritable = (path: string, writable: boolean): void => {
      chmodSync(path, writable ? 0o755 : 0o555);
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        if (entry.isDirectory()) setWritable(join(path, entry.name), writable);
        else chmodSync(join(path, entry.name), writable ? 0o644 : 0o444);
      }
    };
    try {
      await failingSnapshot((at) => {
        objects = at;
        setWritable(at, false);
      });
    } finally {
      if (objects) setWritable(objects, true);
    }
  });

  it('is logged when the objects folder was replaced by a file', async () => {
    await failingSnapshot((objects) => {
      // moved aside, not removed: the server may be making spare object files in it right now
      renameSync(objects, `${objects}.aside`);
      writeFileSync(objects, 'not a folder');
    });
  });

  it('is not logged while snapshots succeed', async () => {
    const { client, logs } = await serve(folder({}));
    await write(client, 'a.txt');
    await write(client, 'b.txt');
    await client.callTool({ name: 'list_snapshots', arguments: {} });
    expect(logs.filter((l) => l.logger === 'snapshots')).toEqual([]);
  });
});
