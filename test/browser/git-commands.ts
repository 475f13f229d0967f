import { createRepo, filesOnBranch, git } from '../git/git-server.js';

/**
 * Node-side helpers the Chromium git tests call through vitest's browser commands: the page
 * cannot run the git CLI, and the checks must use the real one.
 */
export const gitCommands = {
  gitCreateRepo: (
    _ctx: unknown,
    root: string,
    name: string,
    files: Record<string, string>,
    executable: string[] = [],
  ) => {
    createRepo({ root }, name, files, 'main', executable);
  },
  /** `<mode> <path>` for every file on `branch`, as git records it. */
  gitModesOnBranch: (_ctx: unknown, root: string, name: string, branch: string) =>
    git(`${root}/${name}.git`, 'ls-tree', '-r', branch)
      .trim()
      .split('\n')
      .map((line) => `${line.split(' ')[0]} ${line.split('\t')[1]}`)
      .sort(),
  gitFilesOnBranch: (_ctx: unknown, root: string, name: string, branch: string) =>
    filesOnBranch({ root }, name, branch),
  gitHasBranch: (_ctx: unknown, root: string, name: string, branch: string) =>
    git(`${root}/${name}.git`, 'branch', '--list', branch).trim() !== '',
};
