import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { FULL, replayHint } from './sizes.js';

/** Latin-1 names as an old zip leaves them: not UTF-8, so Node alone would show U+FFFD. */
const LATIN1 = ['th\xe8se.txt', 'caf\xe9', 'na\xefve\xff.md'];
const COUNT = FULL ? 200 : LATIN1.length;
const rawName = (i: number) => Buffer.from(i < LATIN1.length ? LATIN1[i]! : `f${i}-\xe8\xe9.txt`, 'latin1');
/** How the tools show a raw name: each stray byte as U+DC80+byte (JSON: \udce8). */
const shown = (raw: Buffer) =>
  [...raw].map((b) => (b < 0x80 ? String.fromCharCode(b) : String.fromCharCode(0xdc00 + b))).join('');

// Linux file names are bytes; macOS insists on UTF-8 names, so there is nothing to keep.
describe.skipIf(process.platform !== 'linux')(`hardening: names that are not UTF-8 ${replayHint('non-utf8')}`, () => {
  let root: string | undefined;
  let ws: Workspace | undefined;
  afterEach(async () => {
    await ws?.close?.();
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  for (const rooted of [false, true]) {
    it(`keeps them in history byte for byte and shows them escaped, round-tripping${rooted ? ' (fs opened at the root)' : ''}`, async () => {
      root = mkdtempSync(join(tmpdir(), 'sandpit-latin1-'));
      ws = createWorkspace({ fs: createNodeFs(rooted ? { root } : {}), root });
      const rootBytes = Buffer.from(root);
      const at = (raw: Buffer) => Buffer.concat([rootBytes, Buffer.from('/'), raw]);
      expect((await ws.call('write_file', { path: 'earlier.txt', content: 'an earlier change\n' })).ok).toBe(true);
      for (let i = 0; i < COUNT; i++) writeFileSync(at(rawName(i)), `body ${i}\n`);
      const snap = await ws.call('snapshot', { message: 'old zip unpacked' });
      expect(snap.ok && (snap.result.skipped ?? [])).toEqual([]);

      const list = await ws.call('list_directory', { max_entries: COUNT + 10 });
      expect(list.ok).toBe(true);
      const entries = list.ok ? (list.result.entries as Array<{ name: string; size_bytes: number | null }>) : [];
      const these = shown(rawName(0));
      expect(these).toBe('th\udce8se.txt');
      expect(entries.find((e) => e.name === these)).toMatchObject({ size_bytes: 7 });
      expect(entries.some((e) => e.name.includes('\ufffd'))).toBe(false);
      // the escaped name survives JSON, as it crosses MCP
      const again = JSON.parse(JSON.stringify({ path: these })) as { path: string };
      expect(JSON.stringify(these)).toContain('\\udce8');
      expect(await ws.call('read_file', again)).toMatchObject({ ok: true, result: { content: 'body 0\n' } });
      expect((await ws.call('glob', { pattern: '*.txt' })).ok).toBe(true);

      // a command deletes it; undo brings back that file, not the earlier change
      unlinkSync(at(rawName(0)));
      const afterDelete = await ws.call('snapshot', { message: 'after a command' });
      expect(afterDelete.ok, JSON.stringify(afterDelete)).toBe(true);
      const undo = await ws.call('undo', {});
      expect(undo.ok, JSON.stringify(undo)).toBe(true);
      expect(readFileSync(at(rawName(0)), 'utf8')).toBe('body 0\n');
      expect(existsSync(join(root, 'earlier.txt'))).toBe(true);

      // delete_path takes the escaped name back, and so does undo after it
      expect(await ws.call('delete_path', { path: these })).toMatchObject({ ok: true });
      expect(existsSync(at(rawName(0)))).toBe(false);
      expect((await ws.call('undo', {})).ok).toBe(true);
      expect(readdirSync(rootBytes, { encoding: 'buffer' }).some((n) => n.equals(rawName(0)))).toBe(true);
      expect(readdirSync(rootBytes, { encoding: 'buffer' }).some((n) => n.includes(Buffer.from('\ufffd')))).toBe(false);
      expect(await ws.call('read_file', { path: shown(rawName(1)) })).toMatchObject({
        ok: true,
        result: { content: 'body 1\n' },
      });
    });
  }
});
