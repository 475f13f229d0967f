import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeWorkspace, type ManifestReport, type NodeWorkspace, type TaskEvent } from '../../src/node/index.js';
import { bwrapProblem } from '../../src/node/process/sandbox.js';
import { GOOD, PNG, writeToolsFolder } from './fixtures.js';

let base: string;
let root: string;
let toolsDir: string;
let home: string;
let ws: NodeWorkspace;
const warnings: ManifestReport[] = [];
const approvals: unknown[][] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-manifests-'));
  root = join(base, 'ws');
  home = join(base, 'home');
  toolsDir = join(home, 'tools');
  await mkdir(root);
  await writeToolsFolder(toolsDir);
  ws = openNodeWorkspace(root, {
    toolsDir,
    session: 'test-session',
    snapshots: false,
    onWarning: (r) => warnings.push(r),
    policy: {
      confirm: (paths, action) => {
        approvals.push([paths, action]);
        return true;
      },
    },
  });
});
afterAll(async () => {
  await ws.close();
  await rm(base, { recursive: true, force: true });
});

async function call(tool: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const env = await ws.call(tool, args);
  if (!env.ok) throw new Error(`${tool} failed: ${JSON.stringify(env.error)}`);
  return env.result as Record<string, any>;
}

/** A call that must fail: its envelope's error, which keeps every field of the tool's result. */
async function failed(tool: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const env = await ws.call(tool, args);
  if (env.ok) throw new Error(`${tool} succeeded: ${JSON.stringify(env.result)}`);
  return env.error as Record<string, any>;
}

describe('loading manifests', () => {
  it('loads the good tools into listTools with their schema and skips each broken one with its problem', () => {
    const names = ws.listTools().map((t) => t.name);
    for (const name of GOOD) expect(names).toContain(name);
    expect(names.filter((n) => n === 'read_file')).toHaveLength(1);
    expect(ws.listTools().find((t) => t.name === 'word_count')?.input_schema).toMatchObject({
      required: ['text'],
      additionalProperties: false,
    });
    const problems = Object.fromEntries(warnings.map((w) => [w.name, w.problems.join(' | ')]));
    expect(problems).toEqual({
      'Bad-Name':
        'name: the folder name \'Bad-Name\' is not a valid tool name (lowercase letters, digits, _); set "name"',
      bad_input: 'input must be one of: "stdin_json", "args_json", "env"',
      bad_json: expect.stringMatching(/^bad_json\.json is not valid JSON/),
      bad_params: 'parameters must be a JSON Schema with "type": "object"',
      bad_schema: expect.stringMatching(/^parameters is not a valid JSON Schema/),
      bad_timeout: 'timeout_seconds must be -1 (no limit), 0 (the default) or positive',
      no_description: 'description is required but missing',
      no_manifest: 'no manifest: expected no_manifest/no_manifest.json',
      other_platform: expect.stringMatching(/^only for (windows|linux); this machine is /),
      read_file: "name 'read_file' is already taken by a built-in tool or another manifest",
      typo_field: 'timeout is not a known field',
    });
    expect(ws.manifests?.reports.filter((r) => r.status === 'ok').map((r) => r.name)).toEqual(GOOD);
  });

  it('validates every call against the manifest schema, with the exact problems', async () => {
    expect(await ws.call('word_count', {})).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', problems: [{ path: '/text', message: 'is required but missing' }] },
    });
    const wrong = await ws.call('word_count', { text: 5, top: 0, colour: 'red' });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) {
      expect(wrong.error.problems).toEqual(
        expect.arrayContaining([
          { path: '/text', message: 'must be string' },
          { path: '/top', message: 'must be >= 1' },
          { path: '/colour', message: 'is not a known argument' },
        ]),
      );
    }
  });
});

