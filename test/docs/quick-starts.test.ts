import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer } from '../agent/model-server.js';
import {
  copyInstall,
  installedOncePerRun,
  localInstall as installFor,
  packSandpit,
  repoRoot,
} from '../package/stage.js';
import { functionCall, patchCall, shellCall, startResponsesServer } from '../native/responses-server.js';
import { launchChromium } from '../web/chromium.js';
import { servePage } from '../web/page-server.js';
import { blocksOf, type DocBlock } from './doc-blocks.js';

// The README's quick starts and docs/mcp.md's client configurations, run as written in fresh
// folders against the packed package. Two substitutions, both said where they happen: `npm
// install` gets the tarball for `sandpit-workspace` (and this checkout's vite for `vite`), and a
// client's `npx -y sandpit-workspace` is the bin that install put in node_modules/.bin. The
// framework quick starts run in the Node project as the README says, adding their SDKs to it,
// against a scripted Responses API on 127.0.0.1 (given by OPENAI_BASE_URL, which both SDKs read).

let work: string;
let tarball: string;
const readme = blocksOf('README.md');

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'sandpit-quick-'));
  tarball = (await packSandpit(work)).tarball;
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** A shell line from the docs, with the package names swapped for what this run installs. */
function runShell(line: string, cwd: string): string {
  const r = spawnSync('sh', ['-c', localInstall(line)], { cwd, encoding: 'utf8', env: withoutTestEnv() });
  if (r.status !== 0) throw new Error(`${line}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function localInstall(line: string): string {
  return installFor(line, tarball);
}

function withoutTestEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_ENV;
  delete env.VITEST;
  // No example may reach a real model API: each test names the endpoint it serves.
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  return env;
}

const fileBlock = (name: string): DocBlock => {
  const block = readme.find((b) => b.attrs.file === name);
  if (!block) throw new Error(`the README has no block for ${name}`);
  return block;
};
/** The first shell block under a README heading. */
const shellAfter = (heading: string): string => {
  const at = readmeLines.findIndex((l) => l.startsWith(heading)) + 1;
  const block = readme.find((b) => b.lang === 'sh' && b.line > at);
  if (at === 0 || !block) throw new Error(`no shell block under ${heading}`);
  return block.text.trim();
};
const readmeLines = readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n');

function nodeAsync(file: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [file], { cwd, env: { ...withoutTestEnv(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

function node(file: string, cwd: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [file], { cwd, encoding: 'utf8', env: { ...withoutTestEnv(), ...env } });
}

describe('the README quick starts, in fresh folders with the packed package', () => {
  let project: string;

  beforeAll(async () => {
    project = await installedAs('node-project', shellAfter('### In a Node project'));
  });

  it('makes a CommonJS project, as npm init -y does, where the .mjs example runs as written', async () => {
    // npm 10 leaves `type` out, npm 11 writes "commonjs": either way `import` in a .js file would fail.
    expect([undefined, 'commonjs']).toContain(JSON.parse(await readFile(join(project, 'package.json'), 'utf8')).type);
    await writeFile(join(project, 'hello.mjs'), fileBlock('hello.mjs').text);
    const r = node('hello.mjs', project);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("tool: 'edit_file'");
    expect(r.stdout).toContain('-- try sandpit');
    expect(r.stdout).toContain('+- tried sandpit');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('NOT_FOUND');
    expect(await readFile(join(project, 'notes.md'), 'utf8')).toBe('# Notes\n- tried sandpit\n');
  });

  it('runs the CommonJS form in the same project', async () => {
    await writeFile(join(project, 'hello.cjs'), fileBlock('hello.cjs').text);
    const r = node('hello.cjs', project);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^true [1-9]\d*$/);
  });

  it('leaves node_modules out of the first snapshot of that project', async () => {
    const log = spawnSync('git', ['--git-dir=.sandpit/git', 'ls-tree', '-r', '--name-only', 'HEAD'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(log.status, log.stderr).toBe(0);
    expect(log.stdout.split('\n').filter((p) => p.startsWith('node_modules/'))).toEqual([]);
    expect(log.stdout).toContain('notes.md');
  });

  it('runs the agent loop against a model on 127.0.0.1', async () => {
    const model = await startModelServer({
      'quick-start': [
        { calls: [{ name: 'write_file', args: { path: 'todo.md', content: '- one\n- two\n- three\n' } }] },
        { text: 'Wrote todo.md.' },
      ],
    });
    try {
      await writeFile(join(project, 'agent.mjs'), fileBlock('agent.mjs').text);
      // Not spawnSync: the model server answers from this process, so its event loop must keep running.
      const r = await nodeAsync('agent.mjs', project, { MODEL_URL: `${model.url}/v1`, MODEL: 'quick-start' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('> write_file {"path":"todo.md"');
      expect(r.stdout).toContain('Wrote todo.md.');
      expect(r.stdout).toContain('answered in 2 steps');
      expect(await readFile(join(project, 'todo.md'), 'utf8')).toBe('- one\n- two\n- three\n');
    } finally {
      await model.stop();
    }
    // With no model there, it says so in one line instead of printing token counts.
    const down = node('agent.mjs', project, { MODEL_URL: 'http://127.0.0.1:9/v1' });
    expect(down.status).toBe(0);
    expect(down.stderr).toMatch(/^\nUNREACHABLE: /);
  });

  it('runs the AI SDK quick start in that project, its tools on the workspace', async () => {
    runShell(shellAfter('### With the Vercel AI SDK'), project);
    await writeFile(join(project, 'ai-sdk.mjs'), fileBlock('ai-sdk.mjs').text);
    const server = await startResponsesServer([
      { items: [functionCall('c1', 'write_file', { path: '.gitignore', content: 'node_modules/\n.sandpit/\n' })] },
      { text: 'Added .gitignore.' },
    ]);
    try {
      const r = await nodeAsync('ai-sdk.mjs', project, { OPENAI_API_KEY: 'sk-scripted', OPENAI_BASE_URL: server.url });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('Added .gitignore. (2 steps)');
      // Sandpit's tools went to the API as function tools, and the call's result came back as its output.
      const [first, second] = server.bodies as Array<Record<string, any>>;
      expect(first!.tools.map((t: { name: string }) => t.name)).toEqual(
        expect.arrayContaining(['read_file', 'edit_file', 'apply_patch', 'run_command']),
      );
      const output = second!.input.find((i: { type: string }) => i.type === 'function_call_output');
      expect(output).toMatchObject({ call_id: 'c1' });
      expect(JSON.stringify(output)).toContain('change_id');
      expect(await readFile(join(project, '.gitignore'), 'utf8')).toBe('node_modules/\n.sandpit/\n');
    } finally {
      await server.stop();
    }
    // With no key, the SDK says so before sending anything.
    const bare = node('ai-sdk.mjs', project);
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain('OpenAI API key is missing');
  });

  it("runs the Agents SDK quick start in that project, apply_patch and shell on the workspace's openai toolset", async () => {
    runShell(shellAfter('### With the OpenAI Agents SDK'), project);
    await writeFile(join(project, 'agents.mjs'), fileBlock('agents.mjs').text);
    const server = await startResponsesServer([
      { items: [patchCall('p1', { type: 'create_file', path: 'src/index.js', diff: '+console.log("hello");\n' })] },
      { items: [shellCall('s1', ['node src/index.js'])] },
      { text: 'src/index.js prints hello.' },
    ]);
    try {
      const r = await nodeAsync('agents.mjs', project, {
        OPENAI_API_KEY: 'sk-scripted',
        OPENAI_BASE_URL: server.url,
        // The SDK would export traces to OpenAI's servers; its own switch keeps them here.
        OPENAI_AGENTS_DISABLE_TRACING: '1',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('src/index.js prints hello.');
      const [first, second, third] = server.bodies as Array<Record<string, any>>;
      expect(first!.tools.map((t: { type: string }) => t.type).sort()).toEqual(['apply_patch', 'shell']);
      expect(second!.input.find((i: { type: string }) => i.type === 'apply_patch_call_output')).toMatchObject({
        call_id: 'p1',
        status: 'completed',
      });
      const ran = third!.input.find((i: { type: string }) => i.type === 'shell_call_output');
      expect(ran).toMatchObject({
        call_id: 's1',
        output: [{ stdout: 'hello\n', outcome: { type: 'exit', exit_code: 0 } }],
      });
      expect(await readFile(join(project, 'src', 'index.js'), 'utf8')).toBe('console.log("hello");\n');
    } finally {
      await server.stop();
    }
    const bare = node('agents.mjs', project, { OPENAI_AGENTS_DISABLE_TRACING: '1' });
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain('OPENAI_API_KEY');
  });

  it('builds the browser app with Vite and it runs in Chromium', async () => {
    const line = shellAfter('### In a browser app').replace(/^mkdir my-app && cd my-app && /, '');
    const app = await installedAs('browser-app', line);
    // `npm install vite` is this checkout's vite, linked (the run has no registry access for it).
    if (!existsSync(join(app, 'node_modules', 'vite')))
      await symlink(join(repoRoot, 'node_modules', 'vite'), join(app, 'node_modules', 'vite'), 'dir');
    await writeFile(join(app, 'index.html'), fileBlock('index.html').text);
    await writeFile(join(app, 'main.js'), fileBlock('main.js').text);
    await writeFile(join(app, 'vite.config.js'), fileBlock('vite.config.js').text);
    const build = spawnSync(
      process.execPath,
      [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
      {
        cwd: app,
        encoding: 'utf8',
        env: withoutTestEnv(),
      },
    );
    expect(build.status, build.stderr).toBe(0);
    // The configuration's point: the worker is split, its OPFS adapter and the shell chunks of their own.
    const assets = await readdir(join(app, 'dist', 'assets'));
    expect(
      assets.filter((name) => /^(opfs|run|clone)-[\w-]+\.js$/.test(name)).length,
      assets.join(' '),
    ).toBeGreaterThanOrEqual(3);
    const server = await servePage(join(app, 'dist'));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'loading', null, {
        timeout: 60_000,
      });
      const edit = JSON.parse((await page.textContent('#out'))!);
      expect(edit).toMatchObject({ ok: true, tool: 'edit_file', result: { path: 'src/app.js', replacements: 1 } });
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});

describe("docs/mcp.md's client configurations, launched as each client launches them", () => {
  const configs = [...blocksOf('docs/mcp.md'), ...readme].filter((b) => b.attrs.client !== undefined);

  it('has one for each client', () => {
    expect(configs.map((b) => b.attrs.client).sort()).toEqual([
      'claude-code',
      'claude-desktop',
      'claude-desktop',
      'cursor',
      'vscode',
    ]);
  });

  it.each(configs.map((b) => [`${b.file}:${b.line} (${b.attrs.client})`, b] as const))(
    '%s starts, lists tools and answers a call from / with only PATH and HOME',
    async (_name, block) => {
      const config = JSON.parse(block.text);
      const servers = block.attrs.client === 'vscode' ? config.servers : config.mcpServers;
      expect(Object.keys(config)).toEqual([block.attrs.client === 'vscode' ? 'servers' : 'mcpServers']);
      const entry = servers.sandpit as { command: string; args: string[]; type?: string };
      expect(entry.type ?? 'stdio').toBe('stdio');
      expect(entry.command).toBe('npx');
      expect(entry.args.slice(0, 2)).toEqual(['-y', 'sandpit-workspace']);
      // Clients differ in where the entry sits, not in what it launches: each distinct command line
      // is launched once, and a block naming the same one is the same launch.
      const launch = JSON.stringify([entry.command, entry.args]);
      let run = launched.get(launch);
      if (!run) {
        run = launchAsClient(entry.args, block.attrs.client!);
        launched.set(launch, run);
      }
      await run;
    },
  );
});

const launched = new Map<string, Promise<void>>();
/** Launch the server as a client would (from /, with only PATH and HOME), list tools, read and write. */
async function launchAsClient(entryArgs: string[], clientName: string): Promise<void> {
  const project = await mkdtemp(join(work, 'mcp-project-'));
  await writeFile(join(project, 'hello.txt'), 'hello\n');
  const consumer = await installedConsumer();
  // `npx -y sandpit-workspace` resolves to the package's bin; here it is the installed tarball's.
  const args = entryArgs.slice(2).map((a) => (a === '/absolute/path/to/project' ? project : a));
  const home = await mkdtemp(join(work, 'home-'));
  const client = new Client({ name: `${clientName}-like`, version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: join(consumer, 'node_modules', '.bin', 'sandpit-workspace'),
      args,
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    }),
  );
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['read_file', 'edit_file', 'apply_patch']),
    );
    const read = (await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } })) as any;
    expect(read.structuredContent).toMatchObject({ path: 'hello.txt', content: 'hello\n' });
    const wrote = (await client.callTool({
      name: 'write_file',
      arguments: { path: 'from-client.txt', content: 'written\n' },
    })) as any;
    expect(wrote.isError).toBeFalsy();
    expect(await readFile(join(project, 'from-client.txt'), 'utf8')).toBe('written\n');
  } finally {
    await client.close();
  }
}

/**
 * The folder the README's Node install line left, for the client configurations: they only launch the
 * bin it put in node_modules/.bin, from / on a project of their own, and change nothing in it, so
 * they share the run's install instead of each making a copy.
 */
function installedConsumer(): Promise<string> {
  return installedOncePerRun(work, localInstall('npm init -y && npm install sandpit-workspace'));
}

/**
 * A fresh folder in the state `line` leaves it in. The README's install lines come out the same
 * once `vite` is this checkout's: npm runs each distinct line once per run, in a fresh folder
 * (test/package/stage.ts, shared with the package tests' consumers, which install with the Node
 * quick start's line), and each project gets a copy of that folder whose files are hard links
 * (`copyInstall`: npm's own records are real copies, as the AI SDK installs rewrite them).
 */
async function installedAs(name: string, line: string): Promise<string> {
  const dir = join(work, name);
  copyInstall(await installedOncePerRun(work, localInstall(line)), dir);
  return dir;
}
