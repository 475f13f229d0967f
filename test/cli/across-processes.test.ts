import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, envelopes, repoRoot, runCli } from './built-cli.js';

let base: string;
let root: string;
let tools: string;

beforeAll(async () => {
  await buildCli();
  base = await mkdtemp(join(tmpdir(), 'sandpit-cli-across-'));
  root = join(base, 'project');
  tools = join(base, 'tools');
  await mkdir(join(root, 'src'), { recursive: true });
  for (let f = 0; f < 5; f++) {
    await writeFile(
      join(root, 'src', `f${f}.txt`),
      Array.from({ length: 7 }, (_, i) => `line ${i} ${i % 2 ? 'needle' : 'hay'}`).join('\n') + '\n',
    );
  }
  await mkdir(join(tools, 'shout'), { recursive: true });
  await writeFile(
    join(tools, 'shout', 'shout.json'),
    JSON.stringify({
      name: 'shout',
      description: 'Upper-case a text.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
      command: [
        'node',
        '-e',
        'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).text.toUpperCase()))',
      ],
    }),
  );
  await mkdir(join(tools, 'broken'), { recursive: true });
  await writeFile(join(tools, 'broken', 'broken.json'), '{"name": "broken"}');
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('sandpit across processes', () => {
  it('pages search_files with a cursor from one process in the next, with no duplicates and no gaps', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const args = JSON.stringify({ pattern: 'needle', max_matches: 4, ...(cursor ? { cursor } : {}) });
      const run = await runCli(['call', 'search_files', args, '--root', root]);
      const envelope = JSON.parse(run.stdout);
      expect(envelope.ok, run.stdout).toBe(true);
      seen.push(...envelope.result.matches.map((m: { path: string; line: number }) => `${m.path}:${m.line}`));
      cursor = envelope.result.next_cursor ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    const all = JSON.parse(
      (await runCli(['call', 'search_files', '{"pattern": "needle", "max_matches": 100}', '--root', root])).stdout,
    );
    const expected = all.result.matches.map((m: { path: string; line: number }) => `${m.path}:${m.line}`);
    expect(expected).toHaveLength(15);
    expect(seen).toEqual(expected);
    expect(pages).toBe(4);
  });

  it('loads manifest tools with --tools, and doctor names the broken one', async () => {
    const run = await runCli(['call', 'shout', '{"text": "quiet"}', '--root', root, '--tools', tools]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, tool: 'shout' });
    expect(run.stdout).toContain('QUIET');
    const bad = JSON.parse((await runCli(['call', 'shout', '{"txt": 1}', '--root', root, '--tools', tools])).stdout);
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    const doctor = await runCli(['doctor', '--tools', tools]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('shout: OK');
    expect(doctor.stdout).toMatch(/broken: SKIPPED/);
    expect(doctor.stdout).not.toContain(base);
    const listed = JSON.parse((await runCli(['tools', '--tools', tools])).stdout) as Array<{ name: string }>;
    expect(listed.map((t) => t.name)).toEqual(expect.arrayContaining(['read_file', 'run_command', 'shout']));
    expect((await runCli(['call', 'shout', '{}', '--tools', tools])).code).toBe(2);
  });

  it('replays the shipped sample session: one failed ambiguous edit, everything else ok, and the undo restores', async () => {
    const run = await runCli(['replay', join(repoRoot, 'public', 'sample-session.jsonl')]);
    expect(run.code).toBe(0);
    const out = envelopes(run.stdout);
    expect(out).toHaveLength(14);
    expect(out.filter((e) => !e.ok).map((e) => e.error.code)).toEqual(['AMBIGUOUS_MATCH']);
    expect(out[7]).toMatchObject({ tool: 'edit_file', ok: false });
    expect(out[12]!.result.content).toBe(
      "import { greet } from './greet.js';\n\nconsole.log(greet('world'));\nconsole.log(greet('world'));\n",
    );
  });
});
