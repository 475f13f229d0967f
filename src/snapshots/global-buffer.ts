import { Buffer } from 'buffer';

// isomorphic-git reaches for a global `Buffer` when it reads objects (undo, restore, diffs); a
// browser page has none, and a page should not have to know that. In Node this is the built-in one.
const g = globalThis as { Buffer?: unknown };
g.Buffer ??= Buffer;
