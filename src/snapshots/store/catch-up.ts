import { readFileOrNull } from '../../fs/helpers.js';
import { readBranch } from '../branch.js';
import { History, parseCommit, type SnapshotInfo } from '../history.js';
import { readCommit } from '../object-reader.js';
import type { Scanner } from '../rescan.js';
import { TreeCache } from '../tree.js';
import { damagedHistory, type RepositoryView, type SharedLock } from './view.js';

/**
 * The catch-up with other processes that share the repository (through the shared lock): before
 * a change, the commits they made since this process last looked are appended to history and
 * the trees are read from the new head. Owns when this process last looked.
 */
export class OtherProcesses {
  /** the lock's take count when this process last took the other processes' commits */
  private caughtUpAt: number | null = null;

  constructor(
    private readonly view: RepositoryView,
    private readonly scanner: Scanner,
    private readonly lock: SharedLock | null,
  ) {}

  /**
   * Take the commits another process made since this one last looked (call it holding the lock):
   * `open` and `exclusive` are the store's. Reads one small file when nothing changed, and nothing
   * while this process has held the lock since it last looked.
   */
  async catchUp(open: () => Promise<void>, exclusive: (work: () => Promise<void>) => Promise<void>): Promise<void> {
    const takes = this.lock?.takes;
    if (takes !== undefined && takes === this.caughtUpAt) return;
    await open();
    await exclusive(() => this.take());
    if (takes !== undefined) this.caughtUpAt = takes;
  }

  private async take(): Promise<void> {
    const { view } = this;
    const onDisk = await readBranch(view.fs, view.access.gitdir);
    const known = view.history.head?.oid;
    if (onDisk.kind !== 'ok')
      throw damagedHistory(onDisk.kind === 'damaged' ? onDisk.why : 'the branch refs/heads/main is gone');
    if (onDisk.oid === known) return;
    const fresh: SnapshotInfo[] = [];
    let oid: string | null = onDisk.oid;
    while (oid && oid !== known && fresh.length < view.keep) {
      const at: string = oid;
      const commit = await readCommit(view.access, at).catch(() => {
        throw damagedHistory(`commit ${at.slice(0, 12)} is missing or corrupt`);
      });
      fresh.push(parseCommit(at, commit));
      oid = commit.parent[0] ?? null;
    }
    if (oid !== known) {
      view.history = new History();
      for (const info of await readHistory(view, onDisk.oid)) view.history.push(info);
    } else {
      for (const info of fresh.reverse()) view.history.push(info);
      view.history.trim(view.keep);
    }
    view.tree = new TreeCache(view.access, view.history.head!.tree);
    this.scanner.forget('');
  }
}

/** The snapshots from `head` back, oldest first: at most `keep`, and none past a `shallow` cut. */
export async function readHistory(view: RepositoryView, head: string): Promise<SnapshotInfo[]> {
  const { gitdir } = view.access;
  const cut = await readFileOrNull(view.fs, `${gitdir}/shallow`);
  const shallow = new Set(cut ? new TextDecoder().decode(cut).split('\n').filter(Boolean) : []);
  const found: SnapshotInfo[] = [];
  for (let oid: string | null = head; oid && found.length < view.keep; ) {
    const at: string = oid;
    const commit = await readCommit(view.access, at).catch(() => {
      throw damagedHistory(`commit ${at.slice(0, 12)} in the history is missing or corrupt`);
    });
    found.push(parseCommit(at, commit));
    oid = shallow.has(at) ? null : (commit.parent[0] ?? null);
  }
  return found.reverse();
}
