import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createShellRunner,
  createShellTaskRegistry,
  createWorkspace,
  systemPrompt,
  taskTools,
  toAnthropic,
  toolset,
} from '../../src/index.js';
import { createMemoryFs } from '../../src/fs/memory.js';
import { fixGreeting, fixed, fixture, FIX_TASK, TURN } from '../agent/conversations.js';
import { startModelServer, type ModelServer } from '../agent/model-server.js';
import { sentResults } from '../agent/requests.js';
import { fileText, loggedCalls, runAgentTask } from './agent-steps.js';
import { runForm, shots, startPlayground, type Playground } from './playground.js';

/**
 * The playground's agent panel against the scripted model server: a setup run writes the
 * project, the fix conversation runs over the Anthropic API in the page, and "Undo run" puts
 * every file back. run_command runs `node check.mjs` in the page's shell and the model reads its output.
 */
const KEY = 'sk-e2e-key';
const BACKGROUND_COMMAND = 'sleep 1; echo built > build.txt; echo finished';
// The note the run is woken with when its background build ends.
const EXIT_NOTE =
  /^\[info: background task task_\d+ \(sleep 1; echo built > build\.txt; echo finished\) exited with code 0; read its output with task_output task_\d+\]$/;
let pg: Playground;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(
    {
      'e2e-setup': [
        { calls: Object.entries(fixture).map(([path, content]) => ({ name: 'write_file', args: { path, content } })) },
        { text: 'The project is in place.' },
      ],
      'e2e-fix': fixGreeting,
      'e2e-hang': [{ hang: true, text: 'thinking ' }],
      'e2e-background': [
        { calls: [{ name: 'run_command', args: { command: BACKGROUND_COMMAND, background: true } }] },
        { text: 'The build runs in the background; I will wait for it.' },
        { text: 'The build finished and wrote build.txt.' },
      ],
    },
    { apiKey: KEY },
  );
  pg = await startPlayground({ storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
  await server?.stop();
});

const openai = () => ({ api: 'openai' as const, endpoint: `${server.url}/v1`, key: KEY });
const anthropic = () => ({ api: 'anthropic' as const, endpoint: server.url, key: KEY });

