// Over 400 lines: the one write path (locks, race-free resolution, atomic write, modes and links, the
// .git capability of the shell's git) is one sequence whose steps share the call's state.

import { tool, ToolError, words } from '../contract/index.js';
import { hasFsCode } from '../fs/errors.js';
import { lstatOrNull, readdirOrNull, removeTree } from '../fs/helpers.js';
import { toToolError } from '../fs/tool-error.js';
import type { FsStat, WorkspaceFs } from '../fs/types.js';
import type { ChangedFile, ChangeLog, ChangeOrigin, ChangeSummary } from './change-log.js';
import type { PathLocks } from './locks.js';
import { displayPath, parentRel, type PathResolver } from './paths.js';
import { foldsToGitDir } from './git-names.js';
import { textOfBytes } from './change-log.js';
import { parallel } from './parallel.js';

/** What the write path tells the snapshot store, declared in the workspace layer and implemented by the store. */
export interface SnapshotPort {
  /** These bytes were just written at `rel`: the next snapshot hashes them instead of reading the file back. */
  noteWritten(rel: string, bytes: Uint8Array): void;
}

/**
 * One step of a change to the workspace's files, by canonical root-relative path. `before`, when
 * the caller already holds it, is what the path held (null: nothing), so an all-or-nothing
 * change can be rolled back without reading the file again.
 */
export type FileStep =
  | {
      kind: 'write';
      rel: string;
      bytes: Uint8Array | (() => Promise<Uint8Array>);
      executable?: boolean;
      before?: Uint8Array | null;
    }
  | { kind: 'link'; rel: string; target: string | (() => Promise<string>); before?: Uint8Array | null }
  | { kind: 'remove'; rel: string; before?: Uint8Array | null }
  | { kind: 'mkdir'; rel: string }
  | { kind: 'rmdir'; rel: string; keepIfNotEmpty?: boolean }
  | { kind: 'remove-tree'; rel: string }
  | { kind: 'move'; from: string; to: string };

export interface ApplyOptions {
  /** the caller already holds the path locks of every step (a tool inside `withPath`) */
  locked?: boolean;
  /** undo every applied step when one fails, so the workspace is as it was (default true) */
  allOrNothing?: boolean;
  /** remove the folders a removal leaves empty, as a git checkout does */
  prune?: boolean;
  /** run consecutive writes this many at a time (their folders are made first, in order) */
  parallel?: number;
  /** keep the written bytes for the next snapshot, which then does not read the files back (default true) */
  noteForSnapshot?: boolean;
  /**
   * the shell's `git` command is writing: paths inside the workspace root's own `.git` (not its
   * hooks) are allowed, and only those; a `.git` anywhere else stays refused
   */
  gitCommand?: boolean;
  /** record the change in the change log under this name; `files` gives its text, else the steps' bytes do */
  record?: { tool: string; files?: ChangedFile[]; origin?: ChangeOrigin };
  onProgress?: (done: number, total: number) => void;
}

/**
 * A path inside the workspace root's own repository, spelled exactly `.git`, outside its hooks
 * folder (which git runs programs from) and with no other `.git` below: what the shell's `git` may write.
 */
function isRootGitDir(rel: string): boolean {
  const parts = rel.split('/');
  return parts[0] === '.git' && parts[1] !== 'hooks' && !parts.slice(1).some(foldsToGitDir);
}

/** Where a folder goes in one rename before it is emptied, so a failure never leaves half of it. */
const TRASH = '.sandpit/trash';

/**
 * The one write path: every change to the workspace's files (the tools, a patch, a restore or
 * undo, a clone or pull, an import) goes through `apply`. It takes the path locks, never writes
 * through a link (a folder swapped for a link is refused), keeps modes and links only where the
 * backend can, leaves every `.git` alone unless the policy allows it, notes the written bytes for
 * the next snapshot and records the change for review. With `allOrNothing` a failure part-way
 * undoes the steps already taken.
 */
