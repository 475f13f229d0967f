/** What the workspace remembers of a file an agent has read. */
export interface LedgerEntry {
  /** the SHA-256 of the bytes the agent saw */
  sha256: string;
  /** read whole, not through a window: grants writes under `readBeforeWrite` */
  full: boolean;
}

/**
 * The read ledger: which files the agent has seen, and in what state, so a write can refuse
 * a file it never read (NOT_READ) or one that changed behind its back (STALE_FILE).
 */
export class ReadLedger {
  private readonly entries = new Map<string, LedgerEntry>();

  /** Note a read of `path` with these bytes; `full` when the whole file was read, not a window. */
  recordRead(path: string, sha256: string, full: boolean): void {
    const previous = this.entries.get(path);
    // A window of the same bytes keeps an earlier full read's grant.
    const keepsFull = previous !== undefined && previous.full && previous.sha256 === sha256;
    this.entries.set(path, { sha256, full: full || keepsFull });
  }

  /** After the workspace's own write the agent knows the content it produced. */
  recordWrite(path: string, sha256: string): void {
    this.entries.set(path, { sha256, full: true });
  }

  /** What the agent last saw of `path`, if anything. */
  get(path: string): LedgerEntry | undefined {
    return this.entries.get(path);
  }

  /** Drop what is known of `path` and everything below it (after a delete). */
  forget(path: string): void {
    this.entries.delete(path);
    const prefix = `${path}/`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** Carry what is known from `from` (and below) to `to` (after a move). */
  move(from: string, to: string): void {
    const moved: Array<[string, LedgerEntry]> = [];
    const prefix = `${from}/`;
    for (const [key, entry] of this.entries) {
      if (key === from) moved.push([to, entry]);
      else if (key.startsWith(prefix)) moved.push([`${to}/${key.slice(prefix.length)}`, entry]);
    }
    this.forget(from);
    for (const [key, entry] of moved) this.entries.set(key, entry);
  }
}
