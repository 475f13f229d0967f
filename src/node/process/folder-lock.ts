// Over 400 lines: the lock file's whole protocol (take, renew, steal from a dead holder, release)
// shares one set of invariants that reads best in one place.

import {
  closeSync,
  constants,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '../../contract/index.js';
import { nodeBuiltin } from '../../fs/node-builtin.js';
import type { ProcessLock } from '../../workspace-core.js';

// crypto when a lock is first taken (see nodeBuiltin).
const randomBytes = (size: number): Buffer =>
  nodeBuiltin<typeof import('node:crypto')>('node:crypto').randomBytes(size);

/** How a workspace lock on a real folder waits and when it counts as abandoned. */
export interface FolderLockOptions {
  /** how long a change waits for another process's change (default 10 s), then IO_ERROR */
  waitMs?: number;
  /** a lock whose heartbeat is older than this is taken over, even if its pid seems alive (default 30 s) */
  staleMs?: number;
  /** how often the holder refreshes the heartbeat (default 2 s) */
  heartbeatMs?: number;
  /** how long the lock is kept after a process's last change, for the next one in a burst (default 0: dropped at once) */
  lingerMs?: number;
}

/** The lock over a real folder: a ProcessLock that also lets go at once when its workspace closes. */
export interface FolderLock extends ProcessLock {
  /** drop a lock kept after the last change; later changes take it again */
  close(): void;
}

interface LockBody {
  pid: number;
  token: string;
  since: string;
}

// Where Linux lets a folder be used through its descriptor, `.sandpit` is opened without
// following a link, so one swapped in cannot carry lock files outside the workspace.
const THROUGH_DESCRIPTOR =
  process.platform === 'linux' && typeof constants.O_NOFOLLOW === 'number' && existsSync('/proc/self/fd');
const FOLDER_FLAGS =
  constants.O_RDONLY | constants.O_DIRECTORY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** A waiter marks `lock.wanted` on every failed try, far more often than this. */
const WANTED_FRESH_MS = 1_000;
/** After another process wanted the lock (or held it when this one asked), no lock is kept for this long. */
const CONTENDED_MS = 2_000;
/** How often a kept lock looks for a waiter's mark. */
const WANTED_POLL_MS = 4;

// Locks kept after their last change, dropped when the process exits (every step is synchronous).
const lingering = new Set<() => void>();
let exitHooked = false;

/**
 * A workspace lock shared by every process that opens the same folder: the file
 * `.sandpit/lock`, created exclusively, holding the owner's pid and a token, with its mtime as
 * the heartbeat. Calls inside one process share the lock (the path locks order them), so it is
 * taken when the first change starts and dropped when the last one ends. A lock whose pid is gone
 * or whose heartbeat stopped is taken over; the takeover itself is guarded by a second exclusive
 * file, so two processes cannot both remove a stale lock and then each think they own a new one.
 *
 * Taking and dropping the lock are a handful of metadata calls on the workspace's own folder,
 * made synchronously: through the thread pool each cost a round trip, and a one-line edit paid
 * ten of them, more than the edit itself. After the last change the lock is kept a moment
 * (`lingerMs`), so a burst of changes (a model's parallel calls, a replay) takes it once and
 * other processes' commits need no checking in between. A process waiting for it marks
 * `lock.wanted`; a holder that sees the mark lets go within a few milliseconds, and while other
 * processes use the folder (a mark seen, or the lock found held) it keeps nothing for a while.
 */
export function folderLock(root: string, options: FolderLockOptions = {}): FolderLock {
  const dir = join(root, '.sandpit');
  const waitMs = options.waitMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? 2_000;
  const lingerMs = options.lingerMs ?? 0;
  let holders = 0;
  let held: Promise<string> | null = null;
  let token: string | null = null;
  let takes = 0;
  let beat: ReturnType<typeof setInterval> | null = null;
  let linger: ReturnType<typeof setInterval> | null = null;
  // while other processes use the folder too, each change drops the lock at once, as without keeping
  let contendedUntil = 0;
  // `.sandpit` made only for the lock goes again with it, so a folder without snapshots stays clean
  let madeDir = false;

  // the lock folder's descriptor while this process holds the lock: the lock file is in that folder
  let heldFolder: number | null = null;

  /**
   * `work` on the path of the lock folder for the length of one step; `make`: create the folder
   * when it is missing, else answer null. `keep`: on a true answer the descriptor stays open as
   * the held lock's folder.
   */
  function inFolder<T>(work: (folder: string) => T, make: boolean, keep = false): T | null {
    if (heldFolder !== null) return work(`/proc/self/fd/${heldFolder}`);
    for (let attempt = 0; ; attempt++) {
      const fd = openFolder();
      if (fd === 'missing') {
        if (!make) return null;
        if (attempt === 3) throw lockFailed({ code: 'ENOENT' });
        try {
          mkdirSync(dir);
          madeDir = true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw lockFailed(error);
        }
        continue;
      }
      let kept = false;
      try {
        const answer = work(fd === null ? dir : `/proc/self/fd/${fd}`);
        if (keep && answer === true && fd !== null) {
          heldFolder = fd;
          kept = true;
        }
        return answer;
      } finally {
        if (fd !== null && !kept) closeSync(fd);
      }
    }
  }

  /** The lock folder's descriptor, null where paths are used as they are, or 'missing'. */
  function openFolder(): number | null | 'missing' {
    if (!THROUGH_DESCRIPTOR) return existsSync(dir) ? null : 'missing';
    try {
      return openSync(dir, FOLDER_FLAGS);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw lockFailed(error);
    }
  }

  let swept = false;
  async function take(): Promise<string> {
    if (!swept) {
      swept = true;
      inFolder(sweepStaged, false);
    }
    const mine = `${process.pid}-${randomBytes(8).toString('hex')}`;
    const body = JSON.stringify({ pid: process.pid, token: mine, since: new Date().toISOString() } satisfies LockBody);
    const deadline = Date.now() + waitMs;
    let marked = false;
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      if (inFolder((folder) => createExclusive(folder, body), true, true)) {
        if (marked) inFolder((folder) => removeIfThere(`${folder}/lock.wanted`), false);
        takes++;
        return mine;
      }
      contendedUntil = Date.now() + CONTENDED_MS;
      inFolder((folder) => takeOverIfStale(folder, staleMs), false);
      marked = inFolder(markWanted, false) ?? false;
      if (Date.now() > deadline) {
        throw new ToolError(
          'IO_ERROR',
          'the workspace is busy in another process (a change there has held the workspace lock too long)',
          {
            hint: 'Try the call again in a moment; if no other Sandpit process is using this folder, the lock frees itself once its heartbeat stops.',
          },
        );
      }
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    }
  }

  function release(mine: string): void {
    try {
      inFolder((folder) => {
        if (readBody(`${folder}/lock`)?.token === mine) removeIfThere(`${folder}/lock`);
      }, false);
    } finally {
      if (heldFolder !== null) closeSync(heldFolder);
      heldFolder = null;
    }
    if (madeDir) {
      madeDir = false;
      try {
        rmdirSync(dir);
      } catch {
        /* something else lives there now */
      }
    }
  }

  /** Whether another process has asked for the lock lately; an old mark (its waiter gone) is removed. */
  function wanted(): boolean {
    return (
      inFolder((folder) => {
        const mark = statSync(`${folder}/lock.wanted`, { throwIfNoEntry: false });
        if (!mark) return false;
        if (Date.now() - mark.mtimeMs <= WANTED_FRESH_MS) return true;
        removeIfThere(`${folder}/lock.wanted`);
        return false;
      }, false) ?? false
    );
  }

  function stopKeeping(): void {
    if (linger) clearInterval(linger);
    linger = null;
    lingering.delete(drop);
  }

  function drop(): void {
    stopKeeping();
    if (beat) clearInterval(beat);
    beat = null;
    const mine = token;
    held = null;
    token = null;
    // from a timer or the exit hook nothing may throw: a lock left behind stops beating, and is taken over
    try {
      if (mine) release(mine);
    } catch {
      /* see above */
    }
  }

  /** Whether a waiter's mark is there; seeing one, stop keeping the lock for a while. */
  function someoneWaits(): boolean {
    let waits = true;
    try {
      waits = wanted();
    } catch {
      /* unreadable: let go */
    }
    if (waits) contendedUntil = Date.now() + CONTENDED_MS;
    return waits;
  }

  /**
   * The last change ended: keep the lock for the next one, looking every few milliseconds for another
   * process's mark, unless the folder is in use by others. A `.sandpit` made for the lock alone
   * goes when the lock does.
   */
  function lastOut(): void {
    if (lingerMs <= 0 || Date.now() < contendedUntil || someoneWaits()) {
      drop();
      return;
    }
    const until = Date.now() + lingerMs;
    linger = setInterval(() => {
      if (Date.now() >= until || someoneWaits()) drop();
    }, WANTED_POLL_MS);
    linger.unref?.();
    lingering.add(drop);
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', () => {
        for (const dropOne of [...lingering]) dropOne();
      });
    }
  }

  return {
    get takes() {
      return takes;
    },
    async acquire() {
      holders++;
      stopKeeping();
      try {
        held ??= take();
        token = await held;
        beat ??= setInterval(() => {
          const now = new Date();
          try {
            inFolder((folder) => utimesSync(`${folder}/lock`, now, now), false);
          } catch {
            /* the next change will say */
          }
        }, heartbeatMs);
        beat.unref?.();
      } catch (error) {
        if (--holders === 0) held = null;
        throw error;
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        if (--holders > 0) return;
        lastOut();
      };
    },
    close() {
      if (holders === 0 && held) drop();
    },
  };
}

