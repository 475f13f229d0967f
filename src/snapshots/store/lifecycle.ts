import { hasFsCode } from '../../fs/errors.js';
import { removeTree } from '../../fs/helpers.js';
import { FIRST_OPEN_MARK, initRepository, readBranch } from '../branch.js';
import { readCommit } from '../object-reader.js';
import type { Scanner } from '../rescan.js';
import { TreeCache } from '../tree.js';
import { readHistory } from './catch-up.js';
import type { CommitQueue } from './commit-queue.js';
import { damagedHistory, recoverView, type RepositoryView, type SharedLock } from './view.js';

const OPENED_CHANGES = 'Changes found when the workspace was opened';

/**
 * The repository's lifecycle: the one open (which loads history, or makes a new repository with a
 * first snapshot of the whole workspace), and the commit an open without the shared lock had to
 * leave to the next change. Owns whether the repository is open and whether that commit is due.
 */
export class RepositoryLifecycle {
  private opening: Promise<void> | null = null;
  /** an open without the lock found history but made no commit of the changes since (see commitDeferredOpen) */
  private openUncommitted = false;

  /**
   * @param resetAll - forget everything the store loaded (a first open that failed leaves no repository)
   */
  constructor(
    private readonly view: RepositoryView,
    private readonly scanner: Scanner,
    private readonly commits: CommitQueue,
    private readonly lock: SharedLock | null,
    private readonly resetAll: () => void,
  ) {}

  /** the open under way or done, or null before the first (and after a failed one or a reset) */
  get started(): Promise<void> | null {
    return this.opening;
  }

  /**
   * Open the shadow repository, creating it with a first snapshot of the whole workspace.
   * `held`: the caller holds the shared lock (a change); without it the open writes nothing but a
   * new repository's first commit, for which it takes the lock.
   */
  open(held = false): Promise<void> {
    this.opening ??= this.commits
      .exclusive(() => this.load(held || this.lock === null))
      .catch((error) => {
        this.opening = null;
        throw error;
      });
    return this.opening;
  }

  /**
   * Commit what changed while the workspace was closed, when a read opened it and so could not
   * (call it holding the shared lock, after the catch-up, before the change).
   */
  async commitDeferredOpen(): Promise<void> {
    await this.commits.exclusive(async () => {
      if (!this.openUncommitted) return;
      this.openUncommitted = false;
      try {
        await this.commits.commit([''], { message: OPENED_CHANGES }, false);
      } catch (error) {
        this.openUncommitted = true;
        recoverView(this.view, this.scanner);
        throw error;
      }
    });
  }

  /** The store took a fetched history as its own: it is open. */
  adopted(): void {
    this.opening = Promise.resolve();
  }

  /** The store forgot everything: the next call opens again. */
  reset(): void {
    this.opening = null;
  }

  /** `mayWrite`: this process may move the branch now (it holds the shared lock, or there is none). */
  private async load(mayWrite: boolean): Promise<void> {
    const { view } = this;
    const { fs } = view;
    const { gitdir } = view.access;
    const branch = await readBranch(fs, gitdir);
    if (!mayWrite && branch.kind !== 'ok' && branch.kind !== 'damaged') {
      // a new repository: made under the lock, and looked for again there (another process may have just made it)
      const release = await this.lock!.acquire();
      try {
        return await this.load(true);
      } finally {
        await release();
      }
    }
    if (branch.kind === 'damaged') throw damagedHistory(branch.why);
    if (branch.kind === 'ok') {
      await readCommit(view.access, branch.oid).catch(() => {
        throw damagedHistory(`the branch names commit ${branch.oid.slice(0, 12)}, which is missing or corrupt`);
      });
      // a mark left by a kill just after the first commit: with it, a ref lost later would pass for a cut first open
      if (mayWrite) await fs.unlink(`${gitdir}/${FIRST_OPEN_MARK}`).catch(() => {});
    }
    const head = branch.kind === 'ok' ? branch.oid : null;
    if (!head) {
      await this.create(branch.kind === 'absent' && branch.cutFirstOpen === true);
      return;
    }
    for (const info of await readHistory(view, head)) view.history.push(info);
    view.tree = new TreeCache(view.access, view.history.head!.tree);
    if (mayWrite) await this.commits.commit([''], { message: OPENED_CHANGES }, false);
    else this.openUncommitted = true;
  }

  /** Make the repository and its first snapshot, or nothing at all. `cut`: an earlier first open was cut off. */
  private async create(cut: boolean): Promise<void> {
    const { fs, toAbs } = this.view;
    const { gitdir } = this.view.access;
    // a first open cut off before its first commit left a repository with no history to keep
    if (cut) await removeTree(fs, gitdir);
    await fs.mkdir(toAbs('.sandpit'), { recursive: true }).catch((e) => {
      if (!hasFsCode(e, 'EEXIST')) throw e;
    });
    // The user's own git (and their editors) should not see Sandpit's history as project files.
    await fs.writeFile(toAbs('.sandpit/.gitignore'), new TextEncoder().encode('*\n'));
    // the mark goes in before HEAD does, so no repository exists without it until its first commit lands
    await fs.mkdir(gitdir, { recursive: true }).catch((e) => {
      if (!hasFsCode(e, 'EEXIST')) throw e;
    });
    await fs.writeFile(`${gitdir}/${FIRST_OPEN_MARK}`, new Uint8Array(0));
    const made = await initRepository(fs, gitdir);
    try {
      // a repository made here has its pack folder; one an earlier open left may not
      if (!made)
        await fs.mkdir(`${gitdir}/objects/pack`, { recursive: true }).catch((e) => {
          if (!hasFsCode(e, 'EEXIST')) throw e;
        });
      await this.commits.commit([''], { message: 'Workspace opened' }, true, true);
      await fs.unlink(`${gitdir}/${FIRST_OPEN_MARK}`);
    } catch (error) {
      // A repository without its first commit would read as damaged next time: make none at all.
      await removeTree(fs, gitdir).catch(() => {});
      this.resetAll();
      throw error;
    }
  }
}
