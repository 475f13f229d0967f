import type { AgentInbox } from './inbox.js';

/**
 * After an answer: wait while background tasks run, until a waking note (a `wake: true` line,
 * a task's exit) arrives, the wait runs out, or the user stops the run. A waking note that came
 * during the last turn starts the next one at once; with nothing running the run is over.
 */
export async function waitForWake(
  inbox: AgentInbox,
  maxMs: number,
  signal: AbortSignal | undefined,
  onWaiting: (tasks: number) => void,
): Promise<'woken' | 'idle' | 'stopped'> {
  if (signal?.aborted) return 'stopped';
  if (inbox.wakeWaiting()) return 'woken';
  if (inbox.running() === 0) return 'idle';
  onWaiting(inbox.running());
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const expired = new Promise<'idle'>((resolve) => {
      timer = setTimeout(() => resolve('idle'), maxMs);
    });
    const outcome = await Promise.race([inbox.whenWoken(stop.signal).then(() => 'woken' as const), expired]);
    return signal?.aborted ? 'stopped' : outcome;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}
