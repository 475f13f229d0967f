import type { ChangeFeed } from '../types.js';

/** Paths one feed keeps before it stops listing them and answers "look at everything" instead. */
const MAX_PATHS = 10_000;

/**
 * The changes made through one backend object, for a backend that nothing else can change (memory):
 * the backend records each change's path after the change finished, and every open feed whose
 * folder holds that path keeps it. A take that starts after a change returned therefore has it.
 */
export class ChangeJournal {
  private readonly feeds = new Set<JournalFeed>();

  /** A feed of the changes below `dir` (an absolute path) from now on, none in folder `scratch` directly below it. */
  feed(dir: string, scratch?: string): ChangeFeed {
    const feed = new JournalFeed(dir === '/' ? '' : dir.replace(/\/+$/, ''), scratch, this.feeds);
    this.feeds.add(feed);
    return feed;
  }

  /**
   * `path` changed. `plain`: it is a canonical absolute path whose folders are real folders (no
   * link on the way) and, for a change that follows a final link, not a link itself; anything
   * else may have changed another path, so the feeds then answer "look at everything".
   */
  record(path: string, plain: boolean): void {
    for (const feed of this.feeds) feed.note(path, plain);
  }
}

class JournalFeed implements ChangeFeed {
  private readonly paths = new Set<string>();
  /** a change this feed cannot name, or none taken yet: the next take answers null */
  private unknown = true;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly scratch: string | undefined,
    private readonly owners: Set<JournalFeed>,
  ) {}

  note(path: string, plain: boolean): void {
    const prefix = `${this.dir}/`;
    if (!plain) {
      this.lose();
      return;
    }
    if (path.startsWith(prefix)) {
      const rel = path.slice(prefix.length);
      const top = rel.indexOf('/');
      if (this.scratch !== undefined && (top === -1 ? rel : rel.slice(0, top)) === this.scratch) return;
      this.paths.add(rel);
      if (this.paths.size > MAX_PATHS) this.lose();
    } else if (path === this.dir || prefix.startsWith(`${path}/`)) this.lose();
  }

  async take(): Promise<string[] | null> {
    if (this.closed || this.unknown) {
      this.unknown = this.closed;
      this.paths.clear();
      return null;
    }
    const out = [...this.paths];
    this.paths.clear();
    return out;
  }

  close(): void {
    this.closed = true;
    this.unknown = true;
    this.paths.clear();
    this.owners.delete(this);
  }

  private lose(): void {
    this.unknown = true;
    this.paths.clear();
  }
}
