import { link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/open.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-hardlink-'));
  await mkdir(join(base, 'ws'));
  await writeFile(join(base, 'secret.txt'), 'outside secret\n');
  await link(join(base, 'secret.txt'), join(base, 'ws', 'linked.txt'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('a file hard-linked from outside the workspace', () => {
  it('is refused by every reading tool, and a write replaces the link instead of writing through it', async () => {
    const ws = openNodeWorkspace(join(base, 'ws'));
    for (const [tool, args] of [
      ['read_file', { path: 'linked.txt' }],
      ['read_file', { path: 'linked.txt', start_line: 1, end_line: 1 }],
      ['file_bytes', { path: 'linked.txt' }],
      ['edit_file', { path: 'linked.txt', old_text: 'outside', new_text: 'x' }],
    ] as const) {
      const out = await ws.call(tool, args);
      expect(out.ok ? 'ok' : out.error.code, tool).toBe('OUTSIDE_WORKSPACE');
      expect(JSON.stringify(out)).not.toContain('outside secret');
    }
    expect((await ws.call('write_file', { path: 'linked.txt', content: 'mine\n' })).ok).toBe(true);
    expect(await readFile(join(base, 'secret.txt'), 'utf8')).toBe('outside secret\n');
    expect((await ws.call('read_file', { path: 'linked.txt' })).ok).toBe(true);
    await ws.close();
  });

  it('is read when the policy allows hard links', async () => {
    await link(join(base, 'secret.txt'), join(base, 'ws', 'allowed.txt'));
    const ws = openNodeWorkspace(join(base, 'ws'), { policy: { allowHardLinks: true } });
    const out = await ws.call<{ content: string }>('read_file', { path: 'allowed.txt' });
    expect(out.ok && out.result.content).toBe('outside secret\n');
    await ws.close();
  });
});
