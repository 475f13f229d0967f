import type { Worker } from 'node:worker_threads';
import { statfsSync } from 'node:fs';
import type { ChangeFeed, WatchOptions } from '../types.js';
import { WATCHER_SOURCE } from './watcher-source.js';
import { nodeBuiltin } from '../node-builtin.js';

/*
 * A change feed over a real folder, as git's fsmonitor and watchman keep one: one inotify watch
 * per folder, set before the folder is listed, so nothing changes unseen between the two. The
 * watches live on one helper thread for the whole process: its event loop has its own inotify
 * queue, read while the main thread is busy, and shared with no other watcher of the host's.
 *
 * A take makes a cookie (an empty folder) in the scratch folder and waits for its event: inotify keeps one
 * queue per instance in order, so when the cookie's event is in, every change made before it is
 * in too. The feed answers null (look at everything) until its watches are all set, when its
 * cookie does not come back in time, and after the kernel may have dropped events: libuv drops
 * the queue-overflow notice, so the thread counts the events of each read of the queue instead;
 * an overflow leaves the queue's whole length to be read at once, so a read of a quarter of that
 * limit is taken as one. Any other failure (out of watches, the root gone) ends the feed, and
 * every take answers null from then on.
 */

/**
 * Filesystems whose every change, by any process on this machine, reaches inotify: ext2-4, xfs,
 * btrfs, tmpfs, ramfs, f2fs, zfs, bcachefs and overlayfs. On a network or FUSE filesystem another
 * machine or the daemon changes files unseen, so a feed is never kept there.
 */
const LOCAL_FILESYSTEMS = new Set([
  0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x858458f6, 0xf2f52010, 0x2fc12fc1, 0xca451a4e, 0x794c7630,
]);

/** How long a take waits for the watches to be set (a first snapshot of a large tree waits once). */
const READY_WAIT_MS = 10_000;
/** How long a take waits for its cookie before it answers null. */
const COOKIE_WAIT_MS = 2_000;

interface Batch {
  t: 'batch';
  id: number;
  cookie: string | null;
  paths: string[];
  unwatched: string[];
  overflow: boolean;
}
type FromThread = { t: 'ready'; id: number } | { t: 'failed'; id: number } | Batch;

let thread: Worker | null | undefined;
const feeds = new Map<number, NodeFeed>();
let nextId = 1;

function watcherThread(): Worker | null {
  if (thread !== undefined) return thread;
  try {
    const { Worker } = nodeBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
    const started = new Worker(WATCHER_SOURCE, { eval: true });
    started.on('message', (message: FromThread) => feeds.get(message.id)?.hear(message));
    const lost = () => {
      thread = null;
      for (const feed of feeds.values()) feed.hear({ t: 'failed', id: 0 });
    };
    started.on('error', lost);
    started.on('exit', lost);
    // never what keeps the process alive (after the listeners: adding one refs the port again);
    // a take that waits holds a timer instead
    started.unref();
    thread = started;
  } catch {
    thread = null;
  }
  return thread;
}

/** What the feed makes and removes its cookies with (empty folders): the backend's own confined calls. */
export interface CookieFiles {
  make(path: string): Promise<void>;
  remove(path: string): Promise<void>;
}

/**
 * A feed of the changes below host folder `dir`, or null where none can be kept (not Linux, not a
 * local filesystem, no scratch folder to put cookies in, no helper thread).
 */
export function watchFolder(dir: string, options: WatchOptions, files: CookieFiles): ChangeFeed | null {
  if (process.platform !== 'linux' || options.scratch === undefined) return null;
  try {
    if (!LOCAL_FILESYSTEMS.has(statfsSync(dir).type)) return null;
  } catch {
    return null;
  }
  const worker = watcherThread();
  if (worker === null) return null;
  const feed = new NodeFeed(nextId++, dir.replace(/\/+$/, '') || '/', options.scratch, worker, files);
  feeds.set(feed.id, feed);
  worker.postMessage({
    t: 'watch',
    id: feed.id,
    root: feed.root,
    skip: [...(options.skip ?? [])],
    scratch: feed.scratch,
  });
  return feed;
}

class NodeFeed implements ChangeFeed {
  private state: 'starting' | 'ready' | 'failed' = 'starting';
  private readonly paths = new Set<string>();
  private readonly skipped = new Set<string>();
  private overflow = false;
  /** whether a take has answered since the watches were set: until one has, the next answers null */
  private synced = false;
  private readonly waiting = new Map<string, () => void>();
  private readonly onReady: Array<() => void> = [];
  private cookies = 0;

  constructor(
    readonly id: number,
    readonly root: string,
    readonly scratch: string,
    private readonly worker: Worker,
    private readonly files: CookieFiles,
  ) {}

  hear(message: FromThread): void {
    if (message.t === 'ready') this.state = this.state === 'starting' ? 'ready' : this.state;
    else if (message.t === 'failed') this.fail();
    else {
      for (const path of message.paths) this.paths.add(path);
      for (const path of message.unwatched) this.skipped.add(path);
      if (message.overflow) this.overflow = true;
      if (message.cookie !== null) this.waiting.get(message.cookie)?.();
    }
    if (this.state !== 'starting') for (const wake of this.onReady.splice(0)) wake();
  }

  async take(): Promise<string[] | null> {
    this.cookies++;
    // only the first take waits: while a huge tree's watches are still being set, rescans look at everything
    if (this.state === 'starting' && this.cookies === 1)
      await this.within(READY_WAIT_MS, (wake) => this.onReady.push(wake));
    if (this.state !== 'ready') return null;
    const name = `sandpit-cookie-${process.pid}-${this.id}-${this.cookies}`;
    const path = `${this.root === '/' ? '' : this.root}/${this.scratch}/${name}`;
    let heard = false;
    try {
      await this.files.make(path);
      heard = await this.within(COOKIE_WAIT_MS, (wake) => this.waiting.set(name, wake));
    } catch {
      // no cookie, no answer: everything is looked at
    } finally {
      this.waiting.delete(name);
      await this.files.remove(path).catch(() => {});
    }
    const vouched = heard && this.synced && !this.overflow && (this.state as string) === 'ready';
    const out = vouched ? [...this.paths] : null;
    this.paths.clear();
    this.overflow = false;
    this.synced = heard && (this.state as string) === 'ready';
    return out;
  }

  unwatched(): Iterable<string> {
    return this.skipped;
  }

  close(): void {
    if (!feeds.delete(this.id)) return;
    this.fail();
    try {
      this.worker.postMessage({ t: 'close', id: this.id });
    } catch {
      /* the thread is gone, and its watches with it */
    }
  }

  private fail(): void {
    this.state = 'failed';
    this.paths.clear();
    for (const wake of this.waiting.values()) wake();
    for (const wake of this.onReady.splice(0)) wake();
  }

  /** Wait until `arm`'s wake is called (true) or `ms` passed (false); the timer keeps the process alive meanwhile. */
  private within(ms: number, arm: (wake: () => void) => void): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      arm(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
