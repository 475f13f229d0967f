import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../agent/model-server.js';
import { buildCli, cliPath, runMain } from './built-cli.js';

const KEY = 'sk-cli-review';
const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const after = before.replace('line 2\n', 'TWO\n').replace('line 10\n', 'TEN\n').replace('line 18\n', 'EIGHTEEN\n');
let dir: string;
let server: ModelServer;

beforeAll(async () => {
  await buildCli();
  dir = await mkdtemp(join(tmpdir(), 'sandpit-cli-review-'));
  await writeFile(join(dir, 'a.txt'), before);
  server = await startModelServer(
    {
      writer: [
        { calls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
        { calls: [{ name: 'write_file', args: { path: 'a.txt', content: after } }] },
        { text: 'Rewrote lines 2, 10 and 18.' },
      ],
      follower: [{ text: 'Understood: line 10 stays.' }],
    },
    { apiKey: KEY },
  );
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** `sandpit agent` on the folder as a real child process: its own workspace, its own change log in memory. */
function agent(model: string, task: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const args = [
      'agent',
      '--root',
      dir,
      '--endpoint',
      `${server.url}/v1`,
      '--model',
      model,
      '--sandbox',
      'none',
      task,
    ];
    const child = spawn(process.execPath, [cliPath, ...args], {
      env: { ...process.env, SANDPIT_API_KEY: KEY },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}
const result = (stdout: string) => JSON.parse(stdout) as { ok: boolean; result: any; error?: any };

it("blames, lists and rejects from the CLI what an agent's process wrote, and the next run is told", async () => {
  expect(await agent('writer', 'Rewrite lines 2, 10 and 18.')).toBe(0);
  expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe(after);

  const blamed = await runMain(['blame', '--root', dir, 'a.txt']);
  expect(blamed.code).toBe(0);
  const ranges = result(blamed.stdout).result.ranges as Array<Record<string, unknown>>;
  const at = (n: number) => ranges.find((r) => (r.start_line as number) <= n && n <= (r.end_line as number))!;
  expect(at(2)).toMatchObject({ actor: 'agent:writer', tool: 'write_file', call_id: expect.any(String) });
  expect(at(1)).toMatchObject({ actor: null, change_id: null });

  const listed = result((await runMain(['review', '--root', dir, '--path', 'a.txt'])).stdout);
  expect(listed.result.hunks.map((h: { new_start: number; status: string }) => [h.new_start, h.status])).toEqual([
    [2, 'pending'],
    [10, 'pending'],
    [18, 'pending'],
  ]);
  const middle = listed.result.hunks[1].id as string;
  const rejected = await runMain(['review', '--root', dir, '--reject', middle, '--reason', 'line 10 must stay']);
  expect(rejected.code).toBe(0);
  expect(result(rejected.stdout).result.rejected).toEqual([expect.objectContaining({ id: middle, start_line: 10 })]);
  expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe(after.replace('TEN\n', 'line 10\n'));
  // a second rejection of the same hunk, in yet another process, is refused and changes nothing
  const twice = await runMain(['review', '--root', dir, '--reject', middle, '--reason', 'again']);
  expect([twice.code, result(twice.stdout).error.code]).toEqual([1, 'PATCH_CONFLICT']);
  const reblamed = result((await runMain(['blame', '--root', dir, 'a.txt'])).stdout).result.ranges;
  expect(reblamed.find((r: { start_line: number }) => r.start_line === 10)).toMatchObject({
    actor: 'reviewer',
    tool: 'review_reject',
  });
  const usage = await runMain(['review', '--root', dir, '--reject', middle]);
  expect(usage.code).toBe(2);

  // the next agent run, another process, reads the rejection in its first request
  expect(await agent('follower', 'Carry on.')).toBe(0);
  const first = JSON.stringify(server.requestsFor('follower')[0]!.body.messages);
  expect(first).toContain('[info: review');
  expect(first).toContain('a.txt line 10');
  expect(first).toContain('line 10 must stay');
});
