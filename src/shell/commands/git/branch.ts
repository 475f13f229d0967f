import * as git from 'isomorphic-git';
import type { CommandContext } from '../../context.js';
import { GitFatal, openRepo, unknownOption } from './repo.js';

/** The options branch parses (one spelling each): the table the flags test reads. */
export const GIT_BRANCH_FLAGS = ['-d', '-D', '-m', '-f', '--show-current', '--list'];

/** `git branch` (list), `git branch NAME [START]`, `-d`/`-D NAME`, `-m [OLD] NEW`, `--show-current`. */
export async function branch(ctx: CommandContext, args: string[]): Promise<number> {
  let mode: 'create' | 'delete' | 'move' | 'current' | 'list' = 'create';
  let force = false;
  const words: string[] = [];
  for (const a of args) {
    if (a === '-d' || a === '--delete') mode = 'delete';
    else if (a === '-D') {
      mode = 'delete';
      force = true;
    } else if (a === '-m' || a === '--move') mode = 'move';
    else if (a === '-f' || a === '--force') force = true;
    else if (a === '--show-current') mode = 'current';
    else if (a === '--list' || a === '-l') mode = 'list';
    else if (a.startsWith('-')) unknownOption('branch', a);
    else words.push(a);
  }
  const repo = await openRepo(ctx);
  const current = await repo.branch();
  if (mode === 'current') {
    if (current) ctx.out(`${current}\n`);
    return 0;
  }
  if (mode === 'list' || (mode === 'create' && words.length === 0)) {
    const names = (await git.listBranches({ ...repo.base })).sort();
    const head = await repo.head();
    if (!current && head) ctx.out(`* (HEAD detached at ${repo.short(head)})\n`);
    for (const name of names) ctx.out(`${name === current ? '*' : ' '} ${name}\n`);
    return 0;
  }
  if (mode === 'delete') {
    for (const name of words) {
      const oid = await git.resolveRef({ ...repo.base, ref: `refs/heads/${name}` }).catch(() => null);
      if (!oid) throw new GitFatal(`branch '${name}' not found.`, 1);
      if (name === current) throw new GitFatal(`Cannot delete branch '${name}' checked out`, 1);
      const head = await repo.head();
      if (
        !force &&
        head &&
        !(await git.isDescendent({ ...repo.base, oid: head, ancestor: oid }).catch(() => false)) &&
        head !== oid
      ) {
        ctx.err(
          `error: The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.\n`,
        );
        return 1;
      }
      await git.deleteBranch({ ...repo.base, ref: name });
      ctx.out(`Deleted branch ${name} (was ${repo.short(oid)}).\n`);
    }
    return 0;
  }
  if (mode === 'move') {
    const [from, to] = words.length === 1 ? [current!, words[0]!] : [words[0]!, words[1]!];
    await git.renameBranch({ ...repo.base, oldref: from, ref: to, checkout: from === current });
    return 0;
  }
  const [name, start] = words;
  const oid = start ? await repo.resolve(start) : await repo.head();
  if (!oid) throw new GitFatal(`not a valid object name: '${current ?? 'HEAD'}'`);
  const exists = await git.resolveRef({ ...repo.base, ref: `refs/heads/${name}` }).then(
    () => true,
    () => false,
  );
  if (exists && !force) throw new GitFatal(`a branch named '${name}' already exists`);
  await git.writeRef({ ...repo.base, ref: `refs/heads/${name}`, value: oid, force: true });
  return 0;
}
