import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type Workspace } from '../../src/index.js';
import { openNodeWorkspace } from '../../src/node/index.js';

/** The owner of each line as the test knows it: the change that last wrote it (null: there from the start). */
interface Line {
  text: string;
  owner: string | null;
  actor: string | null;
}

/** A small deterministic generator (mulberry32), so a failing sequence can be replayed from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const joinLines = (lines: Line[]) => lines.map((l) => `${l.text}\n`).join('');

/** Blame flattened to one owner per line, to compare with the ground truth. */
async function owners(ws: Workspace, path: string): Promise<Array<[string | null, string | null]>> {
  const blamed = await ws.blame(path);
  if (!blamed.ok) throw new Error(blamed.error.message);
  return blamed.result.ranges.flatMap((r) =>
    Array.from({ length: r.end_line - r.start_line + 1 }, (): [string | null, string | null] => [r.change_id, r.actor]),
  );
}

describe('blame', () => {
  for (const seed of [1, 7, 2026]) {
    it(`matches the ground truth through edits, patches, sed -i in the shell and undo (seed ${seed})`, async () => {
      const next = random(seed);
      let made = 0;
      const fresh = () => `v${++made}`;
      let lines: Line[] = Array.from({ length: 30 }, (_, i) => ({ text: `start ${i}`, owner: null, actor: null }));
      const fs = createMemoryFs({ 'f.txt': joinLines(lines) });
      const ws = createWorkspace({ fs });
      const stack: Line[][] = [];
      let lastWasChange = false;
      const seen = new Set<number>();
      const actors = ['alice', 'bob', 'agent:scripted'];
      for (let step = 0; step < 40; step++) {
        await ws.call('read_file', { path: 'f.txt' });
        const actor = actors[Math.floor(next() * actors.length)]!;
        const options = { actor, call_id: `call_${step}` };
        const at = Math.floor(next() * lines.length);
        const kind: number =
          lines.length < 5 ? 0 : stack.length > 0 && lastWasChange && next() < 0.2 ? 4 : Math.floor(next() * 4);
        seen.add(kind);
        let envelope;
        let apply: (id: string) => Line[];
        if (kind === 0) {
          const text = fresh();
          envelope = await ws.call(
            'edit_file',
            { path: 'f.txt', old_text: `${lines[at]!.text}\n`, new_text: `${lines[at]!.text}\n${text}\n` },
            options,
          );
          apply = (id) => [...lines.slice(0, at + 1), { text, owner: id, actor }, ...lines.slice(at + 1)];
        } else if (kind === 1) {
          const text = fresh();
          const patch = [
            '*** Begin Patch',
            '*** Update File: f.txt',
            '@@',
            `-${lines[at]!.text}`,
            `+${text}`,
            `+${text}b`,
            '*** End Patch',
          ].join('\n');
          envelope = await ws.call('apply_patch', { patch }, options);
          apply = (id) => [
            ...lines.slice(0, at),
            { text, owner: id, actor },
            { text: `${text}b`, owner: id, actor },
            ...lines.slice(at + 1),
          ];
        } else if (kind === 2) {
          const text = fresh();
          envelope = await ws.call(
            'run_command',
            { command: `sed -i 's/^${lines[at]!.text}$/${text}/' f.txt` },
            options,
          );
          apply = (id) => lines.map((l, i) => (i === at ? { text, owner: id, actor } : l));
        } else if (kind === 3) {
          envelope = await ws.call(
            'edit_file',
            { path: 'f.txt', old_text: `${lines[at]!.text}\n`, new_text: '' },
            options,
          );
          apply = () => lines.filter((_, i) => i !== at);
        } else {
          envelope = await ws.call('undo', {}, options);
          apply = () => stack.pop()!;
        }
        if (!envelope.ok) throw new Error(`step ${step} (${kind}): ${envelope.error.message}`);
        const id = (envelope.result as { change_id: string }).change_id;
        expect(id).toMatch(/^chg_/);
        if (kind !== 4) stack.push(lines);
        lines = apply(id);
        lastWasChange = kind !== 4;
        expect(new TextDecoder().decode(await fs.readFile('/f.txt'))).toBe(joinLines(lines));
        expect(await owners(ws, 'f.txt')).toEqual(lines.map((l) => [l.owner, l.actor]));
      }
      expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
      const blamed = await ws.blame('f.txt');
      const withCall = blamed.ok && blamed.result.ranges.find((r) => r.change_id !== null);
      expect(withCall && withCall.call_id).toMatch(/^call_\d+$/);
    });
  }

  it('attributes lines a real program changed (run_command on node) to that call', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandpit-blame-'));
    try {
      await writeFile(join(root, 'g.txt'), 'one\ntwo\nthree\n');
      const ws = openNodeWorkspace(root);
      const edit = await ws.call('edit_file', { path: 'g.txt', old_text: 'one', new_text: 'ONE' }, { actor: 'alice' });
      expect(edit.ok).toBe(true);
      const run = await ws.call(
        'run_command',
        { command: ['sed', '-i', 's/three/THREE/', 'g.txt'] },
        { actor: 'bob', call_id: 'tc_9' },
      );
      expect(run.ok && (run.result as { change_id?: string }).change_id).toMatch(/^chg_/);
      expect(await readFile(join(root, 'g.txt'), 'utf8')).toBe('ONE\ntwo\nTHREE\n');
      const blamed = await ws.blame('g.txt');
      expect(
        blamed.ok && blamed.result.ranges.map((r) => [r.start_line, r.end_line, r.actor, r.call_id, r.tool]),
      ).toEqual([
        [1, 1, 'alice', null, 'edit_file'],
        [2, 2, null, null, null],
        [3, 3, 'bob', 'tc_9', 'run_command'],
      ]);
      // a person's edit behind the tools' back is nobody's the log knows
      await writeFile(join(root, 'g.txt'), 'ONE\ntwo!\nTHREE\n');
      const after = await ws.blame('g.txt');
      expect(after.ok && after.result.ranges.map((r) => r.actor)).toEqual(['alice', null, 'bob']);
      expect(after.ok && after.result.ranges[1]).toMatchObject({ start_line: 2, end_line: 2, change_id: null });
      await ws.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("refuses what it cannot blame with read_file's codes", async () => {
    const fs = createMemoryFs({ 'bin.dat': new Uint8Array([0, 1, 2]) as any });
    const ws = createWorkspace({ fs });
    expect(await ws.blame('missing.txt')).toMatchObject({ ok: false, tool: 'blame', error: { code: 'NOT_FOUND' } });
    expect(await ws.blame('../x')).toMatchObject({ ok: false, error: { code: 'OUTSIDE_WORKSPACE' } });
    expect(await ws.blame('bin.dat')).toMatchObject({ ok: false, error: { code: 'BINARY_FILE' } });
    expect(await ws.blame(7 as any)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });
});
