import { describe, expect, it } from '../api.js';
import { createWorkspace, type Workspace, type WorkspaceFs } from '../../index.js';
import { faultyFs, MUTATING_OPS, type FaultPlan, type FsOp } from '../faulty-fs.js';
import type { BackendUnderTest } from '../backend.js';
import { open, type Harness } from '../harness.js';

type Call = [tool: string, args: Record<string, unknown>];

interface Scenario {
  name: string;
  seed: Record<string, string | Uint8Array>;
  /** calls made first, with no faults (a read, so the ledger knows the file) */
  prepare?: Call[];
  call: Call;
  /** work after the change is done that may fail without failing the call (emptying the trash) */
  mayAbsorbLateFailures?: boolean;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'write_file: a new file in a new nested folder',
    seed: { 'keep.txt': 'k\n' },
    call: ['write_file', { path: 'n1/n2/new.txt', content: 'new\n' }],
  },
  {
    name: 'write_file: overwrite',
    seed: { 'f.txt': 'old\r\nkept\r\n' },
    prepare: [['read_file', { path: 'f.txt' }]],
    call: ['write_file', { path: 'f.txt', content: 'new\nkept\n' }],
  },
  {
    name: 'append_file: an existing file',
    seed: { 'f.txt': 'a\n' },
    call: ['append_file', { path: 'f.txt', content: 'b\n' }],
  },
  {
    name: 'append_file: a new file in a new folder',
    seed: {},
    call: ['append_file', { path: 'n1/new.txt', content: 'b\n' }],
  },
  {
    name: 'edit_file',
    seed: { 'f.txt': 'one\ntwo\nthree\n' },
    prepare: [['read_file', { path: 'f.txt' }]],
    call: ['edit_file', { path: 'f.txt', old_text: 'two', new_text: 'TWO' }],
  },
  { name: 'create_directory: nested', seed: { 'keep.txt': 'k\n' }, call: ['create_directory', { path: 'd1/d2/d3' }] },
  {
    name: 'move_path: a file into a new nested folder',
    seed: { 'src/f.txt': 'f\n', 'src/g.txt': 'g\n' },
    call: ['move_path', { from: 'src/f.txt', to: 'n1/n2/f.txt' }],
  },
  {
    name: 'move_path: a folder into a new nested folder',
    seed: { 'src/a.txt': 'a\n', 'src/sub/b.txt': 'b\n' },
    call: ['move_path', { from: 'src', to: 'n1/n2/dst' }],
  },
  {
    name: 'move_path: over an existing file',
    seed: { 'a.txt': 'a\n', 'b.txt': 'b\n' },
    prepare: [['read_file', { path: 'b.txt' }]],
    call: ['move_path', { from: 'a.txt', to: 'b.txt', overwrite: true }],
  },
  {
    name: 'delete_path: a file',
    seed: { 'd/f.txt': 'f\n', 'd/g.txt': 'g\n' },
    call: ['delete_path', { path: 'd/f.txt' }],
  },
  {
    name: 'delete_path: a folder, recursively',
    seed: { 'd/a.txt': 'a\n', 'd/s/b.txt': 'b\n', 'keep.txt': 'k\n' },
    call: ['delete_path', { path: 'd', recursive: true }],
    mayAbsorbLateFailures: true,
  },
];

/** Scenarios also run with snapshots on, where the shadow repository's writes can fail too. */
const SNAPSHOTTED = [
  'write_file: a new file in a new nested folder',
  'edit_file',
  'move_path: a folder into a new nested folder',
  'delete_path: a folder, recursively',
];

const FAILURES: Array<{ failure: NonNullable<FaultPlan['failure']>; code: string }> = [
  { failure: 'EIO', code: 'IO_ERROR' },
  { failure: 'ENOSPC', code: 'QUOTA_EXCEEDED' },
  { failure: 'QuotaExceededError', code: 'QUOTA_EXCEEDED' },
];

const ALL_OPS: readonly FsOp[] = [...MUTATING_OPS, 'readFile', 'readdir', 'stat', 'lstat', 'readlink'];
const MUTATING = new Set<FsOp>(MUTATING_OPS);

/** The workspace as the tools see it: Sandpit's own folder (where a deleted folder is parked) is left out. */
async function visibleTree(h: Harness): Promise<Record<string, string>> {
  const tree = await h.tree();
  for (const key of Object.keys(tree)) if (key === '.sandpit/' || key.startsWith('.sandpit/')) delete tree[key];
  return tree;
}

/** Which counted operations the failing-storage tests fail: see `ConformanceOptions.faultPoints`. */
export type FaultPoints = 'every' | 'spread';

/** The first, the last and every third of `count` operations. */
function spreadOf(count: number): Set<number> {
  const ks = new Set([1, count]);
  for (let k = 3; k < count; k += 3) ks.add(k);
  return ks;
}

