import type { ChangeLog } from '../workspace/change-log.js';
import type { SearchContinuation } from './read-window.js';

/**
 * A full page's walk and read-ahead, kept under the cursor it returned, so the page for that
 * cursor goes on from them instead of walking to the cursor again and reading again what the
 * page before read past its end (a search paged by 1,000 paid that on every page).
 *
 * Kept only briefly and only while nothing changes: any change recorded in the workspace drops
 * them, and so does KEEP_MS passing, a newer page, or the cursor being used once. Without them a
 * page walks from its cursor as before, so any cursor (an old one, one from another process)
 * still pages the same way. What a kept page read ahead is at most KEEP_MS older than the call
 * that takes it: the same as a single search reading those files a moment later.
 */
const KEEP_MS = 1000;
/** Queries kept per workspace at once (searches paged side by side); the oldest goes first. */
const MOST = 4;

interface Kept {
  cursor: string;
  rest: SearchContinuation;
  timer: ReturnType<typeof setTimeout>;
}

interface Shelf {
  kept: Kept[];
  /** changes recorded since the shelf was made: a page that saw one while it ran keeps nothing */
  changes: number;
}

const shelves = new WeakMap<ChangeLog, Shelf>();

function drop(shelf: Shelf, one: Kept): void {
  const i = shelf.kept.indexOf(one);
  if (i >= 0) shelf.kept.splice(i, 1);
  clearTimeout(one.timer);
  void one.rest.close();
}

function shelfOf(changes: ChangeLog): Shelf {
  let shelf = shelves.get(changes);
  if (!shelf) {
    const made: Shelf = { kept: [], changes: 0 };
    // a change through the workspace may touch what was read ahead or listed: nothing kept survives it
    changes.onChange(() => {
      made.changes++;
      for (const one of [...made.kept]) drop(made, one);
    });
    shelves.set(changes, made);
    shelf = made;
  }
  return shelf;
}

/** Where the workspace's changes stand, taken before a page starts: see keepPage. */
export function changeMark(changes: ChangeLog): number {
  return shelfOf(changes).changes;
}

/**
 * Keep a full page's rest under the cursor it returned (a workspace's change log names the
 * workspace), unless a change was recorded since `mark` (taken before the page started): its
 * reads ahead may then hold bytes from before that change.
 */
export function keepPage(changes: ChangeLog, mark: number, cursor: string, rest: SearchContinuation): void {
  const shelf = shelfOf(changes);
  if (shelf.changes !== mark) {
    void rest.close();
    return;
  }
  for (const one of shelf.kept.filter((k) => k.cursor === cursor)) drop(shelf, one);
  while (shelf.kept.length >= MOST) drop(shelf, shelf.kept[0]!);
  const one: Kept = { cursor, rest, timer: setTimeout(() => drop(shelf, one), KEEP_MS) };
  // a kept page never keeps a process alive (Node's timers have unref, a browser's are numbers)
  (one.timer as { unref?: () => void }).unref?.();
  shelf.kept.push(one);
}

/** The rest kept under `cursor`, taken (a cursor goes on from it once), or undefined. */
export function takePage(changes: ChangeLog, cursor: string): SearchContinuation | undefined {
  const shelf = shelves.get(changes);
  const one = shelf?.kept.find((k) => k.cursor === cursor);
  if (!shelf || !one) return undefined;
  shelf.kept.splice(shelf.kept.indexOf(one), 1);
  clearTimeout(one.timer);
  return one.rest;
}
