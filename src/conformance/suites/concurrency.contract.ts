import { toHex } from '../../fs/hash/hex.js';
import { afterEach, describe, expect, it } from '../api.js';
import type { Envelope } from '../../index.js';
import type { BackendUnderTest } from '../backend.js';
import { enc, openRootOnly, type Harness } from '../harness.js';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function lines(text: string | null): string[] {
  expect(text).not.toBeNull();
  return text!.split('\n').filter((l, i, all) => !(l === '' && i === all.length - 1));
}

export function concurrencyContract(backend: BackendUnderTest) {
  describe('concurrent calls on one workspace', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    const all = (calls: Array<Promise<Envelope>>) => Promise.all(calls);
    const expectAllOk = (envs: Envelope[]) => {
      const failed = envs.filter((e) => !e.ok);
      expect(failed).toEqual([]);
    };

    it('50 concurrent appends to one file all land, under any spelling of its path', async () => {
      h = await openRootOnly(backend, { 'log/app.log': 'start\n' });
      const spellings = ['log/app.log', 'log//app.log', 'log/./app.log', 'x/../log/app.log'];
      const envs = await all(
        Array.from({ length: 50 }, (_, i) =>
          h.ws.call('append_file', { path: spellings[i % spellings.length], content: `line ${i}\n` }),
        ),
      );
      expectAllOk(envs);
      const got = lines(await h.text('log/app.log'));
      expect(got[0]).toBe('start');
      expect(got.slice(1).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`).sort());
      // appends on one path run in the order they were called
      expect(got.slice(1)).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
    });

    it('50 concurrent appends to a missing file create it once and all land', async () => {
      h = await openRootOnly(backend, {});
      const envs = await all(
        Array.from({ length: 50 }, (_, i) =>
          h.ws.call('append_file', { path: 'new/dir/log.txt', content: `line ${i}\n` }),
        ),
      );
      expectAllOk(envs);
      expect(envs.filter((e) => e.ok && (e.result as { created: boolean }).created)).toHaveLength(1);
      expect(lines(await h.text('new/dir/log.txt'))).toHaveLength(50);
    });

    it('parallel edits of different lines of one file all land (no lost update), after a full read', async () => {
      const n = 30;
      h = await openRootOnly(backend, {
        'f.txt': Array.from({ length: n }, (_, i) => `token_${i} = ${i};`).join('\r\n') + '\r\n',
      });
      await h.ok('read_file', { path: 'f.txt' });
      const envs = await all(
        Array.from({ length: n }, (_, i) =>
          h.ws.call('edit_file', { path: 'f.txt', old_text: `token_${i} =`, new_text: `TOKEN_${i} =` }),
        ),
      );
      expectAllOk(envs);
      const text = await h.text('f.txt');
      expect(text).toBe(Array.from({ length: n }, (_, i) => `TOKEN_${i} = ${i};`).join('\r\n') + '\r\n');
    });

    it('parallel edits and appends on one file, with expected_sha256 guards, never lose an update', async () => {
      h = await openRootOnly(backend, { 'f.txt': 'a\nb\nc\n' });
      const { sha256 } = await h.ok('read_file', { path: 'f.txt' });
      const envs = await all([
        h.ws.call('edit_file', { path: 'f.txt', old_text: 'a', new_text: 'A', expected_sha256: sha256 }),
        h.ws.call('edit_file', { path: 'f.txt', old_text: 'b', new_text: 'B', expected_sha256: sha256 }),
        h.ws.call('append_file', { path: 'f.txt', content: 'd\n' }),
        h.ws.call('edit_file', { path: 'f.txt', old_text: 'c', new_text: 'C' }),
      ]);
      // the first guarded edit wins; the second sees the file changed (STALE_FILE) and changes nothing
      expect(envs.map((e) => (e.ok ? 'ok' : e.error.code))).toEqual(['ok', 'STALE_FILE', 'ok', 'ok']);
      expect(await h.text('f.txt')).toBe('A\nb\nC\nd\n');
    });

    it('parallel writes to different files in existing folders all land', async () => {
      h = await openRootOnly(backend, { 'old/keep.txt': 'k\n', 'old/a/keep.txt': 'k\n' });
      const paths = Array.from({ length: 40 }, (_, i) => (i % 2 ? `old/f${i}.txt` : `old/a/f${i}.txt`));
      const envs = await all(paths.map((p, i) => h.ws.call('write_file', { path: p, content: `file ${i}\n` })));
      expectAllOk(envs);
      for (const [i, p] of paths.entries()) expect(await h.text(p), p).toBe(`file ${i}\n`);
    });

    // two calls that both find a shared parent missing both mkdir it: the loser's EEXIST must not fail it
    it('parallel writes to different files in new shared folders all land', async () => {
      h = await openRootOnly(backend, {});
      const paths = Array.from({ length: 30 }, (_, i) => `new/s${i % 3}/f${i}.txt`);
      const envs = await all(paths.map((p, i) => h.ws.call('write_file', { path: p, content: `file ${i}\n` })));
      expectAllOk(envs);
      for (const [i, p] of paths.entries()) expect(await h.text(p), p).toBe(`file ${i}\n`);
    });

    // the same race, through create_directory and move_path
    it('parallel create_directory and move_path calls sharing new parent folders all succeed', async () => {
      h = await openRootOnly(backend, { 'm0.txt': '0\n', 'm1.txt': '1\n', 'm2.txt': '2\n' });
      const envs = await all([
        ...Array.from({ length: 12 }, (_, i) => h.ws.call('create_directory', { path: `p/q/r${i}` })),
        ...Array.from({ length: 3 }, (_, i) => h.ws.call('move_path', { from: `m${i}.txt`, to: `p/q/m${i}.txt` })),
      ]);
      expectAllOk(envs);
      for (let i = 0; i < 12; i++)
        expect(await h.ok('exists', { path: `p/q/r${i}` })).toMatchObject({ exists: true, type: 'directory' });
      for (let i = 0; i < 3; i++) expect(await h.text(`p/q/m${i}.txt`)).toBe(`${i}\n`);
    });

    it('a move racing an edit of the same file ends in one of the serial orders', async () => {
      for (let round = 0; round < 8; round++) {
        h = await openRootOnly(backend, { 'a.txt': 'hello\n' });
        const edit = () => h.ws.call('edit_file', { path: 'a.txt', old_text: 'hello', new_text: 'bye' });
        const move = () => h.ws.call('move_path', { from: 'a.txt', to: 'b.txt' });
        const delay = round % 4 === 0 ? Promise.resolve() : tick();
        let e: Envelope;
        let m: Envelope;
        if (round % 2) [e, m] = await Promise.all([edit(), delay.then(move)]);
        else [m, e] = await Promise.all([move(), delay.then(edit)]);
        expect(m.ok, JSON.stringify(m)).toBe(true);
        const tree = await h.tree();
        const editFirst = { 'b.txt': toHex(enc('bye\n')) };
        const moveFirst = { 'b.txt': toHex(enc('hello\n')) };
        if (e.ok) expect(tree).toEqual(editFirst);
        else {
          expect(e.error.code).toBe('NOT_FOUND');
          expect(tree).toEqual(moveFirst);
        }
        await h.cleanup();
      }
    });

    it('moving or deleting a folder while its files are edited or written ends in a serial order', async () => {
      h = await openRootOnly(backend, { 'd/f.txt': 'one\n', 'd/g.txt': 'g\n' });
      const [edit, move, write] = (await all([
        h.ws.call('edit_file', { path: 'd/f.txt', old_text: 'one', new_text: 'ONE' }),
        h.ws.call('move_path', { from: 'd', to: 'e' }),
        h.ws.call('write_file', { path: 'd/new.txt', content: 'new\n' }),
      ])) as [Envelope, Envelope, Envelope];
      expect([edit.ok, move.ok, write.ok]).toEqual([true, true, true]);
      const tree = await h.tree();
      // issued in this order: edit, then the move, then a write that creates d/ again
      expect(Object.keys(tree).sort()).toEqual(['d/', 'd/new.txt', 'e/', 'e/f.txt', 'e/g.txt']);
      expect(await h.text('e/f.txt')).toBe('ONE\n');

      const [write2, del] = (await all([
        h.ws.call('write_file', { path: 'e/h.txt', content: 'h\n' }),
        h.ws.call('delete_path', { path: 'e', recursive: true }),
      ])) as [Envelope, Envelope];
      expect([write2.ok, del.ok]).toEqual([true, true]);
      expect(Object.keys(await h.tree()).sort()).toEqual(['d/', 'd/new.txt']);
    });

    it('a reader running beside writers only ever sees whole versions of a file', async () => {
      const version = (i: number) => Array.from({ length: 200 }, () => `v${i}`).join('\n') + '\n';
      h = await openRootOnly(backend, { 'f.txt': version(0) });
      const seen: string[] = [];
      const writers = Array.from({ length: 10 }, (_, i) =>
        h.ws.call('write_file', { path: 'f.txt', content: version(i + 1) }),
      );
      const readers = Array.from({ length: 20 }, async () => {
        const env = await h.ws.call('read_file', { path: 'f.txt' });
        if (env.ok) seen.push((env.result as { content: string }).content);
        else seen.push(`error ${env.error.code}`);
      });
      const envs = await Promise.all(writers);
      await Promise.all(readers);
      // blind writes after the first are refused only if a reader's record made them stale; none may be torn
      for (const content of seen) expect(Array.from({ length: 11 }, (_, i) => version(i))).toContain(content);
      const final = await h.text('f.txt');
      expect(Array.from({ length: 11 }, (_, i) => version(i))).toContain(final);
      for (const env of envs) if (!env.ok) expect(env.error.code).toBe('STALE_FILE');
    });
  });
}
