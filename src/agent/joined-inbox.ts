import type { AgentInbox } from './inbox.js';

/** Two inboxes read as one (a run's task inbox and its workspace's review notes): notes in take order, first inbox first. */
export function joinInboxes(first: AgentInbox | undefined, second: AgentInbox | undefined): AgentInbox | undefined {
  if (!first || !second) return first ?? second;
  return {
    take: () => [...first.take(), ...second.take()],
    running: () => first.running() + second.running(),
    wakeWaiting: () => first.wakeWaiting() || second.wakeWaiting(),
    whenWoken: (signal) => {
      // whichever wakes first; the other's wait ends with the shared abort
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      return Promise.race([first.whenWoken(stop.signal), second.whenWoken(stop.signal)]).finally(() => {
        signal.removeEventListener('abort', onAbort);
        stop.abort();
      });
    },
  };
}