/** One counted operation of a clean run: which method, on which path. */
interface Counted {
  op: FsOp;
  path: string;
}

/** Records each counted operation a clean run makes, below the faulty layer. */
function recordingFs(inner: WorkspaceFs, ops: readonly FsOp[], calls: Counted[]): WorkspaceFs {
  const counted = new Set<string>(ops);
  // faultyFs counts the typed listings as readdir, so they are recorded as readdir too.
  const family = (name: string) => (name === 'readdirTypes' || name === 'readdirStats' ? 'readdir' : name);
  // Every method runs on the backend itself, so one with private fields or bound state still works.
  return new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (typeof name === 'string' && counted.has(family(name)))
        return (...args: unknown[]) => {
          calls.push({ op: family(name) as FsOp, path: String(args[0]) });
          return value.apply(target, args);
        };
      return value.bind(target);
    },
  });
}

/**
 * Run `work` for every k in `ks`, `limit` at a time, and give the results in k's order. Every k
 * has a workspace of its own, so none waits on another's. After an error no new k starts, and the
 * ones running settle before it is thrown, so no k's store is still being written after its test.
 */
async function eachPoint<T>(ks: number[], limit: number, work: (k: number) => Promise<T>): Promise<T[]> {
  const results: PromiseSettledResult<T>[] = new Array(ks.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < ks.length && !failed) {
      const i = next++;
      results[i] = await work(ks[i]!).then(
        (value) => ({ status: 'fulfilled', value }) as const,
        (reason: unknown) => {
          failed = true;
          return { status: 'rejected', reason } as const;
        },
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, ks.length)) }, lane));
  const first = results.find((r): r is PromiseRejectedResult => r?.status === 'rejected');
  if (first) throw first.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

