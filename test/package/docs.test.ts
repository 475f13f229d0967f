import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, run, type Run } from './stage.js';

let out: string;
let result: Run;

// `npm run docs` as CI runs it, into a temporary folder: typedoc.json treats every warning (a
// broken link, a public type that is not exported) as an error, so a broken reference fails here.
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'sandpit-docs-'));
  result = run('npm', ['run', 'docs', '--', '--out', out], repoRoot);
}, 120_000);
afterAll(() => rm(out, { recursive: true, force: true }));

describe('the API reference', () => {
  it('builds from the TSDoc of the public entries with no warning', () => {
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\[warning\]|\[error\]/);
  });

  it('has a page per entry and documents what each exports', async () => {
    expect((await readdir(join(out, 'modules'))).sort()).toEqual([
      'sandpit.html', 'sandpit_conformance.html', 'sandpit_node.html', 'sandpit_web.html',
    ]);
    const page = (rel: string) => readFile(join(out, rel), 'utf8');
    expect(await page('functions/sandpit_conformance.runConformance.html')).toContain('Register the whole contract suite');
    expect(await page('functions/sandpit_web.connectWorkspace.html')).toContain('Start a worker that hosts a workspace');
    expect(await page('modules/sandpit_node.html')).toContain('openNodeWorkspace');
    expect(await page('modules/sandpit.html')).toContain('createWorkspace');
  });
});
