import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { createRng } from '../hardening/rng.js';

type Out = Record<string, any>;

/** Every file and folder under `/`, Sandpit's own folder aside: what a restore must bring back exactly. */
async function listing(fs: WorkspaceFs, dir = '/', out: Record<string, string> = {}): Promise<Record<string, string>> {
  for (const name of (await fs.readdir(dir)).sort()) {
    const abs = dir === '/' ? `/${name}` : `${dir}/${name}`;
    if (abs === '/.sandpit') continue;
    const stat = await fs.lstat(abs);
    if (stat.type === 'dir') {
      out[`${abs}/`] = '';
      await listing(fs, abs, out);
    } else if (stat.type === 'symlink') out[abs] = `-> ${await fs.readlink(abs)}`;
    else out[abs] = `${stat.mode & 0o111 ? 'x ' : ''}${new TextDecoder().decode(await fs.readFile(abs))}`;
  }
  return out;
}

describe('restoring a snapshot, comparing trees folder by folder', () => {
  it.each([11, 12, 13])(
    'brings back exactly the files, folders, links and modes each snapshot held (seed %i)',
    async (seed) => {
      const rng = createRng(seed);
      const fs = createMemoryFs({ 'keep/same.txt': 'never changes\n' });
      const ws = createWorkspace({ fs });
      const call = async (tool: string, args: Out): Promise<Out | null> => {
        const r = await ws.call(tool, args);
        return r.ok ? (r.result as Out) : null;
      };
      const names = ['a', 'b', 'c'];
      const path = () => Array.from({ length: 1 + rng.int(3) }, () => rng.pick(names)).join('/');
      const seen: Array<{ id: string; files: Record<string, string> }> = [];
      for (let round = 0; round < 40; round++) {
        // a few changes of every kind, including a file replacing a folder and the other way round
        for (let k = 0; k < 3; k++) {
          const kind = rng.pick(['write', 'write', 'delete', 'move', 'mkdir', 'exec', 'flip', 'link'] as const);
          if (kind === 'write') await call('write_file', { path: path(), content: `r${round} k${k}\n` });
          if (kind === 'delete') await call('delete_path', { path: path(), recursive: true });
          if (kind === 'move') await call('move_path', { from: path(), to: path() });
          if (kind === 'mkdir') await call('create_directory', { path: path() });
          if (kind === 'exec') {
            const p = `/${path()}`;
            await fs.writeFile(p, `exec ${round}\n`, { mode: 0o755 }).catch(() => {});
          }
          if (kind === 'flip') {
            // the same bytes, the executable bit turned: a change of mode alone
            const p = `/${path()}`;
            const stat = await fs.lstat(p).catch(() => null);
            if (stat?.type === 'file')
              await fs.writeFile(p, await fs.readFile(p), { mode: stat.mode & 0o111 ? 0o644 : 0o755 });
          }
          if (kind === 'link') {
            const p = `/${path()}`;
            await fs.symlink(rng.pick(['a', '../b', 'keep/same.txt']), p).catch(() => {});
          }
        }
        // changes made behind the tools' back are taken by a rescan before the snapshot is listed
        await ws.rescan();
        const [head] = (await call('list_snapshots', { limit: 1 }))!.snapshots as Out[];
        seen.push({ id: head!.id, files: await listing(fs) });
        if (round % 4 === 3) {
          const back = rng.pick(seen);
          const restored = await call('restore_snapshot', { id: back.id });
          expect(restored, `round ${round}: restore ${back.id}`).not.toBeNull();
          expect(await listing(fs), `round ${round}: after restoring ${back.id}`).toEqual(back.files);
        }
      }
    },
  );
});