export function faultsContract(backend: BackendUnderTest, points: FaultPoints = 'every', concurrency = 1) {
  describe('failing storage', () => {
    async function setup(sc: Scenario, ops: readonly FsOp[], snapshots = false, record?: Counted[]) {
      // a fresh workspace per failure point, and only the root is ever looked at: no escape targets
      const h = await open(backend, sc.seed, {}, { escapeTargets: false });
      const fs = faultyFs(record ? recordingFs(h.fs, ops, record) : h.fs, { ops });
      // the tools' own writes are counted without snapshots; a pass below turns them on
      const ws: Workspace = createWorkspace({ fs, root: h.root, ...(snapshots ? {} : { snapshots: false as const }) });
      for (const [tool, args] of sc.prepare ?? []) {
        const env = await ws.call(tool, args);
        if (!env.ok) throw new Error(`prepare ${tool} failed: ${JSON.stringify(env.error)}`);
      }
      return { h, fs, ws };
    }

    /** The clean run: how many counted operations the call makes, and the tree it leaves. */
    async function cleanRun(sc: Scenario, ops: readonly FsOp[], snapshots = false) {
      const calls: Counted[] = [];
      const { h, fs, ws } = await setup(sc, ops, snapshots, calls);
      try {
        fs.plan = { ops };
        calls.length = 0;
        const before = await visibleTree(h);
        const env = await ws.call(...sc.call);
        expect(env.ok, JSON.stringify(env)).toBe(true);
        const after = await visibleTree(h);
        expect(after).not.toEqual(before);
        // the counted operations of the call itself, in order: plan.ops restarted the count
        return { count: fs.counted, before, after, calls: calls.slice(-fs.counted) };
      } finally {
        await cleanup(h, snapshots);
      }
    }

    /** Fail the k-th counted operation for every k; return a line per broken rule. */
    async function everyK(
      sc: Scenario,
      ops: readonly FsOp[],
      failure: NonNullable<FaultPlan['failure']>,
      code: string,
      mustFail: (k: number) => boolean,
      snapshots = false,
      which: (count: number, calls: Counted[]) => (k: number) => boolean = () => () => true,
    ) {
      const clean = await cleanRun(sc, ops, snapshots);
      expect(clean.count).toBeGreaterThan(0);
      const tried = which(clean.count, clean.calls);
      const ks = Array.from({ length: clean.count }, (_, i) => i + 1).filter(tried);
      const perPoint = await eachPoint(ks, concurrency, async (k) => {
        const broken: string[] = [];
        const { h, fs, ws } = await setup(sc, ops, snapshots);
        try {
          const changesBefore = ws.changes.list().length;
          fs.plan = { ops, failAt: k, failure };
          expect(await visibleTree(h)).toEqual(clean.before);
          const env = await ws.call(...sc.call);
          const now = await visibleTree(h);
          if (env.ok) {
            if (mustFail(k)) broken.push(`k=${k}: the call succeeded although operation ${k} failed`);
            if (JSON.stringify(now) !== JSON.stringify(clean.after))
              broken.push(`k=${k}: succeeded but the tree is not the clean result`);
            return broken;
          }
          if (env.error.code !== code)
            broken.push(`k=${k}: code ${env.error.code}, expected ${code} (${env.error.message})`);
          if (JSON.stringify(now) !== JSON.stringify(clean.before)) {
            broken.push(`k=${k}: failed but the tree changed: ${JSON.stringify(diffKeys(clean.before, now))}`);
          }
          if (h.root.length > 3 && JSON.stringify(env).includes(h.root))
            broken.push(`k=${k}: the error names the host root`);
          if (ws.changes.list().length !== changesBefore) broken.push(`k=${k}: a failed call recorded a change`);
          // the workspace still works: the same call, unfaulted, now succeeds and gives the clean result
          fs.plan = { ops };
          const retry = await ws.call(...sc.call);
          if (!retry.ok) broken.push(`k=${k}: the retry failed: ${JSON.stringify(retry.error)}`);
          else if (JSON.stringify(await visibleTree(h)) !== JSON.stringify(clean.after))
            broken.push(`k=${k}: the retry left a different tree`);
        } finally {
          await cleanup(h, snapshots);
        }
        return broken;
      });
      return perPoint.flat();
    }

    for (const sc of SCENARIOS) {
      describe(sc.name, () => {
        for (const { failure, code } of FAILURES) {
          it(`any failing write operation (${failure}) is ${code} and leaves the tree as before`, async () => {
            // only the trash clean-up after a folder is parked may fail silently, and then the delete is complete
            const every = points === 'every' || failure === 'EIO';
            const broken = await everyK(
              sc,
              MUTATING_OPS,
              failure,
              code,
              () => !sc.mayAbsorbLateFailures,
              false,
              (count) => (every ? () => true : (k) => spreadOf(count).has(k)),
            );
            expect(broken).toEqual([]);
          });
        }

        it('any failing operation, reads included, leaves the tree exactly as before or exactly as after', async () => {
          // spread: the reads; each write is failed with EIO by the test above, whose checks are these and more
          const broken = await everyK(
            sc,
            ALL_OPS,
            'EIO',
            'IO_ERROR',
            () => false,
            false,
            (_count, calls) => (points === 'every' ? () => true : (k) => !MUTATING.has(calls[k - 1]?.op ?? 'readFile')),
          );
          expect(broken).toEqual([]);
        });

        if (SNAPSHOTTED.includes(sc.name)) {
          it('with snapshots on, any failing write operation leaves the tree exactly as before or exactly as after', async () => {
            // spread: every write to the workspace's own files, a spread of the snapshot repository's
            const broken = await everyK(
              sc,
              MUTATING_OPS,
              'EIO',
              'IO_ERROR',
              () => false,
              true,
              (count, calls) => {
                if (points === 'every') return () => true;
                const spread = spreadOf(count);
                return (k) => spread.has(k) || !calls[k - 1]?.path.includes('/.sandpit/git');
              },
            );
            expect(broken).toEqual([]);
          });
        }
      });
    }

    it('a folder delete fails before the folder is parked, or completes', async () => {
      const sc = SCENARIOS.find((s) => s.mayAbsorbLateFailures)!;
      const clean = await cleanRun(sc, MUTATING_OPS);
      const ks = Array.from({ length: clean.count }, (_, i) => i + 1);
      const outcomes = await eachPoint(ks, concurrency, async (k) => {
        const { h, fs, ws } = await setup(sc, MUTATING_OPS);
        try {
          fs.plan = { failAt: k, failure: 'EIO' };
          const env = await ws.call(...sc.call);
          const now = await visibleTree(h);
          if (env.ok) return JSON.stringify(now) === JSON.stringify(clean.after) ? 'after' : 'broken';
          return JSON.stringify(now) === JSON.stringify(clean.before) ? 'before' : 'broken';
        } finally {
          await h.cleanup();
        }
      });
      expect(outcomes).not.toContain('broken');
      expect(outcomes).toContain('before');
      expect(outcomes[outcomes.length - 1]).toBe('after');
    });
  });
}

/**
 * With snapshots on, a failed git write can leave isomorphic-git's sibling writes (started together
 * in one Promise.all) still landing after the call returned, so removing the folder may race them.
 */
async function cleanup(h: Harness, snapshots: boolean): Promise<void> {
  if (!snapshots) return h.cleanup();
  for (let attempt = 0; ; attempt++) {
    try {
      return await h.cleanup();
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function diffKeys(a: Record<string, string>, b: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys]
    .filter((k) => a[k] !== b[k])
    .map((k) => `${k}: ${a[k]?.slice(0, 20) ?? '-'} -> ${b[k]?.slice(0, 20) ?? '-'}`);
}