/** Say this process waits for the lock: make `lock.wanted`, or freshen the one another waiter made. */
function markWanted(folder: string): boolean {
  const mark = `${folder}/lock.wanted`;
  try {
    writeFileSync(mark, '', { flag: 'wx' });
  } catch {
    try {
      const now = new Date();
      utimesSync(mark, now, now);
    } catch {
      return false;
    }
  }
  return true;
}

function lockFailed(error: unknown): ToolError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'ENOTDIR') {
    return new ToolError(
      'IO_ERROR',
      'the workspace lock cannot be taken: .sandpit in the workspace is not a folder (a link or a file stands there)',
      {
        hint: 'Remove whatever stands at .sandpit; Sandpit makes the folder again on the next change.',
      },
    );
  }
  return new ToolError(
    'IO_ERROR',
    `the workspace lock cannot be taken (${typeof code === 'string' ? code : 'unknown error'})`,
    {
      hint: 'Retry once; if it fails again, check that the workspace folder is writable.',
    },
  );
}

/**
 * Create `folder/lock` holding `text`, unless it exists. The text is written to a file of its own
 * first and then linked into place, so the lock never exists without its body: a process
 * killed between creating the lock and writing it would otherwise leave one only its age could
 * ever free. Where the folder has no hard links, it falls back to create-then-write.
 */
