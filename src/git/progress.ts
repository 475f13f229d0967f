/** One progress report of a clone, fetch or push: a phase name and how far it got. */
export interface GitProgress {
  /** `Counting objects`, `Receiving objects`, `Resolving deltas` (from git), `Writing files` (Sandpit's checkout), ... */
  phase: string;
  /** how much of the phase is done */
  loaded: number;
  /** unknown (0) while the server has not said */
  total: number;
}

/** Told of each phase of a clone, push or pull as it goes. */
export type GitProgressListener = (event: GitProgress) => void | Promise<void>;

/**
 * Forward progress without letting a listener break the operation (a listener across a worker
 * boundary may reject when the page went away), and at most once per phase per 50 ms.
 */
export function progressReporter(listener: GitProgressListener | undefined): (event: GitProgress) => void {
  if (!listener) return () => {};
  let last = { phase: '', at: 0 };
  return (event) => {
    const now = Date.now();
    const done = event.total > 0 && event.loaded >= event.total;
    if (event.phase === last.phase && !done && now - last.at < 50) return;
    last = { phase: event.phase, at: now };
    Promise.resolve()
      .then(() => listener({ phase: event.phase, loaded: event.loaded, total: event.total ?? 0 }))
      .catch(() => {});
  };
}
