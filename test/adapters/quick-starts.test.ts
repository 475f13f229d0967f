import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, repoRoot } from '../cli/built-cli.js';

// The quick starts in docs/adapters.md, run as written against the built package,
// with only the model swapped for a scripted one (no network, no key): the AI SDK's own mock
// model for '@ai-sdk/openai', a scripted Model for the Agents SDK's 'gpt-5.1'.
const DOC = 'docs/adapters.md';
const blocks = [...readFileSync(join(repoRoot, DOC), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
let dir: string;

beforeAll(async () => {
  await buildCli();
  // Inside the checkout, so `sandpit-workspace` resolves to dist/ by the package's own name.
  dir = join(repoRoot, 'test-results', `adapter-quick-starts-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'scripted-ai.mjs'),
    `import { MockLanguageModelV4 } from 'ai/test';
const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
const turns = [
  [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: JSON.stringify({ path: 'src/app.ts' }) }],
  [{ type: 'tool-call', toolCallId: 'c2', toolName: 'edit_file', input: JSON.stringify({ path: 'src/app.ts', old_text: '3000', new_text: '8080' }) }],
  [{ type: 'text', text: 'The port is 8080.' }],
];
let step = 0;
export const openai = () => new MockLanguageModelV4({
  doGenerate: async () => {
    const content = turns[step++];
    const calls = content[0].type === 'tool-call';
    return { content, finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
  },
});
`,
  );
  writeFileSync(
    join(dir, 'scripted-agents.mjs'),
    `import { Usage, setTracingDisabled } from '@openai/agents';
setTracingDisabled(true);
const turns = [
  [{ type: 'apply_patch_call', callId: 'p1', status: 'completed', operation: { type: 'update_file', path: 'src/app.ts', diff: '@@\\n-export const port = 3000;\\n+export const port = 8080;\\n' } }],
  [{ type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['cat src/app.ts'] } }],
  [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done: port 8080.' }] }],
];
let step = 0;
export const model = {
  async getResponse() { return { usage: new Usage(), output: turns[step++] }; },
  async *getStreamedResponse() { throw new Error('no streaming'); },
};
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runBlock(name: string, code: string, replace: Array<[string, string]>): Promise<string> {
  for (const [from, to] of replace) {
    expect(code, `${DOC} still holds ${from}`).toContain(from);
    code = code.replaceAll(from, to);
  }
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, js);
  const r = await new Promise<{ status: number | null; out: string }>((done) => {
    const child = spawn(process.execPath, [file], { cwd: dir });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => done({ status, out }));
  });
  expect(r.status, r.out).toBe(0);
  return r.out;
}

describe(`the quick starts of ${DOC}`, () => {
  it('has the two blocks', () => expect(blocks).toHaveLength(2));

  it('the AI SDK quick start edits the file through sandpitTools', async () => {
    const out = await runBlock('ai-sdk', blocks[0]!, [["from '@ai-sdk/openai'", "from './scripted-ai.mjs'"]]);
    expect(out).toContain('The port is 8080. (3 steps)');
    expect(out).toContain('export const port = 8080;');
  });

  it('the Agents SDK quick start patches through sandpitEditor and runs sandpitShell', async () => {
    const out = await runBlock('openai-agents', blocks[1]!, [
      ["model: 'gpt-5.1'", 'model: (await import("./scripted-agents.mjs")).model'],
    ]);
    expect(out).toContain('Done: port 8080.');
    expect(out).toContain('export const port = 8080;');
  });
});
