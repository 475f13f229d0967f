import { Buffer } from 'buffer';

/**
 * isomorphic-git (and test code shared with Node) reach for a global `Buffer`; the browser has
 * none. Import this module first, before anything that loads isomorphic-git.
 */
const g = globalThis as { Buffer?: unknown };
g.Buffer ??= Buffer;
