import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, runCli, runMain } from './built-cli.js';

let base: string;
let root: string;
let file: string;

beforeAll(async () => {
  await buildCli();
  base = await mkdtemp(join(tmpdir(), 'sandpit-cli-usage-'));
  root = join(base, 'root');
  await mkdir(root);
  file = join(base, 'plain.txt');
  await writeFile(file, 'not a folder\n');
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('unusable command lines exit 2 with a usage message on stderr', () => {
  const cases: Array<[string, () => string[], RegExp]> = [
    ['no command', () => [], /no command given/],
    ['an unknown command', () => ['frobnicate'], /unknown command 'frobnicate'/],
    ['an unknown option', () => ['call', 'read_file', '--root', root, '--verbose'], /unknown option '--verbose'/],
    ['an option without its value', () => ['call', 'read_file', '--root'], /--root needs a value/],
    ['call without a root', () => ['call', 'read_file', '{"path": "a"}'], /call needs --root DIR/],
    ['call without a tool', () => ['call', '--root', root], /call takes TOOL/],
    [
      'call with a root that does not exist',
      () => ['call', 'read_file', '{}', '--root', join(base, 'missing')],
      /--root does not exist/,
    ],
    ['call with a root that is a file', () => ['call', 'read_file', '{}', '--root', file], /--root must name a folder/],
    ['replay without a file', () => ['replay', '--root', root], /replay takes one FILE/],
    ['replay with an unknown backend', () => ['replay', file, '--backend', 'opfs'], /unknown backend 'opfs'/],
    ['replay on node without a root', () => ['replay', file, '--backend', 'node'], /node backend needs --root/],
    [
      'replay on memory with --root',
      () => ['replay', file, '--backend', 'memory', '--root', root],
      /--root is a real folder/,
    ],
    [
      'replay from a folder that does not exist',
      () => ['replay', file, '--from', join(base, 'nope')],
      /--from does not exist/,
    ],
    [
      'replay of a file that does not exist',
      () => ['replay', join(base, 'nope.jsonl')],
      /transcript file does not exist/,
    ],
    ['replay of a folder', () => ['replay', root], /transcript must be a file/],
    ['replay with --pretty', () => ['replay', file, '--pretty'], /--pretty/],
  ];

  // Through main in this process: what a usage error answers; the exit status through a real process
  // is the last test's.
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const run = await runMain(args());
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toMatch(/^usage: sandpit call TOOL/m);
      // The message may be read by a model driving the CLI, so it names options, not folders.
      expect(run.stderr).not.toContain(base);
    });
  }

  it('still exits 0 on a transcript whose every line fails', async () => {
    const run = await runMain(['replay', file]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });

  it('exits 2 from the bin itself, with the usage on stderr and nothing on stdout', async () => {
    const run = await runCli(['call', 'read_file', '--root', root, '--verbose'], {
      input: '{"tool": "read_file", "args": {"path": "a"}}\n',
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/unknown option '--verbose'/);
    expect(run.stderr).toMatch(/^usage: sandpit call TOOL/m);
  });
});
