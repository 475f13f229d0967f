import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

type Files = Record<string, string | Buffer>;

/** One tool folder: its manifest (as an object, or raw text) and the files beside it. */
async function tool(dir: string, folder: string, manifest: object | string | null, files: Files = {}): Promise<void> {
  const toolDir = join(dir, folder);
  await mkdir(toolDir, { recursive: true });
  if (manifest !== null)
    await writeFile(
      join(toolDir, `${folder}.json`),
      typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 2),
    );
  for (const [name, content] of Object.entries(files)) await writeFile(join(toolDir, name), content);
}

// The smallest valid PNG: 1x1, one transparent pixel.
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const other = process.platform === 'win32' ? 'linux' : 'windows';

/** Good tools in every input and output mode, and broken ones of every kind. */
export async function writeToolsFolder(dir: string): Promise<void> {
  await tool(
    dir,
    'word_count',
    {
      description: 'Count words. Use when the user wants text statistics.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, top: { type: 'integer', minimum: 1 } },
        required: ['text'],
        additionalProperties: false,
      },
      command: ['node', 'word_count.mjs'],
      input: 'stdin_json',
      output: 'json',
      timeout_seconds: 0,
    },
    {
      'word_count.mjs': `let s = ''; process.stdin.on('data', (d) => { s += d; }).on('end', () => {
      const a = JSON.parse(s); const n = a.text.split(/\\s+/).filter(Boolean).length;
      console.log(JSON.stringify({ output: n + ' words', is_error: false }));
    });`,
    },
  );
  await tool(
    dir,
    'echo_args',
    {
      description: 'Echo the JSON arguments it got as its last argument.',
      parameters: { type: 'object', properties: { n: { type: 'integer' } } },
      command: ['node', 'echo_args.mjs', '--flag'],
      input: 'args_json',
    },
    {
      'echo_args.mjs': `import { appendFileSync, readFileSync } from 'node:fs';
      appendFileSync(process.env.ZAGENT_NOTIFY_FILE, 'note from args\\n');
      console.log(process.argv.slice(2).join(' ') + ' stdin=' + readFileSync(0, 'utf8').length);`,
    },
  );
  await tool(
    dir,
    'env_tool',
    {
      description: 'A shell tool that reads its arguments from the environment.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string' }, count: { type: 'integer' } },
        required: ['name'],
      },
      command: ['sh', 'env_tool.sh'],
      input: 'env',
      cwd: 'tool_dir',
      env: { GREETING: 'hello' },
    },
    {
      'env_tool.sh':
        'echo "name=$ZAGENT_ARG_NAME count=$SANDPIT_ARG_COUNT json=$ZAGENT_ARGS_JSON tool=$ZAGENT_TOOL_NAME session=$SANDPIT_SESSION caps=$ZAGENT_CAPS greeting=$GREETING"\npwd\n',
    },
  );
  await tool(
    dir,
    'places',
    {
      description: 'Print where things are.',
      command: [
        'node',
        '{dir}/places.mjs',
        '{workspace}',
        '{home}',
        '{scratch}',
        '{output_dir}',
        'data.txt',
        'missing.txt',
      ],
    },
    {
      'data.txt': 'data',
      'places.mjs': `const e = process.env; console.log(JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(),
      workspace: e.ZAGENT_WORKSPACE, sandpitWorkspace: e.SANDPIT_WORKSPACE, home: e.ZAGENT_HOME, scratch: e.ZAGENT_SCRATCH,
      output: e.SANDPIT_OUTPUT_DIR, toolDir: e.ZAGENT_TOOL_DIR, notify: e.ZAGENT_NOTIFY_FILE }));`,
    },
  );
  await tool(dir, 'fails', {
    description: 'Fails with exit code 2.',
    command: ['sh', '-c', 'echo partial; echo broken >&2; exit 2'],
  });
  await tool(dir, 'crashes', {
    description: 'Crashes before replying.',
    command: ['node', '-e', "console.error('boom'); process.exit(1)"],
    output: 'json',
  });
  await tool(dir, 'slow', { description: 'Sleeps too long.', command: ['sleep', '30'], timeout_seconds: 1 });
  await tool(
    dir,
    'chart',
    {
      description: 'Draw a chart.',
      command: ['node', 'chart.mjs'],
      output: 'json',
      attach_outputs: true,
    },
    {
      'pixel.png': PNG,
      'chart.mjs': `import { copyFileSync, writeFileSync } from 'node:fs'; import { join } from 'node:path';
      const out = process.env.ZAGENT_OUTPUT_DIR;
      copyFileSync(new URL('pixel.png', import.meta.url), join(out, 'chart.png'));
      writeFileSync(join(out, 'sound.wav'), 'RIFF');
      writeFileSync(join(out, 'data.csv'), 'a,b\\n');
      console.log(JSON.stringify({ output: 'drew it', media: [{ path: join(out, 'chart.png'), mime: 'image/png' }, { path: join(process.env.ZAGENT_WORKSPACE, 'secret.png') }] }));`,
    },
  );
  await tool(
    dir,
    'indexer',
    {
      description: 'Index in the background.',
      command: ['node', 'indexer.mjs'],
      background: true,
      timeout_seconds: -1,
    },
    {
      'indexer.mjs': `import { appendFileSync } from 'node:fs'; const f = process.env.SANDPIT_NOTIFY_FILE;
      const wait = (ms) => new Promise((r) => setTimeout(r, ms));
      appendFileSync(f, 'indexing 40% done\\n'); await wait(250);
      appendFileSync(f, JSON.stringify({ text: 'need your decision on X', wake: true }) + '\\n'); await wait(250);
      console.log('indexed 3 files');`,
    },
  );
  await tool(dir, 'asker', {
    description: 'Needs approval.',
    command: ['sh', '-c', 'echo approved-run'],
    permission: 'ask',
  });
  // Broken ones: each is skipped with its exact problem.
  await tool(dir, 'bad_json', '{ "description": "x", ');
  await tool(dir, 'no_description', { command: ['true'] });
  await tool(dir, 'Bad-Name', { description: 'x', command: ['true'] });
  await tool(dir, 'read_file', { description: 'Shadows a built-in.', command: ['cat'] });
  await tool(dir, 'bad_input', { description: 'x', command: ['true'], input: 'stdin' });
  await tool(dir, 'bad_params', { description: 'x', command: ['true'], parameters: { type: 'string' } });
  await tool(dir, 'bad_schema', {
    description: 'x',
    command: ['true'],
    parameters: { type: 'object', properties: { x: { type: 'wat' } } },
  });
  await tool(dir, 'no_manifest', null, { 'run.sh': 'true' });
  await tool(dir, 'other_platform', { description: 'x', command: ['true'], platforms: [other] });
  await tool(dir, 'typo_field', { description: 'x', command: ['true'], timeout: 5 });
  await tool(dir, 'bad_timeout', { description: 'x', command: ['true'], timeout_seconds: -5 });
}

export const GOOD = [
  'asker',
  'chart',
  'crashes',
  'echo_args',
  'env_tool',
  'fails',
  'indexer',
  'places',
  'slow',
  'word_count',
];
