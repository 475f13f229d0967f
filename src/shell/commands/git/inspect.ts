import type { CommandContext } from '../../context.js';
import { posixRegex, escapeRegex } from '../text/regex.js';
import { readIndex } from './index-file.js';
import { GitFatal, openRepo, unknownOption } from './repo.js';
import { under } from './stage.js';
import { untracked, workChanges } from './worktree.js';

/** The options rev-parse, ls-files and grep parse (one spelling each): the table the flags test reads. */
export const GIT_INSPECT_FLAGS = {
  'rev-parse': [
    '--short',
    '--abbrev-ref',
    '--verify',
    '-q',
    '--show-toplevel',
    '--git-dir',
    '--show-prefix',
    '--show-cdup',
    '--is-inside-work-tree',
    '--is-inside-git-dir',
    '--is-bare-repository',
  ],
  'ls-files': ['-m', '-d', '-o', '-s', '-c', '--exclude-standard'],
  grep: ['-n', '-i', '-l', '-c', '-w', '-v', '-F', '-E', '-I', '-h', '-e'],
};

/** `git rev-parse` for the questions agents ask: a commit's hash, `--short`, `--abbrev-ref`, where the repository is. */
export async function revParse(ctx: CommandContext, args: string[]): Promise<number> {
  const repo = await openRepo(ctx);
  let short = false;
  let abbrev = false;
  for (const a of args) {
    if (a === '--short') short = true;
    else if (a === '--abbrev-ref') abbrev = true;
    else if (a === '--verify' || a === '-q' || a === '--quiet') continue;
    else if (a === '--show-toplevel') ctx.out(`${repo.dir}\n`);
    else if (a === '--git-dir') ctx.out(repo.prefix ? `${repo.gitdir}\n` : '.git\n');
    else if (a === '--show-prefix') ctx.out(repo.prefix ? `${repo.prefix}/\n` : '\n');
    else if (a === '--show-cdup')
      ctx.out(
        repo.prefix
          ? `${repo.prefix
              .split('/')
              .map(() => '..')
              .join('/')}/\n`
          : '\n',
      );
    else if (a === '--is-inside-work-tree') ctx.out('true\n');
    else if (a === '--is-inside-git-dir' || a === '--is-bare-repository') ctx.out('false\n');
    else if (a.startsWith('-')) unknownOption('rev-parse', a);
    else if (abbrev && (a === 'HEAD' || a === '@')) ctx.out(`${(await repo.branch()) ?? 'HEAD'}\n`);
    else {
      const oid = await repo.resolve(a);
      ctx.out(`${short ? repo.short(oid) : oid}\n`);
    }
  }
  return 0;
}

/** `git ls-files [-m] [-d] [-o [--exclude-standard]] [-s] [PATH...]`, relative to the shell's folder. */
export async function lsFiles(ctx: CommandContext, args: string[]): Promise<number> {
  const flags = new Set<string>();
  const specs: string[] = [];
  for (const a of args) {
    if (['-m', '--modified', '-d', '--deleted', '-o', '--others', '-s', '--stage', '-c', '--cached'].includes(a))
      flags.add(a.length === 2 ? a : `-${a[2]}`);
    else if (a === '--exclude-standard') flags.add(a);
    else if (a === '--') continue;
    else if (a.startsWith('-')) unknownOption('ls-files', a);
    else specs.push(a);
  }
  const repo = await openRepo(ctx);
  const scope = specs.length > 0 ? specs.map((s) => repo.toRepoPath(s)) : [repo.prefix];
  const wanted = (p: string) => scope.some((s) => under(p, s));
  const index = await readIndex(repo);
  const out: string[] = [];
  if (flags.has('-o')) {
    for (const p of await untracked(repo, index, false, flags.has('--exclude-standard')))
      if (wanted(p)) out.push(repo.display(p));
  } else if (flags.has('-m') || flags.has('-d')) {
    for (const c of await workChanges(repo, index, wanted)) {
      if (flags.has('-m') || !c.now) out.push(repo.display(c.path));
    }
  } else {
    for (const [path, e] of [...index].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!wanted(path)) continue;
      out.push(flags.has('-s') ? `${e.mode} ${e.oid} 0\t${repo.display(path)}` : repo.display(path));
    }
  }
  ctx.out(out.map((l) => `${l}\n`).join(''));
  return 0;
}

/** `git grep [-n] [-i] [-l] [-c] [-w] [-v] [-F|-E] [-e] PATTERN [-- PATH...]` over the tracked files' working copies. */
export async function grep(ctx: CommandContext, args: string[]): Promise<number> {
  const flags = new Set<string>();
  const patterns: string[] = [];
  const specs: string[] = [];
  let inPaths = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (inPaths) specs.push(a);
    else if (a === '--') inPaths = true;
    else if (a === '-e') patterns.push(args[++i] ?? '');
    else if (/^-[nilcwvFEIh]+$/.test(a)) for (const c of a.slice(1)) flags.add(c);
    else if (a === '--line-number' || a === '--ignore-case' || a === '--files-with-matches' || a === '--count')
      flags.add({ '--line-number': 'n', '--ignore-case': 'i', '--files-with-matches': 'l', '--count': 'c' }[a]!);
    else if (a.startsWith('-')) unknownOption('grep', a);
    else if (patterns.length === 0) patterns.push(a);
    else specs.push(a);
  }
  if (patterns.length === 0) throw new GitFatal('no pattern given');
  const repo = await openRepo(ctx);
  const source = patterns
    .map((p) => (flags.has('F') ? escapeRegex(p) : posixRegex(p, flags.has('E')).source))
    .join('|');
  const body = flags.has('w') ? `(?<![\\w])(?:${source})(?![\\w])` : source;
  const re = new RegExp(body, flags.has('i') ? 'i' : '');
  const scope = specs.length > 0 ? specs.map((s) => repo.toRepoPath(s)) : [repo.prefix];
  const index = await readIndex(repo);
  let found = false;
  for (const path of [...index.keys()].sort()) {
    if (!scope.some((s) => under(path, s))) continue;
    const file = await repo.workFile(path);
    if (!file) continue;
    const shown = repo.display(path);
    if (file.data.subarray(0, 8000).includes(0)) {
      if (!flags.has('I') && re.test(new TextDecoder().decode(file.data))) {
        ctx.out(`Binary file ${shown} matches\n`);
        found = true;
      }
      continue;
    }
    const lines = new TextDecoder().decode(file.data).split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    let count = 0;
    for (const [n, line] of lines.entries()) {
      if (re.test(line) === flags.has('v')) continue;
      count++;
      if (flags.has('l') || flags.has('c')) continue;
      ctx.out(`${flags.has('h') ? '' : `${shown}:`}${flags.has('n') ? `${n + 1}:` : ''}${line}\n`);
    }
    if (count > 0) found = true;
    if (count > 0 && flags.has('l')) ctx.out(`${shown}\n`);
    else if (count > 0 && flags.has('c')) ctx.out(`${shown}:${count}\n`);
  }
  return found ? 0 : 1;
}
