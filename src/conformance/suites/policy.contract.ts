import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { openRootOnly, type Harness } from '../harness.js';

export function policyContract(backend: BackendUnderTest) {
  describe('read ledger, policies and change log', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('refuses a write to a file changed since it was read (STALE_FILE)', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'v1\n' });
      await h.ok('read_file', { path: 'a.txt' });
      await h.put('a.txt', 'changed behind your back\n');
      expect((await h.fail('edit_file', { path: 'a.txt', old_text: 'changed', new_text: 'x' })).code).toBe(
        'STALE_FILE',
      );
      expect((await h.fail('write_file', { path: 'a.txt', content: 'v2\n' })).code).toBe('STALE_FILE');
      expect(await h.text('a.txt')).toBe('changed behind your back\n');
      await h.ok('read_file', { path: 'a.txt' });
      await h.ok('write_file', { path: 'a.txt', content: 'v2\n' });
      await h.ok('edit_file', { path: 'a.txt', old_text: 'v2', new_text: 'v3' });
    });

    it('checks expected_sha256 on every write tool', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'one\n' });
      const { sha256 } = await h.ok('read_file', { path: 'a.txt' });
      const wrong = '0'.repeat(64);
      expect(
        (await h.fail('edit_file', { path: 'a.txt', old_text: 'one', new_text: 'two', expected_sha256: wrong })).code,
      ).toBe('STALE_FILE');
      expect((await h.fail('write_file', { path: 'a.txt', content: 'x', expected_sha256: wrong })).code).toBe(
        'STALE_FILE',
      );
      expect((await h.fail('write_file', { path: 'new.txt', content: 'x', expected_sha256: wrong })).code).toBe(
        'STALE_FILE',
      );
      await h.ok('edit_file', { path: 'a.txt', old_text: 'one', new_text: 'two', expected_sha256: sha256 });
      expect(await h.text('a.txt')).toBe('two\n');
    });

    it('enforces readBeforeWrite: a whole read grants, a window does not', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'one\ntwo\n' }, { policy: { readBeforeWrite: true } });
      expect((await h.fail('edit_file', { path: 'a.txt', old_text: 'one', new_text: '1' })).code).toBe('NOT_READ');
      await h.ok('read_file', { path: 'a.txt', start_line: 1, end_line: 2 });
      expect((await h.fail('write_file', { path: 'a.txt', content: 'x' })).code).toBe('NOT_READ');
      await h.ok('read_file', { path: 'a.txt' });
      await h.ok('edit_file', { path: 'a.txt', old_text: 'one', new_text: '1' });
      await h.ok('edit_file', { path: 'a.txt', old_text: 'two', new_text: '2' });
      await h.ok('write_file', { path: 'fresh.txt', content: 'new files need no read' });
    });

    it("keeps each change's full unified diff out of the result, in the change log", async () => {
      h = await openRootOnly(backend, { 'a.txt': 'one\ntwo\nthree\n' });
      const r = await h.ok('edit_file', { path: 'a.txt', old_text: 'two', new_text: 'TWO' });
      expect(JSON.stringify(r)).not.toContain('@@');
      const detail = h.ws.changes.get(r.change_id)!;
      expect(detail).toMatchObject({ id: r.change_id, tool: 'edit_file', added_lines: 1, removed_lines: 1 });
      expect(detail.unified_diff).toContain('--- a/a.txt');
      expect(detail.unified_diff).toContain('-two');
      expect(detail.unified_diff).toContain('+TWO');
      const created = await h.ok('write_file', { path: 'n.txt', content: 'x\n' });
      expect(h.ws.changes.get(created.change_id)!.unified_diff).toContain('--- /dev/null');
      expect(h.ws.changes.list().map((c) => c.id)).toEqual([r.change_id, created.change_id]);
    });

    it('answers unknown tools and non-object arguments with envelopes', async () => {
      h = await openRootOnly(backend);
      const unknown = await h.ws.call('file_manager.read_file', {});
      expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
      expect((unknown as any).error.hint).toContain("'read_file'");
      expect(await h.ws.call('read_file', 'a.txt' as never)).toMatchObject({
        ok: false,
        error: { code: 'INVALID_ARGUMENTS' },
      });
      expect(h.ws.listTools().map((t) => t.name)).toContain('edit_file');
    });
  });
}
