/** One snapshot as the tools show it, plus what undo needs to know about it. */
export interface SnapshotInfo {
  /** the commit id, shortened to 12 hex digits for the model */
  id: string;
  /** the full commit id */
  oid: string;
  /** the commit's tree */
  tree: string;
  /** the previous snapshot's commit, or null for the first */
  parent: string | null;
  /** what the snapshot is of (the tool call, or the message given) */
  message: string;
  /** when it was taken, ISO 8601 */
  created_at: string;
  /** how many files differ from the parent */
  files_changed: number;
  /** the tool whose call it records, if any */
  tool?: string;
  /** the change it records, if any */
  change_id?: string;
  /** files left out (over the size cap) */
  skipped: string[];
  /** for a restore or undo: the snapshot whose files it brought back */
  restored_to?: string;
  /** true for an undo: undo walks past it to the snapshot it restored */
  undo: boolean;
}

/** What a new commit records beyond its tree. */
export interface CommitMeta {
  message: string;
  tool?: string;
  change_id?: string;
  files_changed: number;
  skipped?: string[];
  restored_to?: string;
  undo?: boolean;
}

const TRAILERS = {
  tool: 'Sandpit-Tool',
  change_id: 'Sandpit-Change',
  files_changed: 'Sandpit-Files-Changed',
  skipped: 'Sandpit-Skipped',
  restored_to: 'Sandpit-Restored-To',
  undo: 'Sandpit-Undo',
} as const;

/** A git commit message: the subject, a blank line, then trailers git itself can parse. */
export function formatMessage(meta: CommitMeta): string {
  const lines = [`${TRAILERS.files_changed}: ${meta.files_changed}`];
  if (meta.tool) lines.push(`${TRAILERS.tool}: ${meta.tool}`);
  if (meta.change_id) lines.push(`${TRAILERS.change_id}: ${meta.change_id}`);
  for (const s of meta.skipped ?? []) lines.push(`${TRAILERS.skipped}: ${s.replace(/\n/g, ' ')}`);
  if (meta.restored_to) lines.push(`${TRAILERS.restored_to}: ${meta.restored_to}`);
  if (meta.undo) lines.push(`${TRAILERS.undo}: true`);
  return `${meta.message.replace(/\n+$/, '') || 'snapshot'}\n\n${lines.join('\n')}\n`;
}

export function parseCommit(
  oid: string,
  commit: { message: string; tree: string; parent: string[]; author: { timestamp: number } },
): SnapshotInfo {
  const paragraphs = commit.message.replace(/\n+$/, '').split('\n\n');
  const trailers = paragraphs.length > 1 ? paragraphs.pop()!.split('\n') : [];
  const get = (key: string) => trailers.filter((l) => l.startsWith(`${key}: `)).map((l) => l.slice(key.length + 2));
  const restored = get(TRAILERS.restored_to)[0];
  return {
    id: oid.slice(0, 12),
    oid,
    tree: commit.tree,
    parent: commit.parent[0] ?? null,
    message: paragraphs.join('\n\n'),
    created_at: new Date(commit.author.timestamp * 1000).toISOString(),
    files_changed: Number(get(TRAILERS.files_changed)[0] ?? 0),
    ...(get(TRAILERS.tool)[0] ? { tool: get(TRAILERS.tool)[0] } : {}),
    ...(get(TRAILERS.change_id)[0] ? { change_id: get(TRAILERS.change_id)[0] } : {}),
    skipped: get(TRAILERS.skipped),
    ...(restored ? { restored_to: restored } : {}),
    undo: get(TRAILERS.undo)[0] === 'true',
  };
}

/**
 * The linear history, oldest first, in memory. Undo moves a "position" back along it: an undo
 * snapshot stands for the snapshot it restored, so repeated undos keep going back, while a
 * restore_snapshot is an ordinary step that a later undo reverses (that is redo).
 */
export class History {
  readonly chain: SnapshotInfo[] = [];
  private readonly byOid = new Map<string, SnapshotInfo>();

  get head(): SnapshotInfo | undefined {
    return this.chain[this.chain.length - 1];
  }

  push(info: SnapshotInfo): void {
    this.chain.push(info);
    this.byOid.set(info.oid, info);
  }

  /** Drop all but the newest `keep`; returns the new oldest (the shallow boundary) when any went. */
  trim(keep: number): SnapshotInfo | null {
    if (this.chain.length <= keep) return null;
    for (const gone of this.chain.splice(0, this.chain.length - keep)) this.byOid.delete(gone.oid);
    return this.chain[0]!;
  }

  /** A snapshot by full id or unique prefix (at least 4 hex digits). */
  find(id: string): SnapshotInfo | 'ambiguous' | undefined {
    const wanted = id.toLowerCase();
    if (this.byOid.has(wanted)) return this.byOid.get(wanted);
    if (wanted.length < 4) return undefined;
    const hits = this.chain.filter((s) => s.oid.startsWith(wanted));
    return hits.length > 1 ? 'ambiguous' : hits[0];
  }

  /**
   * Where in history a snapshot stands: an undo stands where it went back to. Null when that
   * is older than the history kept.
   */
  position(info: SnapshotInfo): SnapshotInfo | null {
    if (info.undo && info.restored_to) return this.byOid.get(info.restored_to) ?? null;
    return info;
  }

  /** The snapshot `steps` undos back from the head, or how many steps are possible. */
  back(steps: number): { target: SnapshotInfo } | { available: number } {
    let pos = this.head ? this.position(this.head) : null;
    for (let i = 0; i < steps; i++) {
      const index = pos ? this.chain.indexOf(pos) : -1;
      const previous = index > 0 ? this.position(this.chain[index - 1]!) : null;
      if (!previous) return { available: i };
      pos = previous;
    }
    return pos ? { target: pos } : { available: 0 };
  }
}