export class FileWriter {
  constructor(
    readonly fs: WorkspaceFs,
    readonly paths: PathResolver,
    private readonly locks: PathLocks,
    private readonly changes: ChangeLog,
    private readonly snapshots: SnapshotPort | null,
    private readonly rules: { allowGitWrites: boolean } = { allowGitWrites: false },
  ) {}

  async apply(steps: FileStep[], options: ApplyOptions = {}): Promise<ChangeSummary | null> {
    for (const step of steps) for (const rel of stepPaths(step)) this.checkProtected(rel, options.gitCommand === true);
    const work = () => this.run(steps, options);
    return options.locked ? work() : this.locks.run(steps.flatMap(stepPaths), work);
  }

  /**
   * Refuse a path under any `.git`, in any spelling a case-folding or 8.3 file system maps onto
   * it (`.GIT`, `git~1`): a repository's hooks and config run code the next time its owner runs git.
   */
  checkProtected(rel: string, gitCommand = false): void {
    if (this.rules.allowGitWrites || !rel.split('/').some(foldsToGitDir)) return;
    if (gitCommand && isRootGitDir(rel)) return;
    throw new ToolError(
      'PERMISSION_DENIED',
      `'${rel}' is inside a git repository's .git folder, which tools may read but not change`,
      {
        hint: 'Change the working files instead; git itself updates .git. The workspace policy allowGitWrites lifts this.',
      },
    );
  }

