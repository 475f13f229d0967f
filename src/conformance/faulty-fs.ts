import { FsError, type WorkspaceFs } from '../index.js';

/** The operations that change a backend: the ones a {@link FaultPlan} counts by default. */
export const MUTATING_OPS = ['writeFile', 'mkdir', 'rmdir', 'unlink', 'rename', 'symlink'] as const;
/** A {@link WorkspaceFs} method a {@link FaultPlan} can fail. */
export type FsOp = (typeof MUTATING_OPS)[number] | 'readFile' | 'readdir' | 'stat' | 'lstat' | 'readlink';

/** Which operation of a `faultyFs` fails, and how. */
export interface FaultPlan {
  /** which operations count towards `failAt` (default: the mutating ones) */
  ops?: readonly FsOp[];
  /** fail the k-th counted operation (1-based); 0 or undefined never fails */
  failAt?: number;
  /** how it fails: a Node code, or a DOMException name as the browser backends raise */
  failure?: 'EIO' | 'ENOSPC' | 'QuotaExceededError';
}

/**
 * A real backend with one injected failure: the k-th counted operation throws before it runs.
 * `counted` tells how many counted operations a clean run makes, so a test can try every k.
 */
export function faultyFs(
  inner: WorkspaceFs,
  plan: FaultPlan = {},
): WorkspaceFs & {
  /** counted operations so far */
  counted: number;
  /** the plan in force; setting it restarts the count */
  plan: FaultPlan;
} {
  const state = { counted: 0, plan };
  const ops = new Set<string>(plan.ops ?? MUTATING_OPS);
  const wrap =
    (name: string, fn: (...args: unknown[]) => Promise<unknown>) =>
    async (...args: unknown[]) => {
      if (ops.has(name)) {
        state.counted++;
        if (state.plan.failAt && state.counted === state.plan.failAt) {
          const failure = state.plan.failure ?? 'EIO';
          if (failure === 'QuotaExceededError') throw new DOMException('quota', 'QuotaExceededError');
          throw new FsError(failure, name);
        }
      }
      return fn(...args);
    };
  const out: Record<string, unknown> = { capabilities: inner.capabilities };
  for (const name of [
    'readFile',
    'writeFile',
    'readdir',
    'stat',
    'lstat',
    'mkdir',
    'rmdir',
    'unlink',
    'rename',
    'readlink',
    'symlink',
  ]) {
    out[name] = wrap(
      name,
      (inner as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!.bind(inner),
    );
  }
  if (inner.readdirTypes)
    out.readdirTypes = wrap('readdir', inner.readdirTypes.bind(inner) as (...a: unknown[]) => Promise<unknown>);
  if (inner.readdirStats)
    out.readdirStats = wrap('readdir', inner.readdirStats.bind(inner) as (...a: unknown[]) => Promise<unknown>);
  Object.defineProperty(out, 'counted', { get: () => state.counted });
  Object.defineProperty(out, 'plan', {
    get: () => state.plan,
    set: (p: FaultPlan) => {
      state.plan = p;
      state.counted = 0;
    },
  });
  return out as unknown as WorkspaceFs & { counted: number; plan: FaultPlan };
}
