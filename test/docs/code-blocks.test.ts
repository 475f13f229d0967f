import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer } from '../agent/model-server.js';
import { buildCli, cliPath } from '../cli/built-cli.js';
import { createRepo, filesOnBranch, startGitServer } from '../git/git-server.js';
import { allDocBlocks, repoRoot, type DocBlock } from './doc-blocks.js';

// Every code block in the README and docs/*.md is run here, by quick-starts.test.ts (the
// README's `file=` blocks and its install lines, the framework quick starts' added installs, and every `client=` MCP configuration), or by
// test/adapters/quick-starts.test.ts (docs/adapters.md, with a scripted model). A few
// cannot run in a test; they are named below with the reason, and a new block fails this file
// until it is run or named.

const blocks = allDocBlocks();
const where = (b: DocBlock) => `${b.file}:${b.line}`;
const byQuickStarts = (b: DocBlock) =>
  b.attrs.file !== undefined ||
  b.attrs.client !== undefined ||
  /^(npm init -y|mkdir my-app)/.test(b.text) ||
  (b.file === 'README.md' && /^npm install /.test(b.text)) ||
  b.file === 'docs/adapters.md';

/** Blocks no test runs, each with why; the list is checked to be exact. */
const NOT_RUN: Record<string, string> = {
  'docs/browser.md':
    'a page of its own (querySelector on its <pre>); the README quick start runs the same calls in Chromium',
  'docs/backends.md':
    'a vitest file with your own createMyFs; test/conformance/map-fs.test.ts runs it with createMapFs',
};

let scratch: string;
// Node runs the examples from inside this checkout, so `sandpit-workspace` resolves to dist/ by the package's own name.
let examples: string;
beforeAll(async () => {
  await buildCli();
  scratch = mkdtempSync(join(tmpdir(), 'sandpit-doc-blocks-'));
  examples = join(repoRoot, 'test-results', `doc-blocks-${process.pid}`);
  mkdirSync(examples, { recursive: true });
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(examples, { recursive: true, force: true });
});

