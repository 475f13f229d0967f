import { ToolError } from '../contract/index.js';
import { hasFsCode } from '../fs/errors.js';
import { isAbsent, lstatOrNull } from '../fs/helpers.js';
import type { FsDirent, ResolveOptions, WorkspaceFs } from '../fs/types.js';
import { toToolError } from '../fs/tool-error.js';
import { displayPath, joinRel, RESERVED_TOP_LEVEL, type PathResolver } from '../workspace/paths.js';
import { comparePaths } from './glob.js';
import { isIgnored, parseGitignore, type IgnoreRules } from './ignore.js';

import { SKIPPED_FOLDERS } from './skipped-folders.js';

export { SKIPPED_FOLDERS };

/** Where a walk starts: a resolved folder, as the caller named it and as it really is. */
export interface WalkStart {
  rel: string;
  realRel: string;
}

export interface WalkEntry {
  /** root-relative path below the start as the caller named it */
  rel: string;
  name: string;
  type: 'file' | 'dir' | 'symlink';
  /** 1 for the start folder's own entries */
  depth: number;
  /** the backend path to read (a followed link's target) */
  abs: string;
  /**
   * the backend path of the folder listed, shared by its entries: `abs` is it and `name`, but for
   * a followed link (undefined); a reader batching a folder's files compares it by identity
   */
  dir: string | undefined;
}

export interface WalkOptions {
  includeHidden?: boolean;
  /** `skip`: neither show nor enter dependency/build folders; `list`: show them, never enter */
  buildOutputs?: 'skip' | 'list';
  gitignore?: boolean;
  /** deepest level to yield (1 = the start folder's entries); unlimited when absent */
  maxDepth?: number;
  /** yield nothing ordered before this path (see comparePaths); used to resume from a cursor */
  resumeAt?: string;
  /** `show`: links are entries of type symlink; `follow`: links to in-root files become files, others are dropped */
  links?: 'show' | 'follow';
  /** yield folders as well as files */
  dirs?: boolean;
  /** a call's time budget: past `deadline` the walk ends and names, in `stoppedAt`, the entry it did not reach */
  budget?: WalkBudget;
  /** folders the walk could not enter (a name too long, no permission), with why; filled as it goes */
  unreadable?: Unreadable[];
  /** also note special files (FIFOs, sockets, devices) in `unreadable`: a search says it left them out */
  noteSpecial?: boolean;
  /** when the caller's call started, for the listings (see ResolveOptions); each page of a search sets its own */
  resolvedSince?: number;
}

/** Why a search left out a special file. */
export const SPECIAL_SKIP_REASON = 'a special file (FIFO, socket or device), not a regular file: not searched';

/** A place a walk or a search could not look into, so its answer is incomplete. */
export interface Unreadable {
  path: string;
  reason: string;
}

/** For a result: a very long path keeps its start and end, so the answer stays small. */
export function shortened(u: Unreadable): Unreadable {
  return u.path.length <= 300 ? u : { path: `${u.path.slice(0, 150)}...${u.path.slice(-120)}`, reason: u.reason };
}

/** Note why `rel` could not be read, unless it simply vanished meanwhile. */
export function noteUnreadable(into: Unreadable[] | undefined, rel: string, error: unknown): void {
  if (!into || hasFsCode(error, 'ENOENT', 'ENOTDIR')) return;
  const code = (error as { code?: unknown })?.code;
  const reason =
    code === 'ENAMETOOLONG'
      ? 'the path is too long for this file system'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : `cannot be read (${typeof code === 'string' ? code : 'error'})`;
  if (into.length < 1000) into.push({ path: rel, reason });
}

/** When a walk must end early, and (set by the walk) where it ended. */
export interface WalkBudget {
  deadline: number;
  /** the first entry not yielded: a later walk resumes here (inclusive) */
  stoppedAt?: string;
}

/**
 * The deepest folder level a walk enters. Below it a walk would cost more per level than the
 * level before (each backend call resolves the whole path), so a 5,000-level folder on the
 * memory backend ran past every time budget and each page restarted from the top: the folder is
 * reported as skipped instead. Node's PATH_MAX stops a walk about as deep anyway.
 */
export const MAX_WALK_DEPTH = 1024;

/** Entries between two looks at the clock. */
const CLOCK_EVERY = 64;

const PREFETCH_PER_FOLDER = 64;

interface Frame {
  rel: string;
  realRel: string;
  /** the backend path of realRel, which its entries' paths start with */
  abs: string;
  entries: FsDirent[];
  next: number;
  depth: number;
  rules: IgnoreRules | null;
  /** listings of sub-folders already requested, so the walk rarely waits on storage */
  prefetched: Map<string, Promise<FsDirent[]>>;
}

/**
 * Walk a folder depth first, names sorted by code unit at each level, so the order is stable and
 * equals comparePaths order. Never follows a link into a folder (no cycles, no duplicates) and
 * drops links that leave the root. Folders that cannot be read below the start are skipped.
 */
