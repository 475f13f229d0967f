import * as git from 'isomorphic-git';
import { coreConfig, REPO_DESCRIPTION, REPO_EXCLUDE } from '../../../git/repo-files.js';
import type { CommandContext } from '../../context.js';
import { shellPath } from '../../overlay.js';
import { GitFatal, gitFsOf, openRepo, unknownOption } from './repo.js';

/** The options init and config parse (one spelling each): the table the flags test reads. */
export const GIT_INIT_CONFIG_FLAGS = { init: ['-q', '-b'], config: ['--local', '--get', '--unset', '--list'] };

const encoder = new TextEncoder();

/** `git init [-q] [-b BRANCH] [DIR]`: the files real git makes, without sample hooks (hooks never run here). */
export async function init(ctx: CommandContext, args: string[]): Promise<number> {
  let quiet = false;
  let branch = 'master';
  let target = '.';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '-b' || a === '--initial-branch') branch = args[++i] ?? '';
    else if (a.startsWith('--initial-branch=')) branch = a.slice('--initial-branch='.length);
    else if (a.startsWith('-')) unknownOption('init', a);
    else target = a;
  }
  const sfs = ctx.shell.state.fs;
  const dir = shellPath(ctx.shell.state.cwd, target);
  const gitdir = dir === '/' ? '/.git' : `${dir}/.git`;
  // The one .git this shell's git may write is the workspace's own, at its top (DESIGN.md: .git is
  // read-only to tools): a repository anywhere else is refused before anything is made.
  if (dir !== '/')
    throw new GitFatal(
      `cannot create a repository in '${target}': only the workspace's own .git, at its top, can be written here (PERMISSION_DENIED). Run git init at the top of the workspace instead.`,
    );
  const existed = (await sfs.fullStat(`${gitdir}/HEAD`)) !== null;
  if (!existed) {
    for (let d = dir, todo: string[] = []; ; d = d.slice(0, d.lastIndexOf('/')) || '/') {
      if (await sfs.stat(d)) {
        for (const t of todo.reverse()) await sfs.mkdir(t);
        break;
      }
      todo.push(d);
    }
    for (const d of ['', '/objects', '/objects/info', '/objects/pack', '/refs', '/refs/heads', '/refs/tags', '/info'])
      await sfs.mkdir(`${gitdir}${d}`, 'git');
    const write = (name: string, text: string) => sfs.writeFile(`${gitdir}/${name}`, encoder.encode(text), 'git');
    await write('HEAD', `ref: refs/heads/${branch}\n`);
    await write('config', coreConfig());
    await write('description', REPO_DESCRIPTION);
    await write('info/exclude', REPO_EXCLUDE);
  }
  if (!quiet) ctx.out(`${existed ? 'Reinitialized existing' : 'Initialized empty'} Git repository in ${gitdir}/\n`);
  return 0;
}

/** `git config` on the repository's own config: get, set, `--unset`, `--list`. Never global or system. */
export async function config(ctx: CommandContext, args: string[]): Promise<number> {
  const rest: string[] = [];
  let mode: 'get' | 'set' | 'unset' | 'list' | null = null;
  for (const a of args) {
    if (a === '--local') continue;
    if (a === '--global' || a === '--system' || a.startsWith('--file'))
      throw new GitFatal(`config ${a}: only the repository's own config exists in this shell`);
    if (a === '--get') mode = 'get';
    else if (a === '--unset') mode = 'unset';
    else if (a === '-l' || a === '--list') mode = 'list';
    else if (a.startsWith('-')) unknownOption('config', a);
    else rest.push(a);
  }
  const repo = await openRepo(ctx);
  const fs = gitFsOf(ctx.shell.state.fs);
  const where = { fs, gitdir: repo.gitdir };
  if (mode === 'list') {
    const text = await repo.readText('config');
    let section = '';
    for (const line of text.split('\n')) {
      const head = /^\s*\[([^\s\]]+)(?:\s+"(.*)")?\]/.exec(line);
      if (head) section = head[2] === undefined ? head[1]!.toLowerCase() : `${head[1]!.toLowerCase()}.${head[2]}`;
      const kv = /^\s*([A-Za-z][\w-]*)\s*(?:=\s*(.*?))?\s*$/.exec(line);
      if (kv && !head) ctx.out(`${section}.${kv[1]!.toLowerCase()}=${kv[2] ?? 'true'}\n`);
    }
    return 0;
  }
  const [key, value] = rest;
  if (!key) throw new GitFatal('config: a key is needed', 2);
  if (mode === 'unset') {
    await git.setConfig({ ...where, path: key, value: undefined });
    return 0;
  }
  if (value === undefined || mode === 'get') {
    const found = await git.getConfig({ ...where, path: key });
    if (found === undefined || found === null) return 1;
    ctx.out(`${String(found)}\n`);
    return 0;
  }
  if (/^core\.(hookspath|fsmonitor|editor|pager|sshcommand|askpass)$/i.test(key))
    throw new GitFatal(`config: '${key}' names a program to run, which this shell never runs`);
  await git.setConfig({ ...where, path: key, value });
  return 0;
}
