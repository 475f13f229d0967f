import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type Envelope, type Workspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { envelopeProblem } from './envelope-check.js';
import { recordFigures } from './figures.js';
import { FULL, replayHint } from './sizes.js';

/** No call may take longer than this, whatever its input: past it, the call counts as hung. */
const HANG_MS = 60_000;
// the slice keeps the big file, the long file and the big patch; the wide folder is cut, since
// moving and snapshotting 20,000 new files takes half a minute per backend
const SIZES = { bigFileBytes: 9 * 1024 * 1024, lines: 100_000, entries: FULL ? 20_000 : 1_000, patchFiles: 2_000 };

interface Tally {
  attempts: number;
  hung: number;
  broken: string[];
  timings: string[];
}

async function timed(
  t: Tally,
  ws: Workspace,
  tool: string,
  args: Record<string, unknown>,
  allowed: string[],
): Promise<Envelope | null> {
  t.attempts++;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const env = await Promise.race([
    ws.call(tool, args),
    new Promise<null>((r) => {
      timer = setTimeout(() => r(null), HANG_MS);
    }),
  ]);
  clearTimeout(timer);
  const label = `${tool} ${JSON.stringify(args, (_k, v) => (typeof v === 'string' && v.length > 60 ? `${v.slice(0, 20)}...(${v.length})` : v))}`;
  t.timings.push(`${label.slice(0, 90)}: ${Date.now() - started} ms`);
  if (env === null) {
    t.hung++;
    t.broken.push(`${label}: no answer in ${HANG_MS} ms`);
    return null;
  }
  const problem = envelopeProblem(env, tool);
  if (problem) t.broken.push(`${label}: ${problem}`);
  const outcome = env.ok ? 'ok' : env.error.code;
  if (!allowed.includes(outcome))
    t.broken.push(`${label}: ${outcome} ${env.ok ? '' : env.error.message.slice(0, 200)}`);
  return env;
}

function backends(): Array<{ name: string; make: () => { fs: WorkspaceFs; root: string; done: () => void } }> {
  return [
    { name: 'memory', make: () => ({ fs: createMemoryFs(), root: '/', done: () => {} }) },
    {
      name: 'node',
      make: () => {
        const root = nodeFs.mkdtempSync(join(tmpdir(), 'sandpit-big-'));
        return { fs: createNodeFs(), root, done: () => nodeFs.rmSync(root, { recursive: true, force: true }) };
      },
    },
  ];
}

