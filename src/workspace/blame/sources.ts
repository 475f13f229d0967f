import type { BlameRange } from './tracker.js';

/** Who wrote each line of `text` as a workspace knows the path (its blame of that text, nothing kept). */
export type LineAuthors = (rel: string, text: string) => Promise<BlameRange[]>;

const sources = new WeakMap<object, LineAuthors>();

/** Say how a workspace answers who wrote its lines, keyed by its snapshot store (how a merge finds its fork's). */
export function provideLineAuthors(store: object, authors: LineAuthors): void {
  sources.set(store, authors);
}

/** The line authors of the workspace whose snapshot store this is, if it said. */
export function lineAuthorsOf(store: object | null | undefined): LineAuthors | undefined {
  return store ? sources.get(store) : undefined;
}
