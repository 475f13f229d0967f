import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/index.js';
import { buildCli, repoRoot } from '../cli/built-cli.js';

let root: string;
beforeAll(async () => {
  await buildCli();
  root = await mkdtemp(join(tmpdir(), 'sandpit-verdict-race-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

/**
 * A reviewer in a process of its own (the built package): it opens the folder, lists the hunks,
 * says `ready`, and on `go` from stdin rejects one hunk and accepts another, then says `done`.
 */
function reviewer(reject: number, accept: number) {
  const script = `
    const { openNodeWorkspace } = await import(${JSON.stringify(join(repoRoot, 'dist/node/index.js'))});
    const ws = openNodeWorkspace(${JSON.stringify(root)});
    const listed = await ws.review.hunks();
    const ids = listed.result.hunks.map((h) => h.id);
    process.stdout.write('ready\\n');
    await new Promise((go) => process.stdin.once('data', go));
    const rejected = await ws.review.reject([ids[${reject}]], 'reviewer ${reject} says no');
    const accepted = await ws.review.accept([ids[${accept}]]);
    await ws.close();
    process.stdout.write(JSON.stringify({ rejected: rejected.ok, accepted: accepted.ok }) + '\\ndone\\n');
    process.exit(0);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const waiters: Array<() => void> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const wake of waiters.splice(0)) wake();
  });
  /** resolves once the child has written `line` (or ended without it) */
  const said = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (out.split('\n').includes(line)) resolve();
        else if (child.exitCode !== null) reject(new Error(`reviewer ended without '${line}': ${out}`));
        else waiters.push(check);
      };
      child.once('exit', check);
      check();
    });
  return { child, said, out: () => out };
}

describe('verdicts given at the same moment in two processes', () => {
  it('keeps every verdict and every rejection note in the persisted journal', async () => {
    await writeFile(join(root, 'a.txt'), numbered(40));
    const ws = openNodeWorkspace(root);
    await ws.call('read_file', { path: 'a.txt' });
    let text = numbered(40);
    for (const n of [3, 13, 23, 33]) text = text.replace(`line ${n}\n`, `CHANGED ${n}\n`);
    expect((await ws.call('write_file', { path: 'a.txt', content: text }, { actor: 'agent:one' })).ok).toBe(true);
    const hunks = await ws.review.hunks();
    expect(hunks.ok && hunks.result.hunks).toHaveLength(4);
    await ws.close();

    // two reviewers, each in its own process, both wait for the word and then give their verdicts
    const first = reviewer(0, 1);
    const second = reviewer(2, 3);
    await Promise.all([first.said('ready'), second.said('ready')]);
    first.child.stdin.write('go\n');
    second.child.stdin.write('go\n');
    await Promise.all([first.said('done'), second.said('done')]);
    for (const r of [first, second]) expect(r.out()).toContain('{"rejected":true,"accepted":true}');

    const again = openNodeWorkspace(root);
    const listed = await again.review.hunks();
    if (!listed.ok) throw new Error(listed.error.message);
    expect(
      listed.result.hunks
        .filter((h) => h.change_id === listed.result.hunks[0]!.change_id)
        .map((h) => [h.status, h.reason]),
    ).toEqual([
      ['rejected', 'reviewer 0 says no'],
      ['accepted', undefined],
      ['rejected', 'reviewer 2 says no'],
      ['accepted', undefined],
    ]);
    // both reverts applied, and both notes wait for the next agent run
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe(
      text.replace('CHANGED 3\n', 'line 3\n').replace('CHANGED 23\n', 'line 23\n'),
    );
    await again.review.drain();
    const notes = again.review.inbox.take().map((n) => n.text);
    expect(notes).toHaveLength(2);
    expect(notes.some((n) => n.includes('"reviewer 0 says no"'))).toBe(true);
    expect(notes.some((n) => n.includes('"reviewer 2 says no"'))).toBe(true);
    await again.close();
  });
});
