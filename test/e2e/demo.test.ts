import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, previewDemo, repoRoot, type Preview } from '../bundle/web-build.js';

const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];
const shots = join(repoRoot, 'test-results', 'e2e');

let base: string;
let preview: Preview | undefined;
let browser: Browser | undefined;
let page: Page;
const foreignRequests: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-e2e-'));
  buildDemo(join(base, 'web'));
  preview = await previewDemo(join(base, 'web'));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  page = await browser.newPage();
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(preview!.url) && !url.startsWith('data:')) foreignRequests.push(url);
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await mkdir(shots, { recursive: true });
  await page.goto(preview.url);
  // The page marks itself ready once the workspace is seeded and listed; if it never does, say why.
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 }).catch((error: Error) => {
    throw new Error(`${error.message}\npage errors: ${pageErrors.join('\n') || '(none)'}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await preview?.stop();
  if (base) await rm(base, { recursive: true, force: true });
});

async function runTool(tool: string, args: unknown): Promise<Record<string, any>> {
  await page.selectOption('#tool', tool);
  await page.fill('#args', JSON.stringify(args));
  const before = await page.textContent('#envelope');
  await page.click('#run');
  await page.waitForFunction((old) => document.getElementById('envelope')!.textContent !== old, before);
  return JSON.parse((await page.textContent('#envelope'))!);
}

describe('the demo page served by vite preview', () => {
  it('starts with the sample files and a tool picker filled from listTools()', async () => {
    const files = await page.$$eval('#file-list li.file', (items) => items.map((i) => (i as HTMLElement).dataset.path));
    expect(files).toEqual(expect.arrayContaining(['README.md', 'src/greet.ts', 'notes/todo.md']));
    const tools = await page.$$eval('#tool option', (options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(tools).toContain('read_file');
    expect(JSON.parse(await page.inputValue('#args'))).toEqual({ path: 'src/greet.ts' });
  });

  it('runs read_file on a seeded file through the UI and shows the envelope', async () => {
    await page.selectOption('#tool', 'read_file');
    await page.click('#file-list li[data-path="notes/todo.md"]');
    expect(JSON.parse(await page.inputValue('#args'))).toEqual({ path: 'notes/todo.md' });
    await page.click('#run');
    await page.waitForSelector('#summary.ok');
    const envelope = JSON.parse((await page.textContent('#envelope'))!);
    expect(envelope).toMatchObject({ ok: true, tool: 'read_file', result: { path: 'notes/todo.md', eol: 'crlf', total_lines: 3 } });
    expect(envelope.result.content).toContain('- [ ] add a farewell\n');
    await page.screenshot({ path: join(shots, 'read-file.png'), fullPage: true });
  });

  it('shows an error envelope with its code, message and hint', async () => {
    const envelope = await runTool('read_file', { path: '../../etc/passwd' });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'OUTSIDE_WORKSPACE' } });
    expect(await page.textContent('#summary.error .code')).toBe('OUTSIDE_WORKSPACE');
    expect(await page.textContent('#summary .message')).toBe(envelope.error.message);
    expect(await page.textContent('#summary .hint')).toContain(envelope.error.hint);
    const invalid = await runTool('read_file', { path: 'README.md', start_line: 'two' });
    expect(invalid.error.code).toBe('INVALID_ARGUMENTS');
    expect(await page.$$eval('#summary ul li', (items) => items.map((i) => i.textContent))).toContain('/start_line must be integer');
    await page.screenshot({ path: join(shots, 'error.png'), fullPage: true });
  });

  it('refreshes the file list after a call that creates a file', async () => {
    const created = await runTool('write_file', { path: 'docs/hello.md', content: '# hi\n' });
    expect(created.ok).toBe(true);
    await page.waitForSelector('#file-list li[data-path="docs/hello.md"]');
    expect(await page.textContent('#file-list li[data-path="docs/hello.md"] .size')).toBe('5 B');
  });

  it('made no request beyond the local server and logged no errors', () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
