import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../agent/model-server.js';
import { runAgentTask } from './agent-steps.js';
import { startPlayground, type Playground } from './playground.js';
import { callTool } from './preview-steps.js';

/**
 * Issue 35's playground flow on one page: fork the workspace twice, run the Agent tab (the
 * scripted model server) in each fork, compare their diffs side by side, merge one cleanly (one
 * change in Review), meet the other's conflict (paths and regions shown, nothing changed), drop it.
 */
const KEY = 'sk-e2e-forks';
let pg: Playground;
let model: ModelServer;
beforeAll(async () => {
  const writes = (content: string, extra: Record<string, string> = {}) => [
    {
      calls: Object.entries({ 'greet.txt': content, ...extra }).map(([path, text]) => ({
        name: 'write_file',
        args: { path, content: text },
      })),
    },
    { text: 'Done.' },
  ];
  model = await startModelServer(
    {
      'fork-morning': writes('good morning\nworld\n'),
      'fork-evening': writes('good evening\nworld\n', { 'extra.txt': 'only in the evening fork\n' }),
    },
    { apiKey: KEY },
  );
  pg = await startPlayground({ storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
  await model?.stop();
});

const page = () => pg.page;
const readText = async (path: string) => {
  const read = await callTool(page(), 'read_file', { path });
  return read.ok ? (read.result.content as string) : (read.error.code as string);
};
const status = () => page().textContent('#status');
async function makeFork(name: string): Promise<void> {
  await page().click('#tab-forks');
  await page().fill('#fork-name', name);
  await page().click('#fork-make');
  await page().waitForSelector(`#fork-list li[data-fork="${name}"]`);
}
async function workIn(name: string): Promise<void> {
  await page().click('#tab-forks');
  await page().click(`#fork-list li[data-fork="${name}"] button[data-act="use"]`);
  await page().waitForFunction((n) => document.getElementById('status')!.textContent!.includes(`fork ${n}`), name);
}
async function backToWorkspace(): Promise<void> {
  await page().click('#tab-forks');
  await page().click('#fork-parent');
  await page().waitForFunction(() => !document.getElementById('status')!.textContent!.includes('fork '));
}
const agent = (model: string) => ({ api: 'openai' as const, endpoint: `${modelUrl()}/v1`, key: KEY, model });
const modelUrl = () => model.url;

describe('forks in the playground', () => {
  it('two forks, an agent run in each; the workspace itself stays as it was', async () => {
    expect((await callTool(page(), 'write_file', { path: 'greet.txt', content: 'hello\nworld\n' })).ok).toBe(true);
    await makeFork('morning');
    await makeFork('evening');

    await workIn('morning');
    expect(await runAgentTask(page(), agent('fork-morning'), 'Say good morning.')).toBe('answered');
    await workIn('evening');
    expect(await runAgentTask(page(), agent('fork-evening'), 'Say good evening.')).toBe('answered');
    expect(await readText('greet.txt')).toBe('good evening\nworld\n');
    // The workspace itself is as it was: the forks' runs stayed in the forks.
    await backToWorkspace();
    expect(await readText('greet.txt')).toBe('hello\nworld\n');
    expect(await readText('extra.txt')).toBe('NOT_FOUND');
  });

  it('compares the two forks side by side, each against its fork point', async () => {
    await page().click('#tab-forks');
    await page().click('#fork-compare');
    await page().waitForSelector('#fork-compare-view section[data-fork="evening"]');
    const columns = await page().$$eval('#fork-compare-view section', (sections) =>
      sections.map((s) => ({ fork: (s as HTMLElement).dataset.fork, diff: s.querySelector('pre')!.textContent! })),
    );
    expect(columns.map((c) => c.fork)).toEqual(['morning', 'evening']);
    expect(columns[0]!.diff).toContain('+good morning');
    expect(columns[0]!.diff).not.toContain('extra.txt');
    expect(columns[1]!.diff).toContain('+good evening');
    expect(columns[1]!.diff).toContain('+only in the evening fork');
  });

  it('merges one cleanly as one change in Review', async () => {
    // Merge one: one change in Review, the file is the fork's.
    const changesBefore = Number(await page().textContent('#timeline-count'));
    await page().click('#fork-list li[data-fork="morning"] button[data-act="merge"]');
    await page().waitForSelector('#fork-merge.ok');
    await page().waitForFunction(
      (n) => Number(document.getElementById('timeline-count')!.textContent) === n + 1,
      changesBefore,
    );
    expect(await readText('greet.txt')).toBe('good morning\nworld\n');
  });

  it("shows the other's conflict with its path and region, and changes nothing", async () => {
    const changesBefore = Number(await page().textContent('#timeline-count')) - 1;
    // The other changed the same line: the conflict names the path and its region, and nothing changes.
    await page().click('#tab-forks');
    await page().click('#fork-list li[data-fork="evening"] button[data-act="merge"]');
    await page().waitForSelector('#fork-merge.error');
    expect(await page().textContent('#fork-merge .code')).toBe('PATCH_CONFLICT');
    const conflict = (await page().textContent('#fork-merge li[data-path="greet.txt"]'))!;
    expect(conflict).toContain('good morning');
    expect(conflict).toContain('good evening');
    expect(await page().$('#fork-merge li[data-path="extra.txt"]')).toBeNull();
    expect(await readText('greet.txt')).toBe('good morning\nworld\n');
    expect(await readText('extra.txt')).toBe('NOT_FOUND');
    expect(Number(await page().textContent('#timeline-count'))).toBe(changesBefore + 1);
  });

  it('drops a fork: it leaves the list', async () => {
    // Drop it: it leaves the list.
    await page().click('#tab-forks');
    page().once('dialog', (dialog) => void dialog.accept());
    await page().click('#fork-list li[data-fork="evening"] button[data-act="drop"]');
    await page().waitForSelector('#fork-list li[data-fork="evening"]', { state: 'detached' });
    expect(await page().$$eval('#fork-list li', (items) => items.map((i) => (i as HTMLElement).dataset.fork))).toEqual([
      'morning',
    ]);
    expect(await status()).not.toContain('fork ');
  });
});