function createExclusive(folder: string, text: string): boolean {
  const staged = `${folder}/lock.${process.pid}-${randomBytes(6).toString('hex')}.new`;
  try {
    writeFileSync(staged, text, { flag: 'wx' });
  } catch (error) {
    throw lockFailed(error);
  }
  try {
    linkSync(staged, `${folder}/lock`);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw lockFailed(error);
    return createThenWrite(`${folder}/lock`, text);
  } finally {
    removeIfThere(staged);
  }
}

function createThenWrite(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw lockFailed(error);
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* gone already, or taken over meanwhile */
  }
}

function readBody(file: string): LockBody | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockBody>;
    return typeof parsed.pid === 'number' && typeof parsed.token === 'string' ? (parsed as LockBody) : null;
  } catch {
    return null;
  }
}

/** Staged lock bodies left by processes killed between staging and linking (`lock.PID-HEX.new`). */
function sweepStaged(folder: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    /* nothing to sweep */
  }
  for (const name of names) {
    const staged = /^lock\.(\d+)-[0-9a-f]+\.new$/.exec(name);
    if (staged && !pidAlive(Number(staged[1]))) removeIfThere(`${folder}/${name}`);
  }
}

/**
 * Whether a process still runs. A killed process its parent has not yet reaped still answers
 * signals; on Linux its state says it is a zombie, and a zombie holds no lock.
 */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Remove the lock when its owner is gone; only one process at a time may decide that. */
function takeOverIfStale(folder: string, staleMs: number): void {
  const lock = `${folder}/lock`;
  const seen = readBody(lock);
  const info = statSync(lock, { throwIfNoEntry: false });
  if (!info) return;
  const quiet = Date.now() - info.mtimeMs > staleMs;
  // a lock being written has no body yet: only its age can make it stale
  if (seen ? pidAlive(seen.pid) && !quiet : !quiet) return;
  const guard = `${lock}.takeover`;
  try {
    closeSync(openSync(guard, 'wx'));
  } catch {
    const g = statSync(guard, { throwIfNoEntry: false });
    if (g && Date.now() - g.mtimeMs > staleMs) removeIfThere(guard);
    return;
  }
  try {
    if (readBody(lock)?.token === seen?.token) removeIfThere(lock);
  } finally {
    removeIfThere(guard);
  }
}