export function walk(
  fs: WorkspaceFs,
  paths: PathResolver,
  start: WalkStart,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  return walkEntries(fs, paths, start, options, 0) as AsyncGenerator<WalkEntry>;
}

/**
 * The same walk, its entries in runs of up to `most` (each yield of an async generator costs a
 * few promises: a search over 10,000 files paid more for them than for its own bookkeeping). A
 * run ends before anything that reports, waits or descends, so a consumer that stops after a
 * run has caused nothing a one-by-one walk would not have.
 */
export function walkRuns(
  fs: WorkspaceFs,
  paths: PathResolver,
  start: WalkStart,
  options: WalkOptions,
  most: number,
): AsyncGenerator<WalkEntry[]> {
  return walkEntries(fs, paths, start, options, Math.max(1, most)) as AsyncGenerator<WalkEntry[]>;
}

/** Entries one by one when `most` is 0, else in runs of up to `most`. */
async function* walkEntries(
  fs: WorkspaceFs,
  paths: PathResolver,
  start: WalkStart,
  options: WalkOptions,
  most: number,
): AsyncGenerator<WalkEntry | WalkEntry[]> {
  let run: WalkEntry[] = [];
  const maxDepth = options.maxDepth ?? Infinity;
  const resumeAt = options.resumeAt;
  const stack: Frame[] = [];
  const rules: IgnoreRules[] = options.gitignore ? await ancestorRules(fs, paths, start.realRel) : [];
  const first = await readFolder(fs, paths.toAbs(start.realRel), options).catch((e) => {
    throw toToolError(e, displayPath(start.rel));
  });
  const frameOf = (rel: string, realRel: string, entries: FsDirent[], depth: number) =>
    frameFor(fs, paths, rel, realRel, entries, depth, options, rules);
  stack.push(await frameOf(start.rel, start.realRel, first, 0));
  let visited = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.entries.length) {
      stack.pop();
      if (frame.rules) rules.pop();
      continue;
    }
    const entry = frame.entries[frame.next++]!;
    const name = entry.name;
    const rel = joinRel(frame.rel, name);
    if (options.budget && ++visited % CLOCK_EVERY === 0 && Date.now() > options.budget.deadline) {
      if (run.length > 0) yield run;
      options.budget.stoppedAt = rel;
      return;
    }
    // the same string when no followed link lies above: one path less per entry
    const realRel = frame.realRel === frame.rel ? rel : joinRel(frame.realRel, name);
    const depth = frame.depth + 1;
    if (frame.realRel === '' && RESERVED_TOP_LEVEL.includes(name)) continue;
    if (!options.includeHidden && name.charCodeAt(0) === 46) continue;
    const isDir = entry.type === 'dir';
    const buildOutput = isDir && SKIPPED_FOLDERS.has(name);
    if (buildOutput && options.buildOutputs !== 'list') continue;
    if (resumeAt !== undefined && comparePaths(rel, resumeAt) < 0 && !(isDir && resumeAt.startsWith(`${rel}/`)))
      continue;
    if (rules.length > 0 && isIgnored(rules, realRel, isDir)) continue;
    if (run.length > 0 && entry.type !== 'file') {
      // what follows may report, wait or descend: the run so far goes first
      yield run;
      run = [];
    }
    if (entry.type === 'other') {
      if (options.noteSpecial && options.unreadable && options.unreadable.length < 1000)
        options.unreadable.push({ path: rel, reason: SPECIAL_SKIP_REASON });
      continue;
    }
    // paths.toAbs(realRel), made from the folder's own path: one string less per entry
    const dir = frame.abs;
    const abs = dir === '/' ? `/${name}` : `${dir}/${name}`;
    if (entry.type === 'symlink') {
      if (options.links !== 'follow') {
        const link: WalkEntry = { rel, name, type: 'symlink', depth, abs, dir };
        yield most > 0 ? [link] : link;
        continue;
      }
      const target = await paths.resolveRel(realRel, 'read').catch(droppedLink);
      if (target?.stat?.type === 'file') {
        const file: WalkEntry = { rel, name, type: 'file', depth, abs: target.abs, dir: undefined };
        yield most > 0 ? [file] : file;
      }
      continue;
    }
    if (!isDir) {
      const file: WalkEntry = { rel, name, type: 'file', depth, abs, dir };
      if (most === 0) {
        yield file;
        continue;
      }
      run.push(file);
      if (run.length >= most) {
        yield run;
        run = [];
      }
      continue;
    }
    if (options.dirs && !(resumeAt !== undefined && comparePaths(rel, resumeAt) < 0)) {
      const folder: WalkEntry = { rel, name, type: 'dir', depth, abs, dir };
      yield most > 0 ? [folder] : folder;
    }
    if (buildOutput || depth >= maxDepth) continue;
    if (depth >= MAX_WALK_DEPTH) {
      if (options.unreadable && options.unreadable.length < 1000)
        options.unreadable.push({
          path: rel,
          reason: `deeper than ${MAX_WALK_DEPTH} levels, which walks do not enter`,
        });
      continue;
    }
    // Absent, unreadable or unreachable (a name too long, too deep) is reported as skipped; an I/O failure is not hidden.
    const children = await (frame.prefetched.get(name) ?? readFolder(fs, abs, options)).catch((error: unknown) => {
      if (hasFsCode(error, 'EIO')) throw error;
      noteUnreadable(options.unreadable, rel, error);
      return null;
    });
    if (children) stack.push(await frameOf(rel, realRel, children, depth));
  }
  if (run.length > 0) yield run;
}

