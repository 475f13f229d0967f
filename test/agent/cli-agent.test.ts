import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolset } from '../../src/index.js';
import { buildCli, cliPath, envelopes, runCli, runMain } from '../cli/built-cli.js';
import { fixed, fixGreeting, fixture, FIX_TASK } from './conversations.js';
import { folderWith, readAll } from './fixture-folder.js';
import { PNG_BASE64, writeHearingTools } from './hearing-tools.js';
import { startModelServer, type ModelServer } from './model-server.js';
import { sentResults } from './requests.js';

const KEY = 'sk-cli-right';
let server: ModelServer;
let toolsDir: string;
const folders: string[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a child process with a key in its environment; `onOutput` may act on what it prints. */
function agent(
  args: string[],
  options: { key?: string; onOutput?: (stdout: string, signal: (s: NodeJS.Signals) => void) => void } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, SANDPIT_API_KEY: options.key ?? KEY };
    const child = spawn(process.execPath, [cliPath, 'agent', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      options.onOutput?.(stdout, (s) => child.kill(s));
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  await buildCli();
  server = await startModelServer(
    {
      'cli-fix': fixGreeting,
      'cli-file-manager': [
        {
          calls: [
            {
              name: 'file_manager',
              args: {
                operations: [
                  { action: 'read_file', path: 'notes.md' },
                  { action: 'exists', path: 'missing.txt' },
                ],
              },
            },
          ],
        },
        { text: 'notes.md has three open items.' },
      ],
      'cli-hang': [{ hang: true, text: 'thinking ' }],
      'cli-vision': [{ calls: [{ name: 'chart', args: {} }] }, { text: 'A chart.' }],
      'cli-wake': [{ calls: [{ name: 'waker', args: {} }] }, { text: 'Watching.' }, { text: 'Look at src/.' }],
    },
    { apiKey: KEY },
  );
  toolsDir = await mkdtemp(join(tmpdir(), 'sandpit-cli-tools-'));
  folders.push(toolsDir);
  await writeHearingTools(toolsDir);
});
afterAll(async () => {
  await server?.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function project(): Promise<string> {
  const root = await folderWith(fixture);
  folders.push(root);
  return root;
}

describe('sandpit agent', () => {
  it('runs the scripted fix on a folder, printing each step, and saves a transcript that sandpit replay reads', async () => {
    const root = await project();
    const transcript = join(await project(), 'run.jsonl');
    const run = await agent([
      '--root',
      root,
      '--endpoint',
      `${server.url}/v1`,
      '--model',
      'cli-fix',
      '--transcript',
      transcript,
      FIX_TASK,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^agent: cli-fix over the openai API, \d+ tools\n/);
    expect(run.stdout).toContain('I\'ll read the code and the check first.\n  -> read_file {"path":"src/greet.js"}\n');
    expect(run.stdout).toMatch(/ ok run_command \{"exit_code":0,"stdout":"Hello, sandpit!\\n"/);
    expect(run.stdout).toMatch(/ failed edit_file AMBIGUOUS_MATCH: /);
    expect(run.stdout).toMatch(/done: answered after 6 steps, 2100 input and 120 output tokens\n$/);
    expect(run.stdout).not.toContain(root);
    expect(await readAll(root, Object.keys(fixed))).toEqual(fixed);

    const copy = await project();
    const replayed = await runCli(['replay', transcript, '--from', copy]);
    expect(replayed.code).toBe(0);
    expect(envelopes(replayed.stdout).map((e) => `${e.tool}:${e.ok ? 'ok' : e.error.code}`)).toEqual([
      'read_file:ok',
      'read_file:ok',
      'apply_patch:ok',
      'run_command:NOT_SUPPORTED',
      'edit_file:AMBIGUOUS_MATCH',
      'edit_file:ok',
    ]);
  });

  it('speaks any toolset: file_manager over the Anthropic API, with its own envelope', async () => {
    const root = await project();
    const run = await agent([
      '--root',
      root,
      '--endpoint',
      server.url,
      '--api',
      'anthropic',
      '--model',
      'cli-file-manager',
      '--toolset',
      'file_manager',
      'What is open in notes.md?',
    ]);
    expect(run.code).toBe(0);
    const [first, second] = server.requestsFor('cli-file-manager');
    expect(first!.body.tools).toEqual(toolset('file_manager').toAnthropic());
    expect(first!.body.system).toContain('- file_manager: ');
    // Advice only for tools the set has; file_manager's own guidance (its seed text) travels in the system prompt.
    expect(first!.body.system).not.toContain('- edit_file needs');
    expect(first!.body.system).toContain(toolset('file_manager').instructions);
    expect(first!.body.tools[0].description.length).toBeLessThanOrEqual(1024);
    const [result] = sentResults(second!);
    expect(result!.envelope).toMatchObject({
      ok: true,
      tool: 'file_manager',
      results: [
        { action: 'read_file', relative_path: 'notes.md' },
        { action: 'exists', exists: false },
      ],
    });
    expect(run.stdout).toContain('notes.md has three open items.');
  });

  it('a refused key is exit 1 with a clear message, and the key is not printed', async () => {
    const run = await agent(['--root', await project(), '--endpoint', `${server.url}/v1`, '--model', 'cli-fix', 'x'], {
      key: 'sk-cli-wrong',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^sandpit agent: UNAUTHORIZED: The model endpoint refused the request \(401\)/);
    expect(run.stdout + run.stderr).not.toContain('sk-cli-wrong');
  });

  it('Ctrl-C stops the run mid-answer with exit 130', async () => {
    let sent = false;
    const run = await agent(
      ['--root', await project(), '--endpoint', `${server.url}/v1`, '--model', 'cli-hang', 'think'],
      {
        onOutput: (stdout, signal) => {
          if (!sent && stdout.includes('thinking thinking')) {
            sent = true;
            signal('SIGINT');
          }
        },
      },
    );
    expect(run.code).toBe(130);
    expect(run.stdout).toMatch(/done: stopped after 1 step,/);
  });

  it('--vision: the tools hear ZAGENT_CAPS with vision, and an attached image reaches the model as an image part', async () => {
    const root = await project();
    const run = await agent([
      '--root',
      root,
      '--tools',
      toolsDir,
      '--endpoint',
      `${server.url}/v1`,
      '--model',
      'cli-vision',
      '--vision',
      'Chart it.',
    ]);
    expect(run.code).toBe(0);
    const messages = server.requestsFor('cli-vision')[1]!.body.messages as any[];
    expect(JSON.parse(messages.at(-2).content).result).toMatchObject({
      output: 'drew chart.png; caps vision=true,audio=false,pdf=false,video=false',
      media: [{ name: 'chart.png', attached: true }],
    });
    expect(messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }],
    });
    expect(run.stdout).toContain('A chart.');
  });

  it('--max-background-wait 0.05: a wake note starts the next turn, and the run ends with exit 0 once the wait runs out', async () => {
    const root = await project();
    const started = Date.now();
    const run = await agent([
      '--root',
      root,
      '--tools',
      toolsDir,
      '--endpoint',
      `${server.url}/v1`,
      '--model',
      'cli-wake',
      '--max-background-wait',
      '0.05',
      'Watch it.',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const requests = server.requestsFor('cli-wake');
    expect(requests).toHaveLength(3);
    expect((requests[2]!.body.messages as any[]).at(-1)).toEqual({
      role: 'user',
      content: '[info: watching; tell me what to look at]',
    });
    // Woken by the note, then waiting again for the watcher that never ends, until 0.05 minutes (3 s) pass: long enough for the watcher to start and write its note on a loaded machine.
    expect(run.stdout).toMatch(
      /\n {2}\[info: watching; tell me what to look at\]\nLook at src\/\.\n {2}\(waiting for 1 background task\)\ndone: answered after 3 steps, /,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
  });

  it('refuses unusable command lines with exit 2', async () => {
    const root = await project();
    const cases: Array<[string[], RegExp]> = [
      [['--root', root, '--endpoint', 'http://127.0.0.1:9/v1', 'task'], /needs --endpoint URL and --model NAME/],
      [['--root', root, '--endpoint', 'ftp://x', '--model', 'm', 'task'], /must be an http/],
      [['--root', root, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm'], /needs a task/],
      [
        ['--root', root, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--max-steps', '0', 'task'],
        /--max-steps must be a whole number/,
      ],
      [
        ['--root', root, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--api', 'gemini', 'task'],
        /--api must be openai or anthropic/,
      ],
      [['--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', 'task'], /needs --root DIR/],
      [
        [
          '--root',
          root,
          '--endpoint',
          'http://127.0.0.1:9/v1',
          '--model',
          'm',
          '--transcript',
          join(root, 'no', 'such', 'x.jsonl'),
          'task',
        ],
        /--transcript file cannot be written \(ENOENT\)/,
      ],
    ];
    // Usage errors are answered before anything starts: the CLI's own main in this process, with
    // the key set as the child would have it, says the same as a child process and costs no spawn.
    const savedKey = process.env.SANDPIT_API_KEY;
    process.env.SANDPIT_API_KEY = KEY;
    try {
      for (const [args, message] of cases) {
        const run = await runMain(['agent', ...args]);
        expect(run.code, args.join(' ')).toBe(2);
        expect(run.stderr).toMatch(message);
        expect(run.stderr).not.toContain(root);
      }
    } finally {
      if (savedKey === undefined) delete process.env.SANDPIT_API_KEY;
      else process.env.SANDPIT_API_KEY = savedKey;
    }
    // and one of them through a real child process, exit code and all
    {
      const [args, message] = cases[0]!;
      const run = await agent(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toContain(root);
    }
    expect(await readFile(join(root, 'notes.md'), 'utf8')).toBe(fixture['notes.md']);
  });
});
