/**
 * The worker's warm-up: the code that loads on first use, fetched ahead of need, in the moments
 * the page's calls leave free. All of it at once, at the worker's start, took the connections
 * and the thread from the page's first calls: a connect and a clone waited behind some twenty
 * modules they do not use.
 */

/** Host verbs under way. */
let running = 0;
/**
 * When the last verb ended: the page's next call is often on its way just then. The worker's
 * start counts as one: a connecting page sent its open as it made the worker.
 */
let lastEnd = performance.now();
const wake: Array<() => void> = [];

/** How long after a verb the warm-up still waits: a page's next call comes within a round trip. */
const SETTLE_MS = 100;
/** Imports under way at once while warming. */
const AT_ONCE = 4;

/**
 * Run `work` as the warm-up counts a verb: it starts no import until `work` has settled and a
 * moment more. For the page's work that comes by another way than a verb: a live preview's
 * requests come from its Service Worker on a channel of their own.
 */
export async function givingWayWhile<T>(work: () => Promise<T> | T): Promise<T> {
  running++;
  try {
    return await work();
  } finally {
    running--;
    lastEnd = performance.now();
    if (running === 0) for (const resume of wake.splice(0)) resume();
  }
}

/** `api`, each of whose verbs the warm-up gives way to while it runs. */
export function givenWayTo<T extends object>(api: T): T {
  const out = { ...api };
  for (const key of Object.keys(out) as Array<keyof T>) {
    const verb = out[key];
    if (typeof verb !== 'function') continue;
    out[key] = ((...args: unknown[]) =>
      givingWayWhile(() => (verb as (...a: unknown[]) => unknown).apply(out, args))) as T[keyof T];
  }
  return out;
}

/** Resolves once no verb runs and none has just ended. */
async function quiet(): Promise<void> {
  for (;;) {
    if (running > 0) await new Promise<void>((resume) => wake.push(resume));
    const since = performance.now() - lastEnd;
    if (running === 0 && since >= SETTLE_MS) return;
    if (running === 0) await new Promise((resume) => setTimeout(resume, SETTLE_MS - since));
  }
}

/**
 * Fetch `loads` a few at a time, each only while the worker is otherwise quiet (a module already
 * on its way still lands during a call). Resolves to true once every one has loaded, false when
 * some could not be fetched (each is fetched again when needed).
 */
export async function warmInTurns(loads: Array<() => Promise<unknown>>): Promise<boolean> {
  const queue = [...loads];
  let ok = true;
  const lane = async () => {
    for (let load = queue.shift(); load; load = queue.shift()) {
      await quiet();
      await load().catch(() => {
        ok = false;
      });
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, lane));
  return ok;
}
