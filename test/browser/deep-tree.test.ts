import { afterEach, describe, expect, inject, it } from 'vitest';
import type { RemoteWorkspace } from '../../web/client.js';
import type { BackendKind } from '../../web/protocol.js';
import { connect, uniqueName } from './connect.js';

/** Deep enough to pass the walks' 1,024-level stop in the full run; the slice stays quick on OPFS. */
const { full } = inject('hardening');
const LEVELS = full ? 1_100 : 200;
type Out = Record<string, any>;

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});

describe(`a ${LEVELS}-level folder in Chromium, through the worker`, () => {
  it.each<BackendKind>(['indexeddb', 'opfs'])(
    '%s: walks report it, snapshots record it or say so, undo works',
    async (backend) => {
      const ws = await connect({ backend, name: uniqueName('deep') });
      open.push(ws);
      const timings: string[] = [];
      const call = async (tool: string, args: Out): Promise<Out> => {
        const started = performance.now();
        const r = await ws.call(tool, args);
        timings.push(`${tool} ${Math.round(performance.now() - started)} ms`);
        if (!r.ok) throw new Error(`${tool}: ${JSON.stringify(r.error).slice(0, 400)}`);
        return r.result as Out;
      };
      const rel = `${'a/'.repeat(LEVELS)}f.txt`;
      await call('write_file', { path: 'top.txt', content: 'top deep\n' });
      const deep = await call('write_file', { path: rel, content: 'deep\n' });
      const recorded = deep.snapshot_error === undefined;
      if (!recorded) expect(typeof deep.snapshot_error).toBe('string');

      const glob = await call('glob', { pattern: '**/*.txt' });
      const search = await call('search_files', { pattern: 'deep' });
      for (const [found, r] of [
        [glob.matches as string[], glob],
        [search.matches.map((m: Out) => m.path) as string[], search],
      ] as const) {
        expect(found).toContain('top.txt');
        // the deep file is found, or the answer says it is incomplete and why: never a silent zero
        if (!found.includes(rel)) expect(r).toMatchObject({ truncated: true });
        if (!found.includes(rel) && !r.next_cursor) expect(r.skipped?.length).toBeGreaterThan(0);
      }
      if (LEVELS < 1024) expect(glob.matches.sort()).toEqual([rel, 'top.txt']);

      const edit = await call('write_file', { path: rel, content: 'deeper\n' });
      const list = await call('list_snapshots', {});
      expect(list.snapshots[0].message).toBe(
        edit.snapshot_error === undefined ? `write_file: ${rel}` : 'write_file: top.txt',
      );
      await call('undo', {});
      if (edit.snapshot_error === undefined) expect((await call('read_file', { path: rel })).content).toBe('deep\n');
      expect((await call('list_snapshots', {})).snapshots.length).toBe(list.snapshots.length + 1);
      console.log(`[hardening deep ${backend}] ${LEVELS} levels: ${timings.join(', ')} (loaded machine)`);
    },
    full ? 1_800_000 : 180_000,
  );
});