/** Run a TypeScript or JavaScript block as an ES module in Node, in `cwd`. */
async function runModule(
  block: DocBlock,
  cwd: string,
  replace: Array<[string, string]> = [],
  env: Record<string, string> = {},
) {
  let text = block.text;
  for (const [from, to] of replace) {
    expect(text, `${where(block)} still holds ${from}`).toContain(from);
    text = text.replaceAll(from, to);
  }
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(examples, `${block.file.replace(/\W/g, '-')}-${block.line}.mjs`);
  writeFileSync(file, js);
  const env2 = { ...process.env, ...env };
  delete env2.NODE_ENV;
  // Not spawnSync: the model and git servers answer from this process, so its event loop must keep running.
  const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [file], { cwd, env: env2 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
  expect(r.status, `${where(block)}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

const only = (file: string, lang: string): DocBlock => {
  const found = blocks.filter((b) => b.file === file && b.lang === lang);
  expect(found, `${file} ${lang} blocks`).toHaveLength(1);
  return found[0]!;
};

describe('every code block in the README and docs/', () => {
  it('is run by a test, or named with the reason it cannot be', () => {
    const known = new Set(['json', 'sh', 'ts', 'js', 'html']);
    for (const b of blocks) expect(known.has(b.lang), `${where(b)} has language '${b.lang}'`).toBe(true);
    const unrun = blocks.filter((b) => NOT_RUN[b.file] !== undefined).map((b) => b.file);
    expect(unrun.sort()).toEqual(Object.keys(NOT_RUN).sort());
    // What the tests below run, one entry per block: a block added anywhere else fails here.
    const here = blocks
      .filter((b) => !byQuickStarts(b) && NOT_RUN[b.file] === undefined)
      .map((b) => `${b.file} ${b.lang}`)
      .sort();
    expect(here).toEqual([
      'README.md sh',
      'docs/agent.md ts',
      'docs/cli.md sh',
      'docs/development.md sh',
      'docs/git.md ts',
      'docs/node.md ts',
      'docs/tools.md json',
      'docs/tools.md ts',
      'docs/toolsets.md ts',
    ]);
  });

  it('JSON blocks parse (a block of one object per line, line by line)', () => {
    const json = blocks.filter((b) => b.lang === 'json' && !byQuickStarts(b));
    expect(json.length).toBeGreaterThan(0);
    for (const b of json) {
      try {
        JSON.parse(b.text);
      } catch {
        for (const line of b.text.split('\n').filter((l) => l.trim()))
          expect(() => JSON.parse(line), where(b)).not.toThrow();
      }
    }
  });

  it("the development commands name this checkout's npm scripts", () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    const dev = blocks.filter((b) => b.lang === 'sh' && b.text.startsWith('npm ci && npm start'));
    expect(dev.map((b) => b.file).sort()).toEqual(['README.md', 'docs/development.md']);
    for (const b of dev)
      for (const [, script] of b.text.matchAll(/npm (?:run )?(start|test|[\w:-]+)(?=\s)/g))
        if (script !== 'ci') expect(pkg.scripts[script!], `${where(b)}: npm ${script}`).toBeTypeOf('string');
    // The README opens on them.
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n').slice(0, 6).join('\n')).toBe(
      `# Sandpit\n\n\`\`\`sh\n${dev[0]!.text}\`\`\``,
    );
  });

  it('docs/node.md runs on a folder with src/index.ts', async () => {
    const cwd = mkdtempSync(join(scratch, 'node-'));
    mkdirSync(join(cwd, 'my-project', 'src'), { recursive: true });
    writeFileSync(join(cwd, 'my-project', 'src', 'index.ts'), 'const port = 3000;\n// TODO: config\n');
    const out = await runModule(only('docs/node.md', 'ts'), cwd);
    expect(out).toContain('+const port = Number(process.env.PORT ?? 3000);');
    expect(out).toContain('"path": "src/index.ts"');
  });

  it('docs/tools.md and docs/toolsets.md run as written', async () => {
    await runModule(only('docs/tools.md', 'ts'), scratch);
    const out = await runModule(only('docs/toolsets.md', 'ts'), scratch);
    expect(out).toContain("tool: 'file_manager'");
  });

  it('docs/agent.md runs against a model on 127.0.0.1', async () => {
    const model = await startModelServer({
      'qwen2.5-coder': [
        { calls: [{ name: 'read_file', args: { path: 'test.js' } }] },
        { text: 'The test passes now.' },
      ],
    });
    try {
      const cwd = mkdtempSync(join(scratch, 'agent-'));
      mkdirSync(join(cwd, 'my-project'));
      writeFileSync(join(cwd, 'my-project', 'test.js'), 'ok\n');
      const out = await runModule(only('docs/agent.md', 'ts'), cwd, [['http://127.0.0.1:11434/v1', `${model.url}/v1`]]);
      expect(out).toContain('The test passes now.');
      expect(out).toMatch(/answered \{ input_tokens/);
    } finally {
      await model.stop();
    }
  });

  it('docs/git.md clones, edits and pushes against a git server on 127.0.0.1', async () => {
    const server = await startGitServer();
    try {
      createRepo(server, 'repo', { 'src/app.ts': 'export const port = 3000;\n' });
      await runModule(
        only('docs/git.md', 'ts'),
        scratch,
        [['https://github.com/owner/repo.git', `${server.url}/repo.git`]],
        {
          GIT_TOKEN: server.token,
        },
      );
      expect(filesOnBranch(server, 'repo', 'agent/port')['src/app.ts']).toBe('export const port = 8080;\n');
    } finally {
      await server.close();
    }
  });

  it('docs/cli.md: each command runs (the built CLI for npx sandpit-workspace) but the two that need the network or never end', () => {
    const b = only('docs/cli.md', 'sh');
    const cwd = mkdtempSync(join(scratch, 'cli-'));
    writeFileSync(join(cwd, 'README.md'), '# hi\n');
    mkdirSync(join(cwd, 'fixture'));
    mkdirSync(join(cwd, 'tools'));
    writeFileSync(join(cwd, 'calls.jsonl'), '{"tool":"write_file","args":{"path":"a.txt","content":"a\\n"}}\n');
    const skipped: string[] = [];
    for (const raw of b.text.split('\n').filter((l) => l.trim())) {
      const line = raw.replace(/\s+#.*$/, '');
      if (/github\.com|--http /.test(line)) {
        skipped.push(line.split(' ').slice(1, 3).join(' '));
        continue;
      }
      const shell = line.replaceAll(
        'npx sandpit-workspace',
        `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)}`,
      );
      const r = spawnSync('sh', ['-c', `${shell} < /dev/null`], { cwd, encoding: 'utf8', timeout: 60_000 });
      // The agent line has no model at that address: exit 1 is its answer, said in one line.
      const want = line.includes(' agent ') ? 1 : 0;
      expect(r.status, `${line}\n${r.stdout}\n${r.stderr}`).toBe(want);
    }
    expect(skipped).toEqual(['sandpit-workspace mcp', 'sandpit-workspace clone']);
  });
});
