import { createRepo, filesOnBranch, git } from '../git/git-server.js';

/**
 * Node-side helpers the Chromium git tests call through vitest's browser commands: the page
 * cannot run the git CLI, and the checks must use the real one.
 */
export const gitCommands = {
  gitCreateRepo: (_ctx: unknown, root: string, name: string, files: Record<string, string>) => { createRepo({ root }, name, files); },
  gitFilesOnBranch: (_ctx: unknown, root: string, name: string, branch: string) => filesOnBranch({ root }, name, branch),
  gitHasBranch: (_ctx: unknown, root: string, name: string, branch: string) => git(`${root}/${name}.git`, 'branch', '--list', branch).trim() !== '',
};
