import { mkdtemp, mkdir, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, envelopes, runCli, type CliRun } from './built-cli.js';

let base: string;

function expectNoHostPath(run: CliRun): void {
  expect(run.stdout).not.toContain(base);
  expect(run.stderr).not.toContain(base);
}

const line = (tool: string, args: unknown) => JSON.stringify({ tool, args });

/** Every entry below `dir` with its bytes (files) or link target, to compare before and after. */
async function snapshotTree(dir: string, rel = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const key = `${rel}${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, { [`${key}/`]: 'dir' }, await snapshotTree(path, `${key}/`));
    else if (entry.isSymbolicLink()) out[key] = 'link';
    else out[key] = `${(await stat(path)).mtimeMs}:${(await readFile(path)).toString('base64')}`;
  }
  return out;
}

beforeAll(async () => {
  await buildCli();
  base = await mkdtemp(join(tmpdir(), 'sandpit-cli-replay-'));
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('sandpit replay', () => {
  it('replays a file on a real folder in order, one envelope per non-blank line', async () => {
    const root = join(base, 'node-root');
    await mkdir(root);
    await writeFile(join(root, 'hello.txt'), 'hello\n');
    const transcript = join(base, 'steps.jsonl');
    await writeFile(
      transcript,
      [
        line('read_file', { path: 'hello.txt' }),
        '',
        '   ',
        line('write_file', { path: 'out/new.txt', content: 'one\n' }),
        'this is not json',
        JSON.stringify({ args: { path: 'hello.txt' } }),
        '[1, 2]',
        JSON.stringify({ tool: 42 }),
        line('read_file', { path: 'out/new.txt' }),
        line('read_file', { path: '../escape.txt' }),
      ].join('\r\n'),
    );
    const run = await runCli(['replay', transcript, '--root', root]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const got = envelopes(run.stdout);
    expect(got.map((e) => [e.tool, e.ok, e.error?.code])).toEqual([
      ['read_file', true, undefined],
      ['write_file', true, undefined],
      ['', false, 'INVALID_ARGUMENTS'],
      ['', false, 'INVALID_ARGUMENTS'],
      ['', false, 'INVALID_ARGUMENTS'],
      ['', false, 'INVALID_ARGUMENTS'],
      ['read_file', true, undefined],
      ['read_file', false, 'OUTSIDE_WORKSPACE'],
    ]);
    expect(got[2]!.error.message).toContain('line 5');
    expect(got[3]!.error.problems).toEqual([{ path: '/tool', message: "must have required property 'tool'" }]);
    expect(got[6]!.result.content).toBe('one\n');
    expect(await readFile(join(root, 'out', 'new.txt'), 'utf8')).toBe('one\n');
    expectNoHostPath(run);
  });

  it('reads stdin with -, on one memory workspace by default', async () => {
    const steps = [
      line('read_file', { path: 'a.txt' }),
      line('write_file', { path: 'a.txt', content: 'first\n' }),
      line('read_file', { path: 'a.txt' }),
    ];
    // Many lines through a pipe: each depends on the one before, so order and a single workspace show.
    for (let i = 0; i < 150; i++) {
      steps.push(
        line('write_file', { path: 'counter.txt', content: `${i}\n` }),
        line('read_file', { path: 'counter.txt' }),
      );
    }
    const run = await runCli(['replay', '-'], { input: `${steps.join('\n')}\n` });
    expect(run.code).toBe(0);
    const got = envelopes(run.stdout);
    expect(got).toHaveLength(steps.length);
    expect(got[0]!.error.code).toBe('NOT_FOUND');
    expect(got[2]!.result.content).toBe('first\n');
    for (let i = 0; i < 150; i++) expect(got[4 + 2 * i]!.result.content).toBe(`${i}\n`);
  });

  it('seeds memory from a real folder with --from, skipping node_modules and .sandpit, and never touches it', async () => {
    const from = join(base, 'seed');
    await mkdir(join(from, 'src', 'deep'), { recursive: true });
    await mkdir(join(from, '.git'), { recursive: true });
    await mkdir(join(from, 'node_modules', 'dep'), { recursive: true });
    await mkdir(join(from, '.sandpit'), { recursive: true });
    await mkdir(join(from, 'empty'), { recursive: true });
    await mkdir(join(from, 'pkg', 'node_modules'), { recursive: true });
    await mkdir(join(from, 'pkg', '.sandpit'), { recursive: true });
    await writeFile(join(from, 'pkg', 'node_modules', 'n.js'), '1\n');
    await writeFile(join(from, 'pkg', '.sandpit', 'n.json'), '{}\n');
    await writeFile(join(from, 'src', 'deep', 'x.ts'), 'export const x = 1;\n');
    await writeFile(join(from, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(from, '.env'), 'A=1\n');
    await writeFile(join(from, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    await writeFile(join(from, '.sandpit', 'state.json'), '{}\n');
    await writeFile(join(base, 'outside.txt'), 'outside\n');
    await symlink(join(base, 'outside.txt'), join(from, 'abs-link'));
    const before = await snapshotTree(from);

    const run = await runCli(['replay', '-', '--from', from], {
      input: [
        line('read_file', { path: 'src/deep/x.ts' }),
        line('read_file', { path: '.git/HEAD' }),
        line('read_file', { path: '.env' }),
        line('read_file', { path: 'node_modules/dep/index.js' }),
        line('read_file', { path: '.sandpit/state.json' }),
        line('read_file', { path: 'abs-link' }),
        line('read_file', { path: 'pkg/node_modules/n.js' }),
        line('read_file', { path: 'pkg/.sandpit/n.json' }),
        line('read_file', { path: 'empty' }),
        line('write_file', { path: 'src/deep/x.ts', content: 'changed\n' }),
        line('write_file', { path: 'brand-new.txt', content: 'new\n' }),
        line('read_file', { path: 'src/deep/x.ts' }),
      ].join('\n'),
    });
    expect(run.code).toBe(0);
    const got = envelopes(run.stdout);
    // The workspace reserves a top-level .sandpit for itself, so that read is refused either way.
    expect(got.map((e) => (e.ok ? 'ok' : e.error.code))).toEqual([
      'ok',
      'ok',
      'ok',
      'NOT_FOUND',
      got[4]!.ok ? 'ok!' : got[4]!.error.code,
      'NOT_FOUND',
      'NOT_FOUND',
      'NOT_FOUND',
      'NOT_A_FILE',
      'ok',
      'ok',
      'ok',
    ]);
    expect(got[0]!.result.content).toBe('export const x = 1;\n');
    expect(got[11]!.result.content).toBe('changed\n');
    expect(await snapshotTree(from)).toEqual(before);
    expectNoHostPath(run);
  });

  it('uses the node backend only when asked, and refuses to guess between --root and --from', async () => {
    const root = join(base, 'explicit');
    await mkdir(root);
    const run = await runCli(['replay', '-', '--backend', 'node', '--root', root], {
      input: line('write_file', { path: 'f.txt', content: 'x' }),
    });
    expect(run.code).toBe(0);
    expect(envelopes(run.stdout)[0]!.ok).toBe(true);
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('x');
    const both = await runCli(['replay', '-', '--root', root, '--from', root], {
      input: line('read_file', { path: 'f.txt' }),
    });
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
  });
});
