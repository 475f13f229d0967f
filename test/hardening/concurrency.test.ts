import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import {
  createMemoryFs,
  createWorkspace,
  gitFsClient,
  type Envelope,
  type Workspace,
  type WorkspaceFs,
} from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { recordFigures } from './figures.js';
import { createRng, type Rng } from './rng.js';
import { SEED, SIZES, replayHint } from './sizes.js';

/**
 * Calls designed so any serial order is checkable: each client owns its files (so their final
 * bytes follow from its own calls alone), appends numbered lines to shared logs (every
 * acknowledged line once, in each client's order), and bumps a shared counter with
 * compare-and-swap edits (final count = acknowledged bumps: no lost update).
 */
interface Outcome {
  broken: string[];
  calls: number;
  lost: number;
  partial: number;
  uncaught: number;
  counter: number;
}

const LOGS = ['shared/log0.txt', 'shared/log1.txt', 'shared/log2.txt'];

async function client(
  ws: Workspace,
  c: number,
  rng: Rng,
  calls: number,
  out: Outcome,
  appended: Map<string, string[]>,
): Promise<Map<string, string | undefined>> {
  const model = new Map<string, string | undefined>();
  const own = (k: number) => `c${c}/f${k}.txt`;
  const expectOk = (env: Envelope, what: string) => {
    if (!env.ok) out.broken.push(`client ${c} ${what}: ${env.error.code} ${env.error.message.slice(0, 150)}`);
    return env.ok;
  };
  for (let i = 0; i < calls; i++) {
    out.calls++;
    const name = own(rng.int(4));
    const cur = model.get(name);
    const roll = rng.int(100);
    if (roll < 15) {
      const content = `c${c} v${i}\n`;
      if (expectOk(await ws.call('write_file', { path: name, content }), `write ${name}`)) model.set(name, content);
    } else if (roll < 30) {
      if (expectOk(await ws.call('append_file', { path: name, content: `a${i}\n` }), `append ${name}`))
        model.set(name, (cur ?? '') + `a${i}\n`);
    } else if (roll < 40 && cur !== undefined) {
      // the whole first line, newline included: at full size `a1` is also inside `a12`, `a13`, ...
      const first = cur.slice(0, cur.indexOf('\n') + 1);
      await ws.call('read_file', { path: name });
      if (
        expectOk(await ws.call('edit_file', { path: name, old_text: first, new_text: `c${c} e${i}\n` }), `edit ${name}`)
      )
        model.set(name, cur.replace(first, `c${c} e${i}\n`));
    } else if (roll < 45 && cur !== undefined) {
      const to = own(rng.int(4));
      if (to === name) continue;
      if (model.get(to) !== undefined) await ws.call('read_file', { path: to });
      if (expectOk(await ws.call('move_path', { from: name, to, overwrite: true }), `move ${name} -> ${to}`)) {
        model.set(to, cur);
        model.delete(name);
      }
    } else if (roll < 50 && cur !== undefined) {
      if (expectOk(await ws.call('delete_path', { path: name }), `delete ${name}`)) model.delete(name);
    } else if (roll < 72) {
      const log = rng.pick(LOGS);
      const line = `c${c} #${i}`;
      const env = await ws.call('append_file', { path: log, content: `${line}\n` });
      if (env.ok) appended.get(log)!.push(line);
      else out.broken.push(`client ${c} append ${log}: ${env.error.code}`);
    } else if (roll < 82) {
      // compare-and-swap: read, then edit guarded by the hash just read; a lost race is STALE_FILE and retried
      for (let attempt = 0; attempt < 50; attempt++) {
        const read = await ws.call<{ content: string; sha256: string }>('read_file', { path: 'shared/counter.txt' });
        if (!expectOk(read, 'read counter')) break;
        const { content, sha256 } = (read as { result: { content: string; sha256: string } }).result;
        const n = Number(/count (\d+)/.exec(content)![1]);
        const env = await ws.call('edit_file', {
          path: 'shared/counter.txt',
          old_text: `count ${n}\n`,
          new_text: `count ${n + 1}\n`,
          expected_sha256: sha256,
        });
        if (env.ok) {
          out.counter++;
          break;
        }
        if (env.error.code !== 'STALE_FILE' && env.error.code !== 'NO_MATCH') {
          out.broken.push(`client ${c} bump: ${env.error.code}`);
          break;
        }
      }
    } else {
      const env = await ws.call(
        ...rng.pick<[string, Record<string, unknown>]>([
          ['read_file', { path: rng.pick(LOGS) }],
          ['list_directory', { path: '.', recursive: true }],
          ['glob', { pattern: '**/*.txt' }],
          ['search_files', { pattern: `c${c} ` }],
          ['exists', { path: name }],
          ['file_bytes', { path: 'shared/counter.txt' }],
        ]),
      );
      if (!env.ok && env.error.code !== 'NOT_FOUND') out.broken.push(`client ${c} ${env.tool}: ${env.error.code}`);
    }
  }
  return model;
}

