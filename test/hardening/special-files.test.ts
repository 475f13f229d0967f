import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { FULL, replayHint } from './sizes.js';

const FIFOS = FULL ? 200 : 3;

// Only where mkfifo and unix sockets exist (Linux and macOS).
describe.skipIf(process.platform === 'win32')(`hardening: special files ${replayHint('special-files')}`, () => {
  let root: string | undefined;
  let server: Server | undefined;
  let ws: Workspace | undefined;
  afterEach(async () => {
    await ws?.close?.();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  async function plant(dir: string): Promise<void> {
    for (let i = 0; i < FIFOS; i++) execFileSync('mkfifo', [join(dir, i === 0 ? 'pipe' : `pipe${i}`)]);
    server = createServer();
    await new Promise<void>((resolve) => server!.listen(join(dir, 'sock'), resolve));
  }

  for (const rooted of [false, true]) {
    it(`keeps history and undo working with FIFOs and a socket in the tree${rooted ? ' (fs opened at the root)' : ''}`, async () => {
      root = mkdtempSync(join(tmpdir(), 'sandpit-special-'));
      writeFileSync(join(root, 'a.txt'), 'needle one\n');
      ws = createWorkspace({ fs: createNodeFs(rooted ? { root } : {}), root });
      expect((await ws.call('write_file', { path: 'first.txt', content: 'first\n' })).ok).toBe(true);
      await plant(root);

      const snap = await ws.call('snapshot', { message: 'with specials' });
      expect(snap.ok, JSON.stringify(snap)).toBe(true);
      const skipped = snap.ok ? (snap.result.skipped as Array<{ path: string; reason: string; why?: string }>) : [];
      expect(skipped.find((s) => s.path === 'pipe')).toMatchObject({ reason: 'special_file', why: 'fifo' });
      expect(skipped.find((s) => s.path === 'sock')).toMatchObject({ reason: 'special_file', why: 'socket' });
      expect(skipped.filter((s) => s.reason === 'special_file')).toHaveLength(FIFOS + 1);
      const write = await ws.call('write_file', { path: 'b.txt', content: 'needle two\n' });
      expect(write.ok, JSON.stringify(write)).toBe(true);
      expect(write.ok && 'snapshot_error' in write.result).toBe(false);

      for (const [path, words] of [
        ['pipe', /FIFO/],
        ['sock', /socket/],
      ] as const) {
        for (const tool of ['read_file', 'file_bytes'] as const) {
          const read = await ws.call(tool, { path });
          expect(read.ok ? 'ok' : read.error.code, `${tool} ${path}`).toBe('UNSUPPORTED_FILE_TYPE');
          expect(read.ok ? '' : read.error.message).toMatch(words);
          expect(read.ok ? '' : read.error.message).not.toMatch(/directory/);
        }
      }

      const search = await ws.call('search_files', { pattern: 'needle' });
      expect(search.ok && search.result.matches.map((m: { path: string }) => m.path)).toEqual(['a.txt', 'b.txt']);
      const searchSkipped = search.ok ? (search.result.skipped ?? []) : [];
      expect(searchSkipped.map((s: { path: string }) => s.path)).toEqual(expect.arrayContaining(['pipe', 'sock']));
      expect(searchSkipped.every((s: { reason: string }) => /FIFO, socket or device/.test(s.reason))).toBe(true);
      const glob = await ws.call('glob', { pattern: '*' });
      expect(glob.ok && glob.result.matches).toEqual(['a.txt', 'b.txt', 'first.txt']);

      const undo = await ws.call('undo', {});
      expect(undo.ok, JSON.stringify(undo)).toBe(true);
      expect(await ws.call('exists', { path: 'b.txt' })).toMatchObject({ ok: true, result: { exists: false } });
      expect(await ws.call('read_file', { path: 'first.txt' })).toMatchObject({
        ok: true,
        result: { content: 'first\n' },
      });
      expect(await ws.call('exists', { path: 'pipe' })).toMatchObject({ ok: true, result: { exists: true } });
    });
  }
});
