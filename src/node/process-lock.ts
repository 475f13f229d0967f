import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, openSync, closeSync, readFileSync, rmdirSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { open, readFile, readdir, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '../contract/index.js';
import type { ProcessLock } from '../workspace-core.js';

/** How a workspace lock on a real folder waits and when it counts as abandoned. */
export interface FolderLockOptions {
  /** how long a change waits for another process's change (default 10 s), then IO_ERROR */
  waitMs?: number;
  /** a lock whose heartbeat is older than this is taken over, even if its pid seems alive (default 30 s) */
  staleMs?: number;
  /** how often the holder refreshes the heartbeat (default 2 s) */
  heartbeatMs?: number;
}

interface LockBody {
  pid: number;
  token: string;
  since: string;
}

/**
 * A workspace lock shared by every process that opens the same folder: the file
 * `.sandpit/lock`, created exclusively, holding the owner's pid and a token, with its mtime as
 * the heartbeat. Calls inside one process share the lock (the path locks order them), so it is
 * taken when the first change starts and dropped when the last one ends. A lock whose pid is gone
 * or whose heartbeat stopped is taken over; the takeover itself is guarded by a second exclusive
 * file, so two processes cannot both remove a stale lock and then each think they own a new one.
 */
export function folderLock(root: string, options: FolderLockOptions = {}): ProcessLock {
  const dir = join(root, '.sandpit');
  const path = join(dir, 'lock');
  const waitMs = options.waitMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? 2_000;
  let holders = 0;
  let held: Promise<string> | null = null;
  let beat: ReturnType<typeof setInterval> | null = null;
  // `.sandpit` made only for the lock goes again with it, so a folder without snapshots stays clean
  let madeDir = false;

  let swept = false;
  async function take(): Promise<string> {
    if (!swept) {
      swept = true;
      await sweepStaged(dir);
    }
    const token = `${process.pid}-${randomBytes(8).toString('hex')}`;
    const body: LockBody = { pid: process.pid, token, since: new Date().toISOString() };
    const deadline = Date.now() + waitMs;
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      if (createExclusive(path, JSON.stringify(body))) return token;
      await takeOverIfStale(path, staleMs);
      if (Date.now() > deadline) {
        throw new ToolError('IO_ERROR', 'the workspace is busy in another process (a change there has held the workspace lock too long)', {
          hint: 'Try the call again in a moment; if no other Sandpit process is using this folder, the lock frees itself once its heartbeat stops.',
        });
      }
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    }
  }

  /**
   * Create `file` holding `text`, unless it exists. The text is written to a file of its own
   * first and then linked into place, so the lock never exists without its body: a process
   * killed between creating the lock and writing it would otherwise leave one only its age could
   * ever free. Where the folder has no hard links, it falls back to create-then-write.
   * Taking and dropping the lock are a handful of metadata calls on the workspace's own folder,
   * made synchronously: through the thread pool each costs a round trip, and a one-line edit
   * paid ten of them, more than the edit itself.
   */
  function createExclusive(file: string, text: string): boolean {
    for (let attempt = 0; ; attempt++) {
      const staged = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.new`;
      try {
        writeFileSync(staged, text, { flag: 'wx' });
        try {
          linkSync(staged, file);
          return true;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EEXIST') return false;
          if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
          return createThenWrite(file, text);
        } finally {
          try { unlinkSync(staged); } catch { /* already gone */ }
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && attempt < 3) { madeDir = mkdirSync(dir, { recursive: true }) !== undefined || madeDir; continue; }
        throw error;
      }
    }
  }

  function createThenWrite(file: string, text: string): boolean {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return true;
  }

  function release(token: string): void {
    if (readBodySync(path)?.token === token) {
      try { unlinkSync(path); } catch { /* taken over meanwhile */ }
    }
    if (madeDir) {
      madeDir = false;
      try { rmdirSync(dir); } catch { /* something else lives there now */ }
    }
  }

  return {
    async acquire() {
      holders++;
      try {
        held ??= take();
        await held;
        beat ??= setInterval(() => { const now = new Date(); void utimes(path, now, now).catch(() => {}); }, heartbeatMs);
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
        const token = await held!;
        held = null;
        if (beat) clearInterval(beat);
        beat = null;
        release(token);
      };
    },
  };
}

async function readBody(path: string): Promise<LockBody | null> {
  return parseBody(await readFile(path, 'utf8').catch(() => ''));
}

function readBodySync(path: string): LockBody | null {
  try {
    return parseBody(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

function parseBody(text: string): LockBody | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockBody>;
    return typeof parsed.pid === 'number' && typeof parsed.token === 'string' ? (parsed as LockBody) : null;
  } catch {
    return null;
  }
}

/** Staged lock bodies left by processes killed between staging and linking (`lock.PID-HEX.new`). */
async function sweepStaged(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const staged = /^lock\.(\d+)-[0-9a-f]+\.new$/.exec(name);
    if (staged && !pidAlive(Number(staged[1]))) await unlink(join(dir, name)).catch(() => {});
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
async function takeOverIfStale(path: string, staleMs: number): Promise<void> {
  const seen = await readBody(path);
  const info = await stat(path).catch(() => null);
  if (!info) return;
  const quiet = Date.now() - info.mtimeMs > staleMs;
  // a lock being written has no body yet: only its age can make it stale
  if (seen ? pidAlive(seen.pid) && !quiet : !quiet) return;
  const guard = `${path}.takeover`;
  try {
    const handle = await open(guard, 'wx');
    await handle.close();
  } catch {
    const g = await stat(guard).catch(() => null);
    if (g && Date.now() - g.mtimeMs > staleMs) await unlink(guard).catch(() => {});
    return;
  }
  try {
    const again = await readBody(path);
    if (again?.token === seen?.token) await unlink(path).catch(() => {});
  } finally {
    await unlink(guard).catch(() => {});
  }
}