async function run(backend: string, fs: WorkspaceFs, root: string): Promise<Outcome> {
  const out: Outcome = { broken: [], calls: 0, lost: 0, partial: 0, uncaught: 0, counter: 0 };
  const ws = createWorkspace({ fs, root });
  for (const p of ['shared/counter.txt'])
    expect((await ws.call('write_file', { path: p, content: 'count 0\n' })).ok).toBe(true);
  const appended = new Map(LOGS.map((l) => [l, [] as string[]]));
  const rng = createRng(SEED).fork(`concurrency/${backend}`);
  const models = await Promise.all(
    Array.from({ length: SIZES.clients }, (_, c) =>
      client(ws, c, rng.fork(`client ${c}`), SIZES.callsPerClient, out, appended).catch((error) => {
        out.uncaught++;
        out.broken.push(`client ${c} threw ${String(error)}`);
        return new Map<string, string | undefined>();
      }),
    ),
  );
  const text = async (rel: string) =>
    fs
      .readFile(`${root}/${rel}`)
      .then((b) => new TextDecoder().decode(b))
      .catch(() => undefined);
  for (const [c, model] of models.entries()) {
    for (let k = 0; k < 4; k++) {
      const name = `c${c}/f${k}.txt`;
      const disk = await text(name);
      if (disk !== model.get(name)) {
        out.lost++;
        out.broken.push(
          `${name}: disk ${JSON.stringify(disk)} but the client's own calls leave ${JSON.stringify(model.get(name))}`,
        );
      }
    }
  }
  for (const log of LOGS) {
    const lines = ((await text(log)) ?? '').split('\n').filter(Boolean);
    const acked = appended.get(log)!;
    const missing = acked.filter((l) => !lines.includes(l));
    const extra = lines.filter((l) => !acked.includes(l));
    const dupes = lines.length - new Set(lines).size;
    out.lost += missing.length;
    out.partial += extra.length + dupes;
    if (missing.length || extra.length || dupes)
      out.broken.push(
        `${log}: ${missing.length} acknowledged lines missing, ${extra.length} unacknowledged, ${dupes} twice`,
      );
    for (let c = 0; c < SIZES.clients; c++) {
      const mine = lines.filter((l) => l.startsWith(`c${c} #`)).map((l) => Number(l.split('#')[1]));
      if (mine.some((n, i) => i > 0 && n < mine[i - 1]!))
        out.broken.push(`${log}: client ${c}'s lines are out of its order`);
    }
  }
  const counter = await text('shared/counter.txt');
  if (counter !== `count ${out.counter}\n`) {
    out.lost++;
    out.broken.push(`counter holds ${JSON.stringify(counter)} after ${out.counter} acknowledged bumps`);
  }
  // the history is readable and its latest snapshot is the tree on disk
  const snap = await ws.call('snapshot', { message: 'after the storm' });
  if (!snap.ok && snap.error.code !== 'NO_MATCH') out.broken.push(`snapshot: ${JSON.stringify(snap.error)}`);
  const list = await ws.call('list_snapshots', { limit: 1000 });
  if (!list.ok) out.broken.push(`list_snapshots: ${JSON.stringify(list.error)}`);
  const gitdir = `${root}/.sandpit/git`;
  const log = await git.log({ fs: gitFsClient(fs), gitdir, depth: 2000 }).catch((e) => {
    out.broken.push(`isomorphic-git log: ${String(e)}`);
    return [];
  });
  if (log.length < 2) out.broken.push(`only ${log.length} commits in the history`);
  const head = log[0];
  if (head) {
    for (const [c] of models.entries()) {
      const disk = await text(`c${c}/f0.txt`);
      const inGit = await git
        .readBlob({ fs: gitFsClient(fs), gitdir, oid: head.oid, filepath: `c${c}/f0.txt` })
        .then((b) => new TextDecoder().decode(b.blob))
        .catch(() => undefined);
      if (disk !== inGit)
        out.broken.push(
          `c${c}/f0.txt: the latest snapshot holds ${JSON.stringify(inGit)}, the disk ${JSON.stringify(disk)}`,
        );
    }
  }
  await ws.close();
  return out;
}

describe('hardening: concurrent clients on one workspace', () => {
  const backends: Array<{ name: string; make: () => { fs: WorkspaceFs; root: string; done: () => void } }> = [
    {
      name: 'memory',
      make: () => {
        const fs = createMemoryFs();
        return { fs, root: '/', done: () => {} };
      },
    },
    {
      name: 'node',
      make: () => {
        const root = nodeFs.mkdtempSync(join(tmpdir(), 'sandpit-conc-'));
        return { fs: createNodeFs(), root, done: () => nodeFs.rmSync(root, { recursive: true, force: true }) };
      },
    },
  ];
  for (const backend of backends) {
    it(`${backend.name}: ${SIZES.clients} clients x ${SIZES.callsPerClient} mixed calls end in a serial order, with a readable history`, async () => {
      console.log(replayHint(`concurrency/${backend.name}`));
      const { fs, root, done } = backend.make();
      try {
        const out = await run(backend.name, fs, root);
        if (backend.name === 'node') {
          const r = spawnSync('git', ['--git-dir', join(root, '.sandpit', 'git'), 'fsck', '--no-dangling'], {
            encoding: 'utf8',
          });
          if (r.status !== 0) out.broken.push(`git fsck: ${r.stderr.slice(0, 300)}`);
        }
        console.log(
          `[hardening concurrency/${backend.name}] calls=${out.calls} lost=${out.lost} partial=${out.partial} uncaught=${out.uncaught} counter=${out.counter}`,
        );
        recordFigures({
          area: 'concurrency',
          backend: backend.name,
          attempts: out.calls,
          escapes: 0,
          uncaught: out.uncaught,
          partial: out.partial,
          lost: out.lost,
          torn: 0,
          note: `${SIZES.clients} clients; ${out.counter} compare-and-swap bumps all kept`,
        });
        expect(out.broken, replayHint(`concurrency/${backend.name}`)).toEqual([]);
      } finally {
        done();
      }
    });
  }
});
