import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolsetWorkspace, serveMcpHttp } from '../../src/node/index.js';
import { buildCli, cliPath } from '../cli/built-cli.js';
import { createRepo, filesOnBranch, startGitServer, type GitServer } from '../git/git-server.js';

type Row = Record<string, any>;
const dirs: string[] = [];
const closers: Array<() => Promise<unknown>> = [];
let server: GitServer;
let toolsDir: string;
let counter = 0;

const SEED = { 'README.md': '# Served\n', 'src/app.ts': 'export const port = 3000;\n', 'docs/intro.md': 'Hello\n' };

beforeAll(async () => {
  await buildCli();
  server = await startGitServer();
  toolsDir = folder();
  // A background tool that writes two notes well after it started, so a task_wait is surely open by
  // then, and ends once the test puts `release` in the workspace, its working folder, notes written
  // or not: the test says when it has seen what it waits for, so no clock decides whether the task
  // still runs.
  mkdirSync(join(toolsDir, 'notes'));
  writeFileSync(
    join(toolsDir, 'notes', 'notes.json'),
    JSON.stringify({
      description: 'Writes two notes in the background.',
      command: ['node', 'notes.mjs'],
      background: true,
      timeout_seconds: -1,
    }),
  );
  writeFileSync(
    join(toolsDir, 'notes', 'notes.mjs'),
    `import { appendFileSync, existsSync } from 'node:fs';
    const wait = (ms) => new Promise((r) => setTimeout(r, ms));
    const until = Date.now() + 60_000;
    setInterval(() => {
      if (!existsSync('release') && Date.now() < until) return;
      console.log('done');
      process.exit(0);
    }, 10);
    await wait(400); appendFileSync(process.env.SANDPIT_NOTIFY_FILE, 'indexed 2 of 4 folders\\n');
    await wait(300); appendFileSync(process.env.SANDPIT_NOTIFY_FILE, JSON.stringify({ text: 'indexed all 4 folders' }) + '\\n');`,
  );
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-mcp-progress-'));
  dirs.push(dir);
  return dir;
}

function repo(): string {
  const name = `progress-${++counter}`;
  createRepo(server, name, SEED);
  return name;
}

type Connect = (dir: string) => Promise<Client>;

/** `sandpit mcp --git --tools DIR` as a child over stdio, the git token in its environment. */
const overStdio: Connect = async (dir) => {
  const client = new Client({ name: 'progress-stdio', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', '--root', dir, '--git', '--tools', toolsDir, '--sandbox', 'none'],
      env: { ...process.env, SANDPIT_GIT_TOKEN: server.token } as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  closers.push(() => client.close());
  return client;
};

/** The same workspace served over Streamable HTTP on a free port. */
const overHttp: Connect = async (dir) => {
  const token = server.token;
  const { ws, set } = openToolsetWorkspace(dir, 'canonical', {
    toolsDir,
    sandbox: 'none',
    gitTools: { auth: () => ({ token }) },
  });
  const http = await serveMcpHttp(ws, set, { port: 0 });
  const client = new Client({ name: 'progress-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  closers.push(async () => {
    await client.close();
    await http.close();
    await ws.close();
  });
  return client;
};

async function callWithProgress(
  client: Client,
  name: string,
  args: Row,
  onProgress?: (seen: Progress[]) => void,
): Promise<{ result: Row; seen: Progress[] }> {
  const seen: Progress[] = [];
  const result = (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
    onprogress: (p) => {
      seen.push(p);
      onProgress?.(seen);
    },
    timeout: 60_000,
  })) as Row;
  return { result, seen };
}

const rising = (seen: Progress[]) => seen.every((p, i) => i === 0 || p.progress > seen[i - 1]!.progress);

describe.each([
  ['stdio', overStdio],
  ['Streamable HTTP', overHttp],
] as const)('progress over %s', (_, connect) => {
  it('reports the phases of git_clone and git_push as rising progress', async () => {
    const name = repo();
    const dir = folder();
    const client = await connect(dir);
    const clone = await callWithProgress(client, 'git_clone', { url: `${server.url}/${name}.git` });
    expect(clone.result.isError, JSON.stringify(clone.result.structuredContent)).toBe(false);
    expect(clone.result.structuredContent).toMatchObject({ ref: 'main', files: 3 });
    expect(clone.seen.length).toBeGreaterThanOrEqual(2);
    expect(rising(clone.seen)).toBe(true);
    expect(clone.seen.map((p) => p.message)).toContainEqual(expect.stringMatching(/^Writing files: \d+\/3$/));
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toBe(SEED['src/app.ts']);

    expect(
      (
        await client.callTool({
          name: 'edit_file',
          arguments: { path: 'src/app.ts', old_text: '3000', new_text: '8080' },
        })
      ).isError,
    ).toBe(false);
    const push = await callWithProgress(client, 'git_push', { branch: 'agent/progress' });
    expect(push.result.isError, JSON.stringify(push.result.structuredContent)).toBe(false);
    expect(push.result.structuredContent).toMatchObject({ branch: 'agent/progress', squashed: false });
    expect(rising(push.seen)).toBe(true);
    expect(filesOnBranch(server, name, 'agent/progress')['src/app.ts']).toBe('export const port = 8080;\n');

    const pull = await callWithProgress(client, 'git_pull', {});
    expect(pull.result.structuredContent).toMatchObject({ status: 'up_to_date' });
    expect(rising(pull.seen)).toBe(true);
  });

  it('refuses a clone into a folder that has files, as an error result', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'mine.txt'), 'keep\n');
    const client = await connect(dir);
    const { result } = await callWithProgress(client, 'git_clone', { url: `${server.url}/${repo()}.git` });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'DIRECTORY_NOT_EMPTY' });
    expect(readFileSync(join(dir, 'mine.txt'), 'utf8')).toBe('keep\n');
  });

  it("passes each note of a background task to the task_wait waiting on it, as progress with the note's text", async () => {
    const dir = folder();
    const client = await connect(dir);
    const started = (await client.callTool({ name: 'notes', arguments: {} })) as Row;
    expect(started.structuredContent).toMatchObject({ status: 'running' });
    const { result, seen } = await callWithProgress(
      client,
      'task_wait',
      { task_id: started.structuredContent.task_id, timeout_seconds: 30 },
      (seen) => {
        if (seen.length === 2) writeFileSync(join(dir, 'release'), '');
      },
    );
    expect(result.structuredContent).toMatchObject({ status: 'exited', exit_code: 0, wait_timed_out: false });
    expect(seen.map((p) => p.message)).toEqual(['indexed 2 of 4 folders', 'indexed all 4 folders']);
    expect(rising(seen)).toBe(true);
  });
});

