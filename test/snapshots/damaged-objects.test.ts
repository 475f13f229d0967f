import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { objectId } from '../../src/snapshots/sha1.js';
import { checkHistory, repairHistory } from '../../src/snapshots/repair.js';

const enc = (s: string) => new TextEncoder().encode(s);
const objectPath = (gitdir: string, oid: string) => `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;

const made: string[] = [];
afterEach(async () => {
  for (const d of made.splice(0)) await rm(d, { recursive: true, force: true });
});

async function backends(): Promise<Array<{ label: string; fs: WorkspaceFs; root: string }>> {
  const dir = await mkdtemp(join(tmpdir(), 'sandpit-damaged-object-'));
  made.push(dir);
  return [
    { label: 'memory', fs: createMemoryFs({ '/ws/a.txt': 'a\n' }), root: '/ws' },
    { label: 'node', fs: createNodeFs(), root: dir },
  ];
}

const HARMS: Array<[string, (fs: WorkspaceFs, path: string) => Promise<void>]> = [
  ['deleted', (fs, path) => fs.unlink(path)],
  ['overwritten with garbage', (fs, path) => fs.writeFile(path, enc('garbage'))],
];

describe('a snapshot whose blob is damaged', () => {
  for (const [how, harm] of HARMS) {
    it(`is reported by the check (doctor), named, and undo says the history is damaged: a blob ${how}`, async () => {
      for (const { label, fs, root } of await backends()) {
        const ws = createWorkspace({ fs, root });
        for (const content of ['unique 1\n', 'unique 2\n', 'changed\n'])
          expect(
            (await ws.call('write_file', { path: content === 'unique 1\n' ? 'f1.txt' : 'f2.txt', content })).ok,
          ).toBe(true);
        await ws.close();
        const gitdir = `${root}/.sandpit/git`;
        expect((await checkHistory(fs, gitdir)).healthy, label).toBe(true);
        const blob = objectId('blob', enc('unique 2\n'));
        await harm(fs, objectPath(gitdir, blob));

        const report = await checkHistory(fs, gitdir);
        expect(report.healthy, label).toBe(false);
        expect(report.damage, label).toContain(blob.slice(0, 12));
        expect(report.damage, label).toContain('f2.txt');

        const broken = createWorkspace({ fs, root });
        // undo puts back f2.txt's earlier bytes: the damaged blob
        const undo = await broken.call('undo', {});
        expect(undo.ok, label).toBe(false);
        if (!undo.ok) {
          expect(undo.error.code, label).toBe('IO_ERROR');
          expect(undo.error.message, label).toMatch(/damaged/);
          expect(`${undo.error.message} ${undo.error.hint}`, label).toContain('doctor --repair');
        }
        await broken.close();

        // the repair resets to the newest snapshot that reads whole: the one before f2.txt
        const repaired = await repairHistory(fs, gitdir);
        expect(repaired.repairedTo, label).not.toBeNull();
        expect((await checkHistory(fs, gitdir)).healthy, label).toBe(true);
      }
    });
  }
});