  private async run(steps: FileStep[], options: ApplyOptions): Promise<ChangeSummary | null> {
    const undo: Array<() => Promise<void>> = [];
    const allOrNothing = options.allOrNothing !== false;
    // One step fails whole or not at all (writes are atomic): only its new folders need undoing.
    const keepUndo = allOrNothing && steps.length > 1;
    // by path: a file removed and written again (a checkout turning a link into a file) is one entry
    const logged = new LoggedFiles();
    // folders this run has seen to be real folders: each is checked once, not again for every path below it
    const folders = new SeenFolders();
    let current = '';
    let done = 0;
    try {
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        if (step.kind === 'write' && (options.parallel ?? 1) > 1) {
          let end = i;
          while (end < steps.length && steps[end]!.kind === 'write') end++;
          const batch = steps.slice(i, end) as Array<Extract<FileStep, { kind: 'write' }>>;
          for (const dir of parentsOf(batch.map((s) => s.rel)))
            undo.push(...(await this.makeParents(`${dir}/x`, folders)));
          await parallel(batch, options.parallel!, async (s) => {
            current = s.rel;
            await this.take(s, undo, keepUndo, options, logged, folders);
            options.onProgress?.(++done, steps.length);
          });
          i = end - 1;
          continue;
        }
        current = stepPaths(step)[0]!;
        await this.take(step, undo, keepUndo, options, logged, folders);
        options.onProgress?.(++done, steps.length);
      }
    } catch (error) {
      const cause = toToolError(error, current === '' ? undefined : displayPath(current));
      if (!allOrNothing) throw cause;
      const failed = await rollBack(undo);
      if (failed > 0) throw new PartialChangeError(cause, failed);
      throw cause;
    }
    if (!options.record) return null;
    return this.changes.record(options.record.tool, options.record.files ?? logged.files(), options.record.origin);
  }

  /**
   * Carry out one step, pushing onto `undo` what undoes each part as soon as it is done: new
   * folders always, files only when the change is all or nothing (`keepUndo`). `folders` holds
   * the folders this run already found real; a step that removes or moves folders drops them.
   */
  private async take(
    step: FileStep,
    undo: Array<() => Promise<void>>,
    keepUndo: boolean,
    options: ApplyOptions,
    logged: LoggedFiles,
    folders: Set<string>,
  ): Promise<void> {
    switch (step.kind) {
      case 'write':
      case 'link': {
        undo.push(...(await this.makeParents(step.rel, folders)));
        const abs = this.paths.toAbs(step.rel);
        const before = await this.previous(step, keepUndo || logging(options));
        // A backend whose writeFile replaces what is there (a link, never written through; a folder
        // refused) is not asked first: a checkout of thousands of files saves a lookup each.
        const replaces = step.kind === 'write' && this.fs.capabilities?.replacesOnWrite === true;
        const was = replaces ? null : await lstatOrNull(this.fs, abs);
        if (was?.type === 'dir') throw isADirectory(step.rel);
        // Loaded only now, so a checkout of many files holds a few in memory at a time.
        const content =
          step.kind === 'link'
            ? typeof step.target === 'string'
              ? step.target
              : await step.target()
            : step.bytes instanceof Uint8Array
              ? step.bytes
              : await step.bytes();
        let written: Uint8Array | undefined;
        if (typeof content === 'string' && this.fs.capabilities?.symlinks !== false) {
          if (was) await this.fs.unlink(abs);
          await this.fs.symlink(content, abs);
        } else {
          // Where links are not supported, a link becomes a file holding its target (git's core.symlinks=false).
          const bytes = (written = typeof content === 'string' ? new TextEncoder().encode(content) : content);
          // A link is replaced, never written through.
          if (was?.type === 'symlink') await this.fs.unlink(abs);
          const executable = step.kind === 'write' ? step.executable : undefined;
          await (executable === undefined
            ? this.fs.writeFile(abs, bytes)
            : this.fs.writeFile(abs, bytes, { mode: executable ? 0o755 : 0o644 })
          ).catch((error: unknown) => {
            throw replaces && hasFsCode(error, 'EISDIR') ? isADirectory(step.rel) : error;
          });
          if (options.noteForSnapshot !== false) this.snapshots?.noteWritten(step.rel, bytes);
        }
        if (keepUndo) undo.push(() => this.putBack(step.rel, before));
        if (logging(options))
          logged.push({
            path: step.rel,
            before: before && textOfBytes(before),
            after: step.kind === 'write' && written ? textOfBytes(written) : undefined,
          });
        return;
      }
      case 'remove': {
        const abs = this.paths.toAbs(step.rel);
        await this.refuseLinkedParents(step.rel, folders);
        const before = await this.previous(step, keepUndo || logging(options));
        try {
          await this.fs.unlink(abs);
        } catch (error) {
          if (!hasFsCode(error, 'ENOENT')) throw error;
          return;
        }
        if (keepUndo) undo.push(() => this.putBack(step.rel, before));
        if (logging(options)) logged.push({ path: step.rel, before: before && textOfBytes(before), after: null });
        if (options.prune) await this.prune(parentRel(step.rel), folders);
        return;
      }
      case 'mkdir': {
        undo.push(...(await this.makeParents(`${step.rel}/x`, folders)));
        return;
      }
      case 'rmdir': {
        await this.refuseLinkedParents(step.rel, folders);
        folders.delete(step.rel);
        try {
          await this.fs.rmdir(this.paths.toAbs(step.rel));
        } catch (error) {
          if (hasFsCode(error, 'ENOENT') || (step.keepIfNotEmpty && hasFsCode(error, 'ENOTEMPTY', 'EEXIST'))) return;
          throw error;
        }
        undo.push(() => this.fs.mkdir(this.paths.toAbs(step.rel)));
        return;
      }
      case 'remove-tree': {
        await this.refuseLinkedParents(step.rel);
        folders.clear();
        const trash = this.paths.toAbs(TRASH);
        const parked = `${trash}/${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
        await this.fs.mkdir(trash, { recursive: true });
        await this.fs.rename(this.paths.toAbs(step.rel), parked);
        await removeTree(this.fs, parked).catch(() => {});
        return;
      }
      case 'move': {
        await this.refuseLinkedParents(step.from);
        folders.clear();
        undo.push(...(await this.makeParents(step.to)));
        const [from, to] = [this.paths.toAbs(step.from), this.paths.toAbs(step.to)];
        await this.fs.rename(from, to);
        undo.push(() => this.fs.rename(to, from));
        return;
      }
    }
  }

  /** What a path held before a write or removal, when it must be known (for the undo or the log). */
  private async previous(
    step: Extract<FileStep, { kind: 'write' | 'link' | 'remove' }>,
    needed: boolean,
  ): Promise<Uint8Array | null | undefined> {
    if (step.before !== undefined || !needed) return step.before;
    const abs = this.paths.toAbs(step.rel);
    const stat = await lstatOrNull(this.fs, abs);
    if (!stat || stat.type === 'dir') return null;
    return stat.type === 'symlink' ? new TextEncoder().encode(await this.fs.readlink(abs)) : this.fs.readFile(abs);
  }

  private async putBack(rel: string, before: Uint8Array | null | undefined): Promise<void> {
    const abs = this.paths.toAbs(rel);
    if (before === undefined) return;
    if (before === null) {
      await this.fs.unlink(abs).catch((e) => {
        if (!hasFsCode(e, 'ENOENT')) throw e;
      });
      return;
    }
    if ((await lstatOrNull(this.fs, abs))?.type === 'symlink') await this.fs.unlink(abs);
    await this.fs.writeFile(abs, before);
  }

  /**
   * Create the missing folders above `rel`, outermost first; returns what removes them again.
   * A link where a folder should be is refused: writes never follow links, and one swapped in
   * behind the tools' back must not carry a write outside. A folder another call creates at the
   * same moment counts as there. Folders in `known` were found real earlier in the same change
   * and are not checked again, so a tree N folders deep costs N checks, not N²; the backend's
   * own resolution still refuses a link swapped in since (the node backend resolves through
   * descriptors).
   */
  async makeParents(rel: string, known: Set<string> = new SeenFolders()): Promise<Array<() => Promise<void>>> {
    const undo: Array<() => Promise<void>> = [];
    const made = known instanceof SeenFolders ? known.made : null;
    let current = '';
    try {
      for (current of uncheckedPrefixes(parentRel(rel), known)) {
        const abs = this.paths.toAbs(current);
        // Inside a folder this change made, nothing is there but what another call makes at the same
        // moment, which the mkdir's EEXIST catches below: no lookup (a clone's hundreds of new
        // folders each cost a miss, an ENOENT error built and thrown, before their mkdir).
        const stat = made?.has(parentRel(current)) ? null : await lstatOrNull(this.fs, abs);
        if (stat?.type === 'dir') {
          known.add(current);
          continue;
        }
        if (stat) throw notAFolder(current, rel, stat);
        try {
          await this.fs.mkdir(abs);
          made?.add(current);
          undo.push(() => this.fs.rmdir(abs).catch(() => {}));
        } catch (error) {
          const now = await lstatOrNull(this.fs, abs);
          if (!hasFsCode(error, 'EEXIST') || now?.type !== 'dir') throw now ? notAFolder(current, rel, now) : error;
        }
        known.add(current);
      }
    } catch (error) {
      await rollBack(undo);
      throw toToolError(error, current);
    }
    return undo;
  }

  /** The folders above `rel` must be real folders, not links, for a removal or a move from there. */
  private async refuseLinkedParents(rel: string, known = new Set<string>()): Promise<void> {
    for (const current of uncheckedPrefixes(parentRel(rel), known)) {
      const stat = await lstatOrNull(this.fs, this.paths.toAbs(current));
      if (stat?.type === 'symlink') throw notAFolder(current, rel, stat);
      if (!stat) return;
      if (stat.type === 'dir') known.add(current);
    }
  }

  private async prune(dir: string, known: Set<string>): Promise<void> {
    for (; dir !== ''; dir = parentRel(dir)) {
      const abs = this.paths.toAbs(dir);
      const left = await readdirOrNull(this.fs, abs);
      if (!left || left.length > 0) return;
      await this.fs.rmdir(abs);
      known.delete(dir);
    }
  }
}

/**
 * `a`, `a/b`, `a/b/c` for `a/b/c` (empty components skipped), each a slice of the one string:
 * prefixes built by appending a part at a time are chains of joined strings that the engine
 * copies piece by piece on every use, so a 5,000-level path cost the depth squared.
 */
function* prefixesOf(dir: string): Generator<string> {
  if (dir.startsWith('/') || dir.endsWith('/') || dir.includes('//')) {
    let joined = '';
    for (const part of dir.split('/').filter(Boolean)) yield (joined = joined ? `${joined}/${part}` : part);
    return;
  }
  for (let slash = dir.indexOf('/'); slash !== -1; slash = dir.indexOf('/', slash + 1)) yield dir.slice(0, slash);
  if (dir !== '') yield dir;
}

/**
 * The prefixes of `dir` (outermost first) below the deepest one in `known`: looked up from the
 * deepest, so a path whose parent is known costs one lookup whatever its depth.
 */
function uncheckedPrefixes(dir: string, known: Set<string>): string[] {
  const all = [...prefixesOf(dir)];
  let from = all.length;
  while (from > 0 && !known.has(all[from - 1]!)) from--;
  return all.slice(from);
}

/**
 * The folders a change has found to be real folders, and among them the ones it made itself: a
 * folder dropped from the first (removed, moved) is dropped from both.
 */
class SeenFolders extends Set<string> {
  readonly made = new Set<string>();

  override delete(dir: string): boolean {
    this.made.delete(dir);
    return super.delete(dir);
  }

  override clear(): void {
    this.made.clear();
    super.clear();
  }
}

/** A failure whose undo also failed part-way: the workspace may be partly changed. */
export class PartialChangeError extends ToolError {
  constructor(
    override readonly cause: ToolError,
    readonly failedUndos: number,
  ) {
    super(
      'IO_ERROR',
      words`${cause.wordsOf('message')}; undoing the steps already taken also failed for ${failedUndos} of them, so the workspace may be partly changed`,
      {
        hint: words`Check the files this change names with ${tool('read_file')} before retrying.`,
      },
    );
  }
}

/** The change log's view of the steps: per path, what it held first and what it holds last. */
class LoggedFiles {
  private readonly byPath = new Map<string, ChangedFile>();

  push(file: ChangedFile): void {
    const earlier = this.byPath.get(file.path);
    this.byPath.set(file.path, earlier ? { ...file, before: earlier.before } : file);
  }

  files(): ChangedFile[] {
    return [...this.byPath.values()].filter((f) => f.before !== f.after || f.before === undefined);
  }
}

/** Whether the change log's text comes from the steps' bytes (the caller gave none). */
const logging = (options: ApplyOptions) => options.record !== undefined && options.record.files === undefined;

function isADirectory(rel: string): ToolError {
  return new ToolError('NOT_A_FILE', `'${rel}' is a directory, so a file cannot replace it`);
}

function notAFolder(at: string, rel: string, stat: FsStat): ToolError {
  if (stat.type === 'symlink') {
    return new ToolError(
      'PERMISSION_DENIED',
      `'${at}' is a symbolic link, so '${rel}' cannot be written there; writes never follow links`,
      {
        hint: `Write to the link's real folder instead, or replace '${at}' with a folder.`,
      },
    );
  }
  return new ToolError('NOT_A_DIRECTORY', `'${at}' is a file, so it cannot hold '${rel}'`);
}

function stepPaths(step: FileStep): string[] {
  return step.kind === 'move' ? [step.from, step.to] : [step.rel];
}

/** The distinct folders above some paths, parents before children. */
function parentsOf(rels: string[]): string[] {
  const dirs = new Set<string>();
  for (const rel of rels) for (let d = parentRel(rel); d !== '' && !dirs.has(d); d = parentRel(d)) dirs.add(d);
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length);
}

async function rollBack(undo: Array<() => Promise<void>>): Promise<number> {
  let failed = 0;
  for (const step of [...undo].reverse()) {
    try {
      await step();
    } catch {
      failed++;
    }
  }
  return failed;
}
