/**
 * How many failure points of a failing-storage test run at once in Chromium, each on a fresh store
 * of its own. A store's calls wait on the browser most of the time (OPFS, IndexedDB), so a few
 * workspaces in flight fill that wait; the node projects keep one at a time.
 */
export const FAULT_CONCURRENCY = 3;