describe('running manifest tools', () => {
  it('stdin_json in, json out', async () => {
    expect(await call('word_count', { text: 'the quick brown fox' })).toMatchObject({
      output: '4 words',
      is_error: false,
      exit_code: 0,
      files: [],
    });
  });

  it('args_json appends the arguments and closes stdin; notify lines of a foreground call come back as notes', async () => {
    const result = await call('echo_args', { n: 3 });
    expect(result.output).toBe('--flag {"n":3} stdin=0\n');
    expect(result.notes).toEqual(['note from args']);
  });

  it('env input sets SANDPIT_ and ZAGENT_ variables in a shell tool, which runs in its folder', async () => {
    const result = await call('env_tool', { name: 'Ada', count: 2 });
    const [line, cwd] = result.output.trim().split('\n');
    expect(line).toBe(
      'name=Ada count=2 json={"name":"Ada","count":2} tool=env_tool session=test-session caps=vision=true,audio=false,pdf=true,video=false greeting=hello',
    );
    expect(cwd).toBe(join(toolsDir, 'env_tool'));
  });

  it('expands placeholders and resolves relative arguments that name files in the tool folder', async () => {
    const seen = JSON.parse((await call('places')).output);
    const toolDir = join(toolsDir, 'places');
    // By default tools run in the OS sandbox where it works, and see the workspace at /workspace there.
    const shown = (await bwrapProblem()) === null ? '/workspace' : root;
    expect(seen.argv.slice(0, 2)).toEqual([shown, home]);
    expect(seen.argv[3]).toBe(seen.output);
    expect(dirname(dirname(seen.output)).startsWith(seen.argv[2])).toBe(true);
    expect(seen.argv.slice(4)).toEqual([join(toolDir, 'data.txt'), 'missing.txt']);
    expect(seen).toMatchObject({ cwd: shown, workspace: shown, sandpitWorkspace: shown, home, toolDir });
    expect(seen.notify).toBeTruthy();
  });

  it('a nonzero exit in text mode is an error envelope with the output and the code; a crash in json mode shows its own words', async () => {
    const fails = await failed('fails');
    expect(fails).toMatchObject({
      code: 'IO_ERROR',
      output: 'partial\nbroken\n(exit code 2)',
      is_error: true,
      exit_code: 2,
    });
    expect(fails.message).toBe('fails reported an error:\npartial\nbroken\n(exit code 2)');
    expect(await failed('crashes')).toMatchObject({
      code: 'IO_ERROR',
      output: 'boom\n(exit code 1)',
      is_error: true,
      exit_code: 1,
    });
  });

  it('kills a tool at its timeout', async () => {
    const started = Date.now();
    const result = await failed('slow');
    expect(result).toMatchObject({ code: 'TIMEOUT', is_error: true, timed_out: true, exit_code: -1 });
    expect(result.output).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('lists the output folder and attaches media the model can take, without host paths', async () => {
    const result = await call('chart');
    expect(result.output).toBe('drew it');
    expect(result.files).toEqual([
      { name: 'chart.png', size_bytes: PNG.length },
      { name: 'data.csv', size_bytes: 4 },
      { name: 'sound.wav', size_bytes: 4 },
    ]);
    expect(result.media).toEqual([
      { name: 'chart.png', mime: 'image/png', size_bytes: PNG.length, data_base64: PNG.toString('base64') },
    ]);
    expect(result.media_dropped).toEqual([
      { name: 'secret.png', reason: 'media must be saved in the output folder ($SANDPIT_OUTPUT_DIR)' },
      { name: 'sound.wav', reason: 'the model cannot take audio input' },
    ]);
    expect(JSON.stringify(result)).not.toContain(base);
  });

  it('runs a background tool as a task whose notify lines reach the host as events', async () => {
    const events: TaskEvent[] = [];
    const stop = ws.tasks.onEvent((e) => events.push(e));
    const started = await call('indexer');
    expect(started).toMatchObject({ task_id: expect.stringMatching(/^task_/), status: 'running' });
    const done = await call('task_wait', { task_id: started.task_id, timeout_seconds: 10 });
    stop();
    expect(done).toMatchObject({
      status: 'exited',
      exit_code: 0,
      result: { output: 'indexed 3 files\n', is_error: false },
    });
    expect(events).toEqual([
      { type: 'task_note', task_id: started.task_id, text: 'indexing 40% done', wake: false },
      { type: 'task_note', task_id: started.task_id, text: 'need your decision on X', wake: true },
      expect.objectContaining({
        type: 'task_exit',
        task_id: started.task_id,
        status: 'exited',
        result: expect.objectContaining({ output: 'indexed 3 files\n' }),
      }),
    ]);
  });

  it('permission ask goes to the confirm policy, and is refused when no one can approve', async () => {
    expect(await call('asker')).toMatchObject({ output: 'approved-run\n' });
    expect(approvals).toEqual([[['asker'], 'run']]);
    const lonely = openNodeWorkspace(root, { toolsDir, snapshots: false, onWarning: () => {} });
    expect(await lonely.call('asker', {})).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DENIED' } });
    await lonely.close();
  });
});
