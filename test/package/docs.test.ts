import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distIsCurrent } from '../cli/build-dist.js';
import { repoRoot, run, type Run } from './stage.js';

let out: string;
let result: Run;

// `npm run docs` as CI runs it, into a temporary folder: typedoc.json treats every warning (a
// broken link, a public type that is not exported) as an error, so a broken reference fails here.
// Its type-check of src is the build's, done already when dist/ is current (test/cli/build-dist.ts):
// typedoc skips its own, 60% of its CPU, and a plugin checks the rest (docs/entries/ and the web/
// files the build's declaration step did not check).
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'sandpit-docs-'));
  const checked = distIsCurrent()
    ? ['--skipErrorChecking', '--plugin', './test/package/typedoc-check-unbuilt.mjs']
    : [];
  result = run('npm', ['run', 'docs', '--', '--out', out, ...checked], repoRoot);
});
afterAll(() => rm(out, { recursive: true, force: true }));

describe('the API reference', () => {
  it('builds from the TSDoc of the public entries with no warning', () => {
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\[warning\]|\[error\]/);
  });

  it('has a page per entry, named as the package names it, and documents what each exports', async () => {
    expect((await readdir(join(out, 'modules'))).sort()).toEqual([
      'sandpit-workspace.html',
      'sandpit-workspace_ai-sdk.html',
      'sandpit-workspace_conformance.html',
      'sandpit-workspace_conformance_example.html',
      'sandpit-workspace_conformance_patch-scenarios.html',
      'sandpit-workspace_node.html',
      'sandpit-workspace_openai-agents.html',
      'sandpit-workspace_web.html',
      'sandpit-workspace_web_worker.html',
    ]);
    const page = (rel: string) => readFile(join(out, rel), 'utf8');
    expect(await page('functions/sandpit-workspace_conformance.runConformance.html')).toContain(
      'Register the whole contract suite',
    );
    expect(await page('functions/sandpit-workspace_web.connectWorkspace.html')).toContain(
      'Start a worker that hosts a workspace',
    );
    expect(await page('modules/sandpit-workspace_node.html')).toContain('openNodeWorkspace');
    expect(await page('modules/sandpit-workspace.html')).toContain('createWorkspace');
    expect(await page('modules/sandpit-workspace_web_worker.html')).toContain('hosts one workspace');
    expect(await page('variables/sandpit-workspace_conformance_patch-scenarios.patchScenarios.html')).toContain(
      'patchScenarios',
    );
    expect(await page('functions/sandpit-workspace_conformance_example.createMapFs.html')).toContain(
      'passes the whole conformance suite',
    );
  });

  it('opens on the README and links each declaration to its source', async () => {
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
    const firstHeading = /^## (.+)$/m.exec(readme)![1]!;
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain(firstHeading.replaceAll('&', '&amp;'));
    expect(await readFile(join(out, 'functions/sandpit-workspace.createWorkspace.html'), 'utf8')).toMatch(
      /href="https:\/\/github\.com\/[^"]+\/blob\/main\/src\/create-workspace\.ts#L\d+"/,
    );
  });
});