describe.each([
  ['stdio', overStdio],
  ['Streamable HTTP', overHttp],
] as const)('cancelling a task_wait over %s', (_, connect) => {
  it('stops the wait, not the task', async () => {
    const dir = folder();
    const client = await connect(dir);
    const started = (await client.callTool({ name: 'notes', arguments: {} })) as Row;
    const id = started.structuredContent.task_id;
    const stop = new AbortController();
    const waiting = client.callTool(
      { name: 'task_wait', arguments: { task_id: id, timeout_seconds: 60 } },
      CallToolResultSchema,
      { signal: stop.signal },
    );
    setTimeout(() => stop.abort('enough'), 100);
    await expect(waiting).rejects.toThrow();
    const listed = (await client.callTool({ name: 'list_tasks', arguments: {} })) as Row;
    expect(listed.structuredContent.tasks).toEqual([expect.objectContaining({ task_id: id, status: 'running' })]);
    writeFileSync(join(dir, 'release'), '');
    const waited = (await client.callTool({
      name: 'task_wait',
      arguments: { task_id: id, timeout_seconds: 30 },
    })) as Row;
    expect(waited.structuredContent).toMatchObject({ status: 'exited', exit_code: 0 });
  });
});

describe('a cancelled task_wait', () => {
  it('answers at once with the task still running', async () => {
    const dir = folder();
    const { ws } = openToolsetWorkspace(dir, 'canonical', { toolsDir, sandbox: 'none', snapshots: false });
    closers.push(() => ws.close());
    const started = await ws.call<{ task_id: string }>('notes', {});
    if (!started.ok) throw new Error(JSON.stringify(started.error));
    const stop = new AbortController();
    const waiting = ws.call(
      'task_wait',
      { task_id: started.result.task_id, timeout_seconds: 60 },
      { signal: stop.signal },
    );
    setTimeout(() => stop.abort(), 50);
    // without the signal it would answer only once the task exited
    expect(await waiting).toMatchObject({ ok: true, result: { status: 'running', wait_timed_out: true } });
    writeFileSync(join(dir, 'release'), '');
  });
});

describe('the git tools are offered only on request', () => {
  it('leaves them out of a plain server', async () => {
    const { ws, set } = openToolsetWorkspace(folder(), 'canonical', { snapshots: false });
    closers.push(() => ws.close());
    expect(set.tools.map((t) => t.name)).not.toContain('git_clone');
    const gitWs = openToolsetWorkspace(folder(), 'canonical', { snapshots: false, gitTools: true });
    closers.push(() => gitWs.ws.close());
    const listed = gitWs.set.toMcp().filter((t) => t.name.startsWith('git_'));
    expect(listed.map((t) => [t.name, t.annotations.readOnlyHint, t.annotations.openWorldHint])).toEqual([
      ['git_clone', false, true],
      ['git_push', false, true],
      ['git_pull', false, true],
    ]);
  });
});
