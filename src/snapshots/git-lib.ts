import type * as Git from 'isomorphic-git';

/** isomorphic-git's API, as the snapshot store uses it. */
export type GitLib = typeof Git;

let loading: Promise<GitLib> | undefined;

/**
 * isomorphic-git, loaded by the first snapshot step that reads or writes git objects through it.
 * It is the largest module a workspace holds (about 570 KB of CommonJS in Node), and a workspace
 * opens, reads, lists and searches without it: an MCP server's first answers, a CLI call that
 * changes nothing, and the OPFS worker's first load do not wait for it.
 */
export function gitLib(): Promise<GitLib> {
  loading ??= import('isomorphic-git');
  return loading;
}
