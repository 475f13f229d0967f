import type { CommandContext } from '../../context.js';
import { commitPairs } from './commit.js';
import { findRenames, renderNames, renderPatch, renderStat, type FilePair } from './diff-render.js';
import { readIndex } from './index-file.js';
import { openRepo, unknownOption, type Repo } from './repo.js';
import { under } from './stage.js';
import { pairsOf } from './status.js';
import { workChanges } from './worktree.js';

/** The options diff parses (one spelling each): the table the flags test reads. */
export const GIT_DIFF_FLAGS = [
  '--cached',
  '--quiet',
  '--exit-code',
  '--stat',
  '--name-only',
  '--name-status',
  '-p',
  '-U',
  '--no-color',
  '--no-ext-diff',
];

/** How a diff is shown: the options `diff`, `log` and `show` share. */
export interface DiffFormat {
  patch: boolean;
  stat: boolean;
  nameOnly: boolean;
  nameStatus: boolean;
  context: number;
}

/** Read one diff-format option; false when `a` is not one. */
export function diffOption(a: string, f: DiffFormat): boolean {
  if (a === '--stat') f.stat = true;
  else if (a === '--name-only') f.nameOnly = true;
  else if (a === '--name-status') f.nameStatus = true;
  else if (a === '-p' || a === '-u' || a === '--patch') f.patch = true;
  else if (a === '--no-color' || a === '--color=never' || a === '--no-ext-diff') return true;
  else if (/^-U\d+$/.test(a)) f.context = Number(a.slice(2));
  else if (/^--unified=\d+$/.test(a)) f.context = Number(a.slice(10));
  else return false;
  return true;
}

/** Print pairs in the chosen form. */
export async function printPairs(ctx: CommandContext, pairs: FilePair[], f: DiffFormat, show?: (p: string) => string) {
  if (f.nameOnly || f.nameStatus) {
    ctx.out(renderNames(pairs, f.nameStatus, show));
    return;
  }
  if (f.stat) ctx.out(await renderStat(pairs, show));
  if (f.patch) {
    if (f.stat && pairs.length > 0) ctx.out('\n');
    ctx.out(await renderPatch(pairs, { context: f.context }));
  }
}

/** Index (or a commit) against the working tree, for the wanted paths. */
async function workPairs(repo: Repo, base: string | null, wanted: (p: string) => boolean): Promise<FilePair[]> {
  const index = await readIndex(repo, true);
  const from = base === null ? index : await repo.treeFiles(base, true);
  const changes = await workChanges(repo, from as typeof index, wanted);
  const pairs: FilePair[] = [];
  for (const c of changes) {
    const old = from.get(c.path)!;
    const fromSide = { path: c.path, oid: old.oid, mode: old.mode, load: () => repo.blob(old.oid) };
    const data = c.now?.data;
    pairs.push(
      c.now
        ? { from: fromSide, to: { path: c.path, oid: c.now.oid, mode: c.now.mode, load: async () => data! } }
        : { from: fromSide },
    );
  }
  if (base !== null) {
    // a commit against the working tree also shows files staged since it, still in the work tree
    for (const [path, e] of index) {
      if (!from.has(path) && wanted(path)) {
        const file = await repo.workFile(path);
        if (file) pairs.push({ to: { path, oid: e.oid, mode: e.mode, load: async () => file.data } });
      }
    }
  }
  return pairs;
}

/** `git diff [--cached] [REV [REV]] [-- PATH...]` with `--stat`, `--name-only`, `--name-status`, `-U`. */
export async function diff(ctx: CommandContext, args: string[]): Promise<number> {
  const f: DiffFormat = { patch: false, stat: false, nameOnly: false, nameStatus: false, context: 3 };
  let cached = false;
  let quiet = false;
  const words: string[] = [];
  let paths: string[] | null = null;
  for (const a of args) {
    if (paths) paths.push(a);
    else if (a === '--') paths = [];
    else if (a === '--cached' || a === '--staged') cached = true;
    else if (a === '--quiet' || a === '--exit-code') quiet = a === '--quiet' || quiet;
    else if (diffOption(a, f)) continue;
    else if (a.startsWith('-')) unknownOption('diff', a);
    else words.push(a);
  }
  const exitCode = args.includes('--exit-code') || args.includes('--quiet');
  const repo = await openRepo(ctx);
  const revs: string[] = [];
  for (const w of words) {
    if (
      paths === null &&
      (await repo.resolve(w.split('..')[0] || 'HEAD').then(
        () => true,
        () => false,
      ))
    )
      revs.push(w);
    else (paths ??= []).push(w);
  }
  const specs = (paths ?? []).map((p) => repo.toRepoPath(p));
  const wanted = (p: string) => specs.length === 0 || specs.some((s) => under(p, s));
  let pairs: FilePair[];
  if (revs.length === 1 && revs[0]!.includes('..')) {
    const [a, b] = revs[0]!.split(/\.\.\.?/);
    pairs = await commitPairs(repo, await repo.resolve(a || 'HEAD'), await repo.resolve(b || 'HEAD'), wanted);
  } else if (revs.length === 2) {
    pairs = await commitPairs(repo, await repo.resolve(revs[0]!), await repo.resolve(revs[1]!), wanted);
  } else if (cached) {
    const base = revs[0] ? await repo.resolve(revs[0]) : await repo.head();
    const index = await readIndex(repo);
    pairs = findRenames(pairsOf(await repo.treeFiles(base), index, wanted));
    for (const p of pairs) {
      if (p.from) p.from.load = () => repo.blob(p.from!.oid);
      if (p.to) p.to.load = () => repo.blob(p.to!.oid);
    }
  } else {
    pairs = await workPairs(repo, revs[0] ? await repo.resolve(revs[0]) : null, wanted);
    pairs.sort((x, y) => ((x.to ?? x.from)!.path < (y.to ?? y.from)!.path ? -1 : 1));
  }
  if (!f.stat && !f.nameOnly && !f.nameStatus) f.patch = true;
  if (!quiet) await printPairs(ctx, pairs, f);
  return exitCode && pairs.length > 0 ? 1 : 0;
}
