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
  expect(report.text).toContain(
    "read_file: SKIPPED\n  - name 'read_file' is already taken by a built-in tool or another manifest\n",
  );
  expect(report.text).toContain('no_manifest: SKIPPED\n  - no manifest: expected no_manifest/no_manifest.json\n');
  expect(lines).toContain(
    `other_platform: NOT FOR THIS PLATFORM (only for ${process.platform === 'win32' ? 'linux' : 'windows'}; this machine is ${process.platform === 'win32' ? 'windows' : process.platform})`,
  );
  expect(report.text.trimEnd().endsWith('10 of 21 tools load, 1 not for this platform, 10 broken')).toBe(true);
  expect(report.text).not.toContain(base);
});

it('is healthy when the only tool left out is one for another platform', async () => {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const dir = join(base, 'platform-only', 'elsewhere');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'elsewhere.json'),
    JSON.stringify({
      description: 'x',
      command: ['true'],
      platforms: [process.platform === 'win32' ? 'linux' : 'windows'],
    }),
  );
  const report = doctorReport(join(base, 'platform-only'), BUILTIN_TOOL_NAMES);
  expect(report.healthy).toBe(true);
  expect(report.text).toMatch(
    /^elsewhere: NOT FOR THIS PLATFORM \(only for \w+; this machine is \w+\)\n0 of 1 tools load, 1 not for this platform\n$/,
  );
});

it('says so when the folder is missing', () => {
  expect(doctorReport(join(base, 'nowhere'))).toMatchObject({
    healthy: false,
    text: 'tools: the tools folder does not exist\n',
  });
});
