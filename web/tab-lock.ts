/** A held lock; `release` lets the next tab in. */
export interface HeldLock {
  release(): void;
}

/**
 * Take the exclusive Web Lock `key` if no other tab or worker of this origin holds it. The lock
 * is held until `release` or until the worker ends (the browser frees it when a tab closes).
 * Without the Web Locks API there is no other tab to guard against, so the lock is always given.
 */
export async function tryLock(key: string): Promise<HeldLock | null> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return { release: () => {} };
  return new Promise((resolve, reject) => {
    locks
      .request(key, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(null);
          return undefined;
        }
        return new Promise<void>((release) => resolve({ release }));
      })
      .catch(reject);
  });
}
