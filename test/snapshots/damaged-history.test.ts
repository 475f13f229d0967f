import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import git from 'isomorphic-git';
import { gitFsClient } from '../../src/fs/git-client.js';
import { FIRST_OPEN_MARK } from '../../src/snapshots/branch.js';
import { checkHistory, repairHistory } from '../../src/snapshots/repair.js';

type Damage = {
  name: string;
  survivor: 'head' | 'parent';
  harm(fs: WorkspaceFs, gitdir: string, head: string): Promise<void>;
};

const enc = (s: string) => new TextEncoder().encode(s);
const objectPath = (gitdir: string, oid: string) => `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;

const DAMAGES: Damage[] = [
  {
    name: 'garbage in the ref',
    survivor: 'head',
    harm: (fs, g) => fs.writeFile(`${g}/refs/heads/main`, enc('not a commit id at all\n')),
  },
  { name: 'a truncated ref', survivor: 'head', harm: (fs, g) => fs.writeFile(`${g}/refs/heads/main`, enc('')) },
  {
    name: 'half a commit id',
    survivor: 'head',
    harm: async (fs, g, head) => fs.writeFile(`${g}/refs/heads/main`, enc(head.slice(0, 20))),
  },
  {
    name: 'a ref naming a missing object',
    survivor: 'head',
    harm: (fs, g) => fs.writeFile(`${g}/refs/heads/main`, enc(`${'ab'.repeat(20)}\n`)),
  },
  { name: 'a deleted ref', survivor: 'head', harm: (fs, g) => fs.unlink(`${g}/refs/heads/main`) },
  { name: 'the newest commit deleted', survivor: 'parent', harm: (fs, g, head) => fs.unlink(objectPath(g, head)) },
  {
    name: 'the newest commit overwritten with garbage',
    survivor: 'parent',
    harm: (fs, g, head) => fs.writeFile(objectPath(g, head), enc('garbage')),
  },
];

const made: string[] = [];
afterEach(async () => {
  for (const d of made.splice(0)) await rm(d, { recursive: true, force: true });
});

async function backends(): Promise<Array<{ label: string; fs: WorkspaceFs; root: string }>> {
  const dir = await mkdtemp(join(tmpdir(), 'sandpit-damage-'));
  made.push(dir);
  return [
    { label: 'memory', fs: createMemoryFs({ '/ws/a.txt': 'a\n' }), root: '/ws' },
    { label: 'node', fs: createNodeFs(), root: dir },
  ];
}

describe('a damaged snapshot history', () => {
  for (const damage of DAMAGES) {
    it(`is reported, never restarted, and repaired: ${damage.name}`, async () => {
      for (const { label, fs, root } of await backends()) {
        const ws = createWorkspace({ fs, root });
        for (let i = 1; i <= 3; i++)
          expect((await ws.call('write_file', { path: `f${i}.txt`, content: `${i}\n` })).ok).toBe(true);
        const before = await ws.call<{ snapshots: Array<{ id: string; oid?: string }> }>('list_snapshots', {});
        if (!before.ok) throw new Error(JSON.stringify(before.error));
        const gitdir = `${root}/.sandpit/git`;
        const head = new TextDecoder().decode(await fs.readFile(`${gitdir}/refs/heads/main`)).trim();
        const parent = ws.snapshots!.history.chain.at(-2)!.oid;
        await ws.close();
        await damage.harm(fs, gitdir, head);
        const refBefore = await fs.readFile(`${gitdir}/refs/heads/main`).then(
          (b) => new TextDecoder().decode(b),
          () => null,
        );

        const broken = createWorkspace({ fs, root });
        const list = await broken.call('list_snapshots', {});
        expect(list.ok, label).toBe(false);
        if (!list.ok) {
          expect(list.error.code).toBe('IO_ERROR');
          expect(list.error.message).toContain('damaged');
          expect(list.error.hint).toContain('doctor --repair');
        }
        const undo = await broken.call('undo', {});
        expect(undo.ok ? 'ok' : undo.error.code).toBe('IO_ERROR');
        const write = await broken.call<{ snapshot_error?: { code: string; message: string } }>('write_file', {
          path: 'after.txt',
          content: 'later\n',
        });
        expect(write.ok).toBe(true);
        if (write.ok) expect(write.result.snapshot_error?.code).toBe('IO_ERROR');
        // nothing started a new history over the damaged one
        expect(
          await fs.readFile(`${gitdir}/refs/heads/main`).then(
            (b) => new TextDecoder().decode(b),
            () => null,
          ),
        ).toBe(refBefore);
        expect((await checkHistory(fs, gitdir)).healthy).toBe(false);

        const repaired = await repairHistory(fs, gitdir);
        expect(repaired.repairedTo, label).toBe(damage.survivor === 'head' ? head : parent);
        const healed = createWorkspace({ fs, root });
        const after = await healed.call<{ snapshots: Array<{ message: string }> }>('list_snapshots', { limit: 50 });
        if (!after.ok) throw new Error(JSON.stringify(after.error));
        const messages = after.result.snapshots.map((s) => s.message);
        expect(messages.some((m) => m.startsWith('write_file: f2.txt'))).toBe(true);
        expect(messages).toContain('Workspace opened');
        expect(messages[0]).toBe('Changes found when the workspace was opened');
        expect((await healed.call('undo', {})).ok).toBe(true);
      }
    });
  }

  it('starts afresh where a kill cut the first open off before its first commit, and nowhere else', async () => {
    for (const { label, fs, root } of await backends()) {
      const gitdir = `${root}/.sandpit/git`;
      // what a kill between `git init` and the first commit leaves: the mark, HEAD, no branch
      await fs.mkdir(gitdir, { recursive: true });
      await fs.writeFile(`${gitdir}/${FIRST_OPEN_MARK}`, new Uint8Array(0));
      await git.init({ fs: gitFsClient(fs), gitdir, bare: true, defaultBranch: 'main' });
      const ws = createWorkspace({ fs, root });
      const listed = await ws.call<{ snapshots: Array<{ message: string }> }>('list_snapshots', {});
      if (!listed.ok) throw new Error(`${label}: ${JSON.stringify(listed.error)}`);
      expect(
        listed.result.snapshots.map((s) => s.message),
        label,
      ).toEqual(['Workspace opened']);
      await expect(fs.stat(`${gitdir}/${FIRST_OPEN_MARK}`), label).rejects.toBeTruthy();
      // a mark a kill left just after the first commit goes at the next open, so a ref lost later is damage
      await fs.writeFile(`${gitdir}/${FIRST_OPEN_MARK}`, new Uint8Array(0));
      expect(
        (await createWorkspace({ fs, root }).call('write_file', { path: 'n.txt', content: 'n\n' })).ok,
        label,
      ).toBe(true);
      await fs.unlink(`${gitdir}/refs/heads/main`);
      const after = await createWorkspace({ fs, root }).call('list_snapshots', {});
      expect(after.ok ? null : after.error.message, label).toMatch(/missing, though the repository exists/);
    }
  });

  it('repairs to the first snapshot, kept in a pack, when every later commit is gone', async () => {
    for (const { label, fs, root } of await backends()) {
      const ws = createWorkspace({ fs, root });
      expect((await ws.call('write_file', { path: 'f.txt', content: 'f\n' })).ok).toBe(true);
      const [first, second] = ws.snapshots!.history.chain.map((s) => s.oid);
      await ws.close();
      const gitdir = `${root}/.sandpit/git`;
      await fs.unlink(objectPath(gitdir, second!));
      await fs.unlink(`${gitdir}/refs/heads/main`);
      expect((await checkHistory(fs, gitdir)).healthy).toBe(false);
      const repaired = await repairHistory(fs, gitdir);
      expect(repaired.repairedTo, label).toBe(first);
      const listed = await createWorkspace({ fs, root }).call<{ snapshots: Array<{ message: string }> }>(
        'list_snapshots',
        {},
      );
      if (!listed.ok) throw new Error(`${label}: ${JSON.stringify(listed.error)}`);
      expect(listed.result.snapshots.map((s) => s.message).at(-1), label).toBe('Workspace opened');
    }
  });

  it('leaves a healthy history alone', async () => {
    const fs = createMemoryFs({ '/ws/a.txt': 'a\n' });
    const ws = createWorkspace({ fs, root: '/ws' });
    await ws.call('write_file', { path: 'b.txt', content: 'b\n' });
    const report = await repairHistory(fs, '/ws/.sandpit/git');
    expect(report).toMatchObject({ healthy: true, repairedTo: null, snapshots: 2 });
  });
});
