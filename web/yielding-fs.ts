import type { WorkspaceFs } from '../src/fs/types.js';

/** The calls that change storage: each may first let the worker's other messages run. */
const CHANGES = new Set(['writeFile', 'mkdir', 'rmdir', 'unlink', 'rename', 'symlink']);
/** How long a run of changes may hold the worker before it gives a turn. */
const TURN_EVERY_MS = 4;

/**
 * A turn of the worker's event loop: queued messages run before the caller goes on. A message to
 * itself rather than a timer, which a worker clamps to 4 ms once timers nest.
 */
function turnTaker(): () => Promise<void> {
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
}

/**
 * `fs`, whose changes give the worker's other messages a turn at least every few milliseconds
 * while `wanted()` says so. On OPFS a snapshot's writes are synchronous calls that resolve at
 * once, so a tool call and its snapshot otherwise hold the worker from start to end: the live
 * preview's request for the page a save reloads waited behind the whole snapshot. Each call
 * still runs as it would; only other messages may run before it.
 */
export function yieldingFs<T extends WorkspaceFs>(fs: T, wanted: () => boolean): T {
  let take: (() => Promise<void>) | null = null;
  /** the turn under way: the calls of parallel chains (a snapshot writes objects side by side) share it */
  let pending: Promise<void> | null = null;
  let last = 0;
  const turn = (): Promise<void> => {
    take ??= turnTaker();
    pending ??= take().then(() => {
      pending = null;
      last = performance.now();
    });
    return pending;
  };
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (typeof key !== 'string' || !CHANGES.has(key)) return value.bind(target);
      return async (...args: unknown[]) => {
        if (pending || (wanted() && performance.now() - last >= TURN_EVERY_MS)) await turn();
        return value.apply(target, args);
      };
    },
  });
}
