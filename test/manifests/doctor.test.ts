import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES, doctorReport } from '../../src/node/index.js';
import { writeToolsFolder } from './fixtures.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-doctor-'));
  await writeToolsFolder(join(base, 'tools'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

it('lists every manifest with OK or its exact problem', () => {
  const report = doctorReport(join(base, 'tools'), BUILTIN_TOOL_NAMES);
  expect(report.healthy).toBe(false);
  const lines = report.text.split('\n');
  expect(lines).toContain('word_count: OK');
  expect(lines).toContain('chart: OK');
  expect(report.text).toContain('bad_input: SKIPPED\n  - input must be one of: "stdin_json", "args_json", "env"\n');
  expect(report.text).toContain("read_file: SKIPPED\n  - name 'read_file' is already taken by a built-in tool or another manifest\n");
  expect(report.text).toContain('no_manifest: SKIPPED\n  - no manifest: expected no_manifest/no_manifest.json\n');
  expect(report.text.trimEnd().endsWith('10 of 21 tools load')).toBe(true);
  expect(report.text).not.toContain(base);
});

it('says so when the folder is missing', () => {
  expect(doctorReport(join(base, 'nowhere'))).toMatchObject({ healthy: false, text: 'tools: the tools folder does not exist\n' });
});