/** A link the walk drops: it leaves the root or leads where tools may not go, or vanished meanwhile. */
function droppedLink(error: unknown): null {
  if (error instanceof ToolError || isAbsent(error)) return null;
  throw error;
}

async function frameFor(
  fs: WorkspaceFs,
  paths: PathResolver,
  rel: string,
  realRel: string,
  entries: FsDirent[],
  depth: number,
  options: WalkOptions,
  rules: IgnoreRules[],
): Promise<Frame> {
  let own: IgnoreRules | null = null;
  if (options.gitignore && entries.some((e) => e.name === '.gitignore' && e.type === 'file')) {
    own = await loadRules(fs, paths, realRel);
    if (own) rules.push(own);
  }
  const prefetched = new Map<string, Promise<FsDirent[]>>();
  if (depth + 1 < (options.maxDepth ?? Infinity)) {
    for (const e of entries) {
      if (e.type !== 'dir' || SKIPPED_FOLDERS.has(e.name) || (!options.includeHidden && e.name.charCodeAt(0) === 46))
        continue;
      if (prefetched.size >= PREFETCH_PER_FOLDER) break;
      // a page resumed from a cursor enters only the folders on the way to it and after it
      if (options.resumeAt !== undefined && beforeResume(joinRel(rel, e.name), options.resumeAt)) continue;
      const listing = readFolder(fs, paths.toAbs(joinRel(realRel, e.name)), options);
      listing.catch(() => {});
      prefetched.set(e.name, listing);
    }
  }
  return { rel, realRel, abs: paths.toAbs(realRel), entries, next: 0, depth, rules: own, prefetched };
}

/** A folder the walk skips whole when resuming at `resumeAt`: before it, and not on the way to it. */
function beforeResume(rel: string, resumeAt: string): boolean {
  return comparePaths(rel, resumeAt) < 0 && !resumeAt.startsWith(`${rel}/`);
}

/** Entries of a folder sorted by name, from readdirTypes when the backend has it. */
export async function readFolder(fs: WorkspaceFs, abs: string, options?: ResolveOptions): Promise<FsDirent[]> {
  let entries: FsDirent[];
  if (fs.readdirTypes) {
    const since = options?.resolvedSince;
    entries = await (since === undefined ? fs.readdirTypes(abs) : fs.readdirTypes(abs, { resolvedSince: since }));
  } else {
    const names = await fs.readdir(abs);
    const base = abs === '/' ? '' : abs;
    entries = await Promise.all(
      names.map(async (name): Promise<FsDirent> => {
        const stat = await lstatOrNull(fs, `${base}/${name}`);
        return { name, type: stat && !stat.special ? stat.type : 'other' };
      }),
    );
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function loadRules(fs: WorkspaceFs, paths: PathResolver, folder: string): Promise<IgnoreRules | null> {
  try {
    const bytes = await fs.readFile(paths.toAbs(joinRel(folder, '.gitignore')));
    return await parseGitignore(folder, new TextDecoder().decode(bytes));
  } catch (error) {
    // A missing or unreadable .gitignore simply adds no rules; a failing disk is still reported.
    if (isAbsent(error) || hasFsCode(error, 'EACCES', 'EPERM', 'EISDIR')) return null;
    throw error;
  }
}

/**
 * The `.gitignore` files above the start folder. When the start folder is itself ignored the
 * caller asked for it by name, so those outer rules are dropped rather than hiding everything.
 */
async function ancestorRules(fs: WorkspaceFs, paths: PathResolver, startReal: string): Promise<IgnoreRules[]> {
  if (startReal === '') return [];
  const parts = startReal.split('/');
  const found: IgnoreRules[] = [];
  for (let i = 0; i < parts.length; i++) {
    const rules = await loadRules(fs, paths, parts.slice(0, i).join('/'));
    if (rules) found.push(rules);
    // the start folder or one above it is ignored (rules judge each folder with those above it in)
    if (isIgnored(found, parts.slice(0, i + 1).join('/'), true)) return [];
  }
  return found;
}
