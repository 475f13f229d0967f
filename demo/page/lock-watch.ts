import type { Session } from './session.js';

/**
 * While another tab holds the workspace, look every second whether it let go (its Web Lock is
 * gone), then make a call so this tab's worker takes the workspace; no click needed.
 */
let watchingLock = false;
export async function watchLock(session: Session): Promise<void> {
  if (watchingLock) return;
  watchingLock = true;
  try {
    while (session.locked) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { backend, name } = session.choice;
      const held = await navigator.locks
        ?.query()
        .then((state) => (state.held ?? []).some((lock) => lock.name === `sandpit:${backend}:${name}`))
        .catch(() => false);
      if (!held) await session.call('exists', { path: '.' });
    }
  } finally {
    watchingLock = false;
  }
}
