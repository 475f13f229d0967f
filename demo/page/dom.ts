/** Create an element with optional text and class: the page builds all its DOM through this. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/**
 * Make `parent`'s children exactly `items`, in order, moving or removing only what is out of place:
 * a redraw that keeps most rows leaves them where they are, so the browser restyles and lays out
 * only the rows that came, went or changed (a whole-list swap redoes every row).
 */
export function placeChildren(parent: Element, items: readonly Node[]): void {
  const wanted = new Set<Node>(items);
  let at = parent.firstChild;
  for (const item of items) {
    while (at && !wanted.has(at)) {
      const gone = at;
      at = at.nextSibling;
      gone.remove();
    }
    if (at === item) at = at.nextSibling;
    else parent.insertBefore(item, at);
  }
  while (at) {
    const gone = at;
    at = at.nextSibling;
    gone.remove();
  }
}

export const $ = <T extends HTMLElement>(id: string): T => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
};

/** "1 file", "3 files": a count in the words a person reads, never "file(s)". */
export function counted(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** "12:04:31" for today's events, which is all a session's timeline holds in practice. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeFormat().format(date);
}

// One formatter for the page: `toLocaleTimeString` with options builds a new one per call (about
// a quarter of a millisecond), and the timeline formats every row on each change.
let timeFormatter: Intl.DateTimeFormat | null = null;
const timeFormat = () =>
  (timeFormatter ??= new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }));

/**
 * `run` behind a gate: a call while one is running asks for one more run after it instead of a
 * second one beside it, so a burst of change events costs two runs, not one per event. Every
 * caller's promise settles once a run that started after its call has finished. `merge` folds the
 * arguments of calls owed to the next run (the latest one by default).
 */
export function coalesced<A = void>(
  run: (arg: A) => Promise<void>,
  merge: (a: A, b: A) => A = (_, b) => b,
): (arg: A) => Promise<void> {
  let pending: Promise<void> | null = null;
  const state: { owed: { arg: A } | null } = { owed: null };
  return (arg) => {
    if (pending) {
      state.owed = { arg: state.owed ? merge(state.owed.arg, arg) : arg };
      return pending;
    }
    pending = (async () => {
      for (let next: { arg: A } | null = { arg }; next; next = state.owed) {
        state.owed = null;
        await run(next.arg);
      }
    })().finally(() => {
      pending = null;
    });
    return pending;
  };
}

/**
 * Wrappers that run their calls one after another: a wrapped call starts once every call made
 * before it through the same `inTurn()` has finished, failed or not. Opening a workspace while
 * another still opened ran both at once, and whichever connected last won (demo/main.ts).
 */
export function inTurn(): <A extends unknown[]>(task: (...args: A) => Promise<void>) => (...args: A) => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return (task) =>
    (...args) => {
      const run = last.then(() => task(...args));
      last = run.catch(() => {});
      return run;
    };
}

/** A short-lived message in the corner; errors stay longer because they need reading. */
export function toast(message: string, kind: 'info' | 'error' = 'info'): void {
  const host = document.getElementById('toasts');
  if (!host) return;
  const item = el('div', undefined, `toast ${kind}`);
  item.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  item.append(el('span', message, 'toast-text'));
  // A close button for the mouse and for screen readers; Escape (below) for the keyboard.
  const close = el('button', '×', 'toast-close');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close this message');
  item.append(close);
  host.append(item);
  // Three at a time is enough to read; the oldest makes way instead of covering the page.
  while (host.children.length > 3) host.firstElementChild?.remove();
  // An error stays long enough to read, and a click puts any toast away sooner; it sits over the
  // file list's corner (above the panels in a narrow window), not over the results a person reads.
  item.title = 'Click or press Escape to close';
  item.addEventListener('click', () => item.remove());
  keepWhileHeld(item, kind === 'error' ? 6000 : 3000);
  listenForEscape();
}

/**
 * Remove `item` after `ms`, but not while the pointer rests on it or the keyboard is in it: a slow
 * reader holds it to finish reading (WCAG's timing adjustable), and it goes `ms` after being let go.
 */
function keepWhileHeld(item: HTMLElement, ms: number): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pointer = false;
  let focus = false;
  const settle = () => {
    clearTimeout(timer);
    if (!pointer && !focus) timer = setTimeout(() => item.remove(), ms);
  };
  item.addEventListener('pointerenter', () => ((pointer = true), settle()));
  item.addEventListener('pointerleave', () => ((pointer = false), settle()));
  item.addEventListener('focusin', () => ((focus = true), settle()));
  item.addEventListener('focusout', () => ((focus = false), settle()));
  settle();
}

/** Put every message away: after a workspace switch they speak of a workspace no longer open. */
export function clearToasts(): void {
  document.getElementById('toasts')?.replaceChildren();
}

let escapeHeard = false;
/** Escape closes the newest message, unless something else on the page (a dialog, a menu) took it. */
function listenForEscape(): void {
  if (escapeHeard) return;
  escapeHeard = true;
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
    const newest = document.getElementById('toasts')?.lastElementChild;
    if (newest) newest.remove();
  });
}