describe('hardening: big inputs work within the limits or fail with TOO_LARGE, and never hang', () => {
  for (const backend of backends()) {
    it(`${backend.name}: a 9 MiB file, a 100,000-line file, a ${SIZES.entries.toLocaleString('en-US')}-entry folder and a 2,000-file patch`, async () => {
      const { fs, root, done } = backend.make();
      const t: Tally = { attempts: 0, hung: 0, broken: [], timings: [] };
      try {
        const ws = createWorkspace({ fs, root });
        const ok = ['ok'];
        const okOrLarge = ['ok', 'TOO_LARGE'];

        const line = 'x'.repeat(99) + '\n';
        const nine = line.repeat(Math.ceil(SIZES.bigFileBytes / line.length)).slice(0, SIZES.bigFileBytes - 1) + '\n';
        await timed(t, ws, 'write_file', { path: 'big/nine.txt', content: nine }, okOrLarge);
        const read = await timed(
          t,
          ws,
          'read_file',
          { path: 'big/nine.txt', start_line: 1, end_line: 100000 },
          okOrLarge,
        );
        if (read?.ok && (read.result as { content: string }).content.length > 10 * 1024 * 1024 + 100)
          t.broken.push('read_file returned more than 10 MiB');
        await timed(t, ws, 'read_file', { path: 'big/nine.txt' }, okOrLarge);
        await timed(
          t,
          ws,
          'edit_file',
          {
            path: 'big/nine.txt',
            old_text: 'x'.repeat(99) + '\n' + 'x'.repeat(99) + '\n' + 'x'.repeat(20) + '\n',
            new_text: 'y',
          },
          ['NO_MATCH', 'TOO_LARGE', 'NOT_READ'],
        );
        await timed(t, ws, 'append_file', { path: 'big/nine.txt', content: 'tail\n' }, okOrLarge);
        await timed(t, ws, 'file_bytes', { path: 'big/nine.txt', expected: 'tail' }, okOrLarge);
        await timed(t, ws, 'search_files', { pattern: 'tail', path: 'big' }, okOrLarge);

        const many = Array.from({ length: SIZES.lines }, (_, i) => `line ${i}`).join('\n') + '\n';
        await timed(t, ws, 'write_file', { path: 'big/lines.txt', content: many }, ok);
        const window = await timed(
          t,
          ws,
          'read_file',
          { path: 'big/lines.txt', start_line: 50_000, end_line: 50_002 },
          ok,
        );
        if (window?.ok && (window.result as { content: string }).content !== 'line 49999\nline 50000\nline 50001\n')
          t.broken.push(`read_file window: ${JSON.stringify(window.result).slice(0, 200)}`);
        const whole = await timed(t, ws, 'read_file', { path: 'big/lines.txt' }, ok);
        if (whole?.ok && !(whole.result as { has_more?: boolean; total_lines: number }).total_lines)
          t.broken.push('read_file of 100,000 lines lacks total_lines');
        await timed(t, ws, 'read_file', { path: 'big/lines.txt', start_line: 1, end_line: SIZES.lines }, ok);
        await timed(
          t,
          ws,
          'edit_file',
          { path: 'big/lines.txt', old_text: `line ${SIZES.lines - 1}\n`, new_text: 'last\n' },
          ok,
        );
        await timed(t, ws, 'search_files', { pattern: 'line 9999', path: 'big', max_matches: 100 }, ok);
        await timed(t, ws, 'search_files', { pattern: '^line \\d+5$', is_regex: true, path: 'big' }, ok);

        // 20,000 entries made behind the tools' back, as a build or a checkout would
        await fs.mkdir(`${root === '/' ? '' : root}/wide`, { recursive: true });
        for (let i = 0; i < SIZES.entries; i++)
          await fs.writeFile(`${root === '/' ? '' : root}/wide/f${i}.txt`, new TextEncoder().encode(`${i}\n`));
        const list = await timed(t, ws, 'list_directory', { path: 'wide' }, ok);
        if (list?.ok && !(list.result as { truncated: boolean }).truncated)
          t.broken.push('list_directory of 20,000 entries was not truncated');
        await timed(t, ws, 'list_directory', { path: 'wide', max_entries: 10_000 }, okOrLarge);
        await timed(t, ws, 'glob', { pattern: 'wide/f1999*.txt' }, ok);
        await timed(t, ws, 'search_files', { pattern: '19999', path: 'wide' }, ok);
        await timed(t, ws, 'write_file', { path: 'wide/new.txt', content: 'n\n' }, ok);
        await timed(t, ws, 'move_path', { from: 'wide', to: 'wide2' }, ok);
        await timed(t, ws, 'delete_path', { path: 'wide2', recursive: true }, ok);
        await timed(t, ws, 'list_snapshots', { limit: 50 }, ok);

        const patch = [
          '*** Begin Patch',
          ...Array.from({ length: SIZES.patchFiles }, (_, i) => `*** Add File: p/f${i}.txt\n+${i}`),
          '*** End Patch',
          '',
        ].join('\n');
        await timed(t, ws, 'apply_patch', { patch }, okOrLarge);
        await timed(t, ws, 'apply_patch', { patch, dry_run: true }, okOrLarge);
        await timed(t, ws, 'undo', {}, ok);
        await ws.close();
      } finally {
        done();
      }
      console.log(`[hardening big/${backend.name}]\n  ${t.timings.join('\n  ')}`);
      const slowest = t.timings.map((x) => Number(/(\d+) ms$/.exec(x)![1])).reduce((a, b) => Math.max(a, b), 0);
      recordFigures({
        area: 'big inputs',
        backend: backend.name,
        attempts: t.attempts,
        escapes: 0,
        uncaught: t.hung,
        partial: 0,
        lost: 0,
        torn: 0,
        note: `9 MiB file, ${SIZES.lines.toLocaleString('en-US')} lines, ${SIZES.entries.toLocaleString('en-US')} entries, ${SIZES.patchFiles.toLocaleString('en-US')}-file patch; ${t.hung} hangs; slowest call ${slowest} ms`,
      });
      expect(t.broken, replayHint(`big/${backend.name}`)).toEqual([]);
    });
  }
});