describe('the agent panel in the playground', () => {
  it('runs a setup task: three parallel writes through the worker, streamed into the log', async () => {
    const reason = await runAgentTask(pg.page, { ...openai(), model: 'e2e-setup' }, 'Create the project.');
    expect(reason).toBe('answered');
    expect(await loggedCalls(pg.page)).toEqual(['write_file:ok', 'write_file:ok', 'write_file:ok']);
    expect(await pg.page.textContent('#agent-log li.agent-text')).toBe('The project is in place.');
  });

  it('runs the fix over the Anthropic API: reads, patches, runs the check, meets an ambiguous edit, recovers', async () => {
    const reason = await runAgentTask(pg.page, { ...anthropic(), model: 'e2e-fix' }, FIX_TASK);
    await pg.page.screenshot({ path: join(shots, 'agent-run.png') });
    expect(reason).toBe('answered');
    expect(await loggedCalls(pg.page)).toEqual([
      'read_file:ok',
      'read_file:ok',
      'apply_patch:ok',
      'run_command:ok',
      'edit_file:AMBIGUOUS_MATCH',
      'edit_file:ok',
    ]);
    const texts = await pg.page.$$eval('#agent-log li.agent-text', (items) => items.map((i) => i.textContent));
    expect(texts[0]).toBe("I'll read the code and the check first.");
    expect(texts.at(-1)).toContain('the note is ticked');
    for (const [path, content] of Object.entries(fixed)) expect(await fileText(pg.page, runForm, path)).toBe(content);
  });

  it("sent the page workspace's tools in Anthropic's format and every envelope back, errors included", () => {
    const requests = server.requestsFor('e2e-fix');
    expect(requests).toHaveLength(6);
    // The worker's run_command is the shell's: same name and arguments, its own description.
    const fs = createMemoryFs();
    const shellRun = createWorkspace({ fs, processRunner: createShellRunner(fs) })
      .listTools()
      .find((t) => t.name === 'run_command')!;
    const canonical = toolset('canonical')
      .toAnthropic()
      .map((t) =>
        t.name === 'run_command' ? { ...t, description: shellRun.description, input_schema: shellRun.input_schema } : t,
      );
    // The worker's shell starts background tasks, so canonical comes with the task tools.
    const expected = [...canonical, ...toAnthropic(taskTools(createShellTaskRegistry()))];
    expect(requests[0]!.body.tools).toEqual(expected);
    expect(requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(requests[0]!.headers.origin).toBe(pg.url.replace(/\/$/, ''));
    expect(sentResults(requests[TURN.reads]!).map((r) => r.envelope.result.content)).toEqual([
      fixture['src/greet.js'],
      fixture['check.mjs'],
    ]);
    expect(sentResults(requests[TURN.run]!)[0]).toMatchObject({
      envelope: { ok: true, result: { exit_code: 0, stdout: 'Hello, sandpit!\n', timed_out: false } },
    });
    expect(sentResults(requests[TURN.ambiguous]!)[0]!.envelope).toMatchObject({
      ok: false,
      error: { code: 'AMBIGUOUS_MATCH' },
    });
  });

  it('told the model in the system prompt that run_command is a bash command line in the built-in shell', () => {
    const system = server.requestsFor('e2e-fix')[0]!.body.system as string;
    const fs = createMemoryFs();
    const shellTools = createWorkspace({ fs, processRunner: createShellRunner(fs) }).listTools();
    const shellLine = systemPrompt(shellTools)
      .split('\n')
      .find((line) => line.startsWith('- run_command '))!;
    expect(shellLine).toContain('run_command takes a bash command line');
    expect(system.split('\n')).toContain(shellLine);
    expect(system).toMatch(
      /it has only these commands: ls cat head tail grep .*\bjq\b.*; `node FILE\.js` runs plain JavaScript/,
    );
    expect(system).not.toContain('runs one program without a shell');
  });

  it('keeps the key in memory only, unless "remember" is ticked', async () => {
    const saved = await pg.page.evaluate(() => localStorage.getItem('sandpit.demo.agent'));
    expect(JSON.parse(saved!)).toMatchObject({ api: 'anthropic', model: 'e2e-fix' });
    expect(saved).not.toContain(KEY);
    await pg.page.click('#tab-agent');
    await pg.page.check('#agent-remember');
    expect(await pg.page.evaluate(() => localStorage.getItem('sandpit.demo.agent'))).toContain(KEY);
    await pg.page.uncheck('#agent-remember');
    expect(await pg.page.evaluate(() => localStorage.getItem('sandpit.demo.agent'))).not.toContain(KEY);
  });

  it("opens the run's transcript in Replay", async () => {
    await pg.page.click('#tab-agent');
    await pg.page.click('#agent-replay');
    expect(await pg.page.isVisible('#pane-replay')).toBe(true);
    expect(await pg.page.isVisible('#pane-agent')).toBe(false);
    expect(await pg.page.textContent('#replay-source')).toBe('agent-run.jsonl · 6 calls');
  });

  it('"Undo run" puts every file back as it was before the run, as one undoable step', async () => {
    await pg.page.click('#tab-agent');
    await pg.page.click('#agent-undo');
    await pg.page.waitForFunction(() => document.getElementById('agent-status')!.textContent!.startsWith('undone'));
    expect(await pg.page.isDisabled('#agent-undo')).toBe(true);
    for (const [path, content] of Object.entries(fixture)) expect(await fileText(pg.page, runForm, path)).toBe(content);
    const undo = await runForm(pg.page, 'undo', {});
    expect(undo.ok).toBe(true);
    expect(await fileText(pg.page, runForm, 'src/greet.js')).toBe(fixed['src/greet.js']);
  });

  it('Stop ends a run mid-answer', async () => {
    await pg.page.click('#tab-agent');
    await pg.page.selectOption('#agent-api', 'openai');
    await pg.page.fill('#agent-endpoint', `${server.url}/v1`);
    await pg.page.fill('#agent-model', 'e2e-hang');
    await pg.page.fill('#agent-task', 'Think about it.');
    await pg.page.click('#agent-run');
    await pg.page.waitForFunction(() =>
      (document.querySelector('#agent-log li.agent-text')?.textContent ?? '').includes('thinking thinking'),
    );
    await pg.page.click('#agent-stop');
    await pg.page.waitForSelector('#agent-log li.agent-done[data-reason="stopped"]');
    // the log's last line comes from inside the run; Run is given back as the run returns, a moment later
    await pg.page.waitForSelector('#agent-run:enabled');
    expect(await pg.page.isDisabled('#agent-stop')).toBe(true);
  });

  it("waits for the background command it started; the command's end wakes the run with the exit note", async () => {
    expect(await runAgentTask(pg.page, { ...openai(), model: 'e2e-background' }, 'Build in the background.')).toBe(
      'answered',
    );
    expect(await pg.page.textContent('#agent-log li.agent-waiting')).toBe(
      'Waiting for 1 background task: a note or its end wakes the run.',
    );
    const infos = await pg.page.$$eval('#agent-log li.agent-info', (items) => items.map((i) => i.textContent));
    expect(infos).toEqual([expect.stringMatching(EXIT_NOTE)]);
    const requests = server.requestsFor('e2e-background');
    expect(requests).toHaveLength(3);
    expect(JSON.stringify(requests[1]!.body)).not.toContain('[info');
    const sent = requests[2]!.body.messages as Array<{ role: string; content: unknown }>;
    expect(sent.at(-1)).toEqual({ role: 'user', content: expect.stringMatching(EXIT_NOTE) });
    // The earlier messages are the same bytes: the note only goes at the end.
    expect(JSON.stringify(sent.slice(0, requests[1]!.body.messages.length))).toBe(
      JSON.stringify(requests[1]!.body.messages),
    );
    expect(await fileText(pg.page, runForm, 'build.txt')).toBe('built\n');
  });

  it('shows a refused key and an unreachable endpoint as clear errors', async () => {
    expect(await runAgentTask(pg.page, { ...openai(), key: 'sk-wrong', model: 'e2e-fix' }, 'x')).toBe('error');
    expect(await pg.page.getAttribute('#agent-log li.agent-error', 'data-code')).toBe('UNAUTHORIZED');
    const port = await closedPort();
    expect(await runAgentTask(pg.page, { ...openai(), endpoint: `http://127.0.0.1:${port}/v1`, model: 'm' }, 'x')).toBe(
      'error',
    );
    expect(await pg.page.getAttribute('#agent-log li.agent-error', 'data-code')).toBe('UNREACHABLE');
    expect(await pg.page.textContent('#agent-log li.agent-error')).toMatch(/Cannot reach the model endpoint .*CORS/);
  });

  it("reached nothing but the page's server and the model endpoint, and threw no page errors", () => {
    const model = server.url;
    expect(
      pg.foreignRequests.filter(
        (u) => !u.startsWith(model) && !/^http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions$/.test(u),
      ),
    ).toEqual([]);
    // Chromium logs each refused or failed fetch as a console error; those were the point of the last test.
    expect(pg.pageErrors.filter((e) => !/Failed to load resource|ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
