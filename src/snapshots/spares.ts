import { hasFsCode } from '../fs/errors.js';
import { lstatOrNull, removeIfPresent } from '../fs/helpers.js';
import { isAtomicTemp } from '../fs/temp-names.js';
import type { WorkspaceFs } from '../fs/types.js';
import { toHex } from './sha1.js';

const SPARE_FILES = 8;
const SPARE_DIRS = 2;
const PREFIX = 'tmp_obj_sandpit_';
/** A spare this old was left by a process that did not close (git itself prunes temporaries after two weeks). */
const STALE_MS = 60 * 60 * 1000;

/**
 * Empty files and folders made ahead of time, while the workspace is idle, in the gitdir's objects
 * folder. On a busy disk, making an inode is most of what a loose object costs; with a spare, a
 * snapshot writes into an existing empty file and renames it to the object's name (a missing fan-out
 * folder is a spare folder renamed), so the object is still whole or absent after a crash.
 *
 * Spares are named `tmp_obj_...` at the top of `objects/`, where git looks for no objects and
 * `git prune` removes stale temporaries. Only for backends that can write in place (Node).
 */
export class Spares {
  private readonly files: string[] = [];
  private readonly dirs: string[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private step: Promise<void> = Promise.resolve();
  private stopped = false;
  private swept = false;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly objects: string,
  ) {}

  /** Whether `fs` can use spares at all. */
  static supported(fs: WorkspaceFs): boolean {
    return typeof fs.writeInPlace === 'function';
  }

  /**
   * Write a new loose object through a spare, or through a new temporary beside the spares when
   * none is ready: false when anything went wrong on the way (the temporary is then dropped), and
   * the caller writes the object the ordinary way.
   */
  async place(dir: string, file: string, bytes: Uint8Array): Promise<boolean> {
    const spare = this.files.pop();
    if (spare === undefined) return this.placeFresh(dir, file, bytes);
    try {
      if (await this.fs.writeInPlace!(spare, bytes, 0)) {
        await this.renameInto(spare, dir, file);
        return true;
      }
    } catch {
      // fall through: the ordinary write reports the real failure, if there is one
    }
    await removeIfPresent(this.fs, spare);
    return false;
  }

  /**
   * The object written whole under a git temporary name at the top of `objects/`, then renamed in:
   * a process killed on the way leaves its temporary where git looks for no objects, never a
   * half-written file in a fan-out folder, which git counts as garbage and `git prune` calls a bad
   * object but never removes.
   */
  private async placeFresh(dir: string, file: string, bytes: Uint8Array): Promise<boolean> {
    const temp = this.newName();
    try {
      await this.fs.writeFile(temp, bytes);
      await this.renameInto(temp, dir, file);
      return true;
    } catch {
      await removeIfPresent(this.fs, temp).catch(() => {});
      return false;
    }
  }

  private newName(): string {
    return `${this.objects}/${PREFIX}${toHex(crypto.getRandomValues(new Uint8Array(8)))}`;
  }

  private async renameInto(spare: string, dir: string, file: string): Promise<void> {
    try {
      await this.fs.rename(spare, file);
      return;
    } catch (error) {
      if (!hasFsCode(error, 'ENOENT')) throw error;
    }
    const spareDir = this.dirs.pop();
    if (spareDir === undefined)
      await this.fs.mkdir(dir).catch((e) => {
        if (!hasFsCode(e, 'EEXIST')) throw e;
      });
    else
      await this.fs.rename(spareDir, dir).catch(async (e) => {
        await removeIfPresent(this.fs, spareDir);
        if (!hasFsCode(e, 'EEXIST', 'ENOTEMPTY')) throw e;
      });
    await this.fs.rename(spare, file);
  }

  /** Top the spares up in the background, one at a time, so a call arriving meanwhile waits for one at most. */
  refill(): void {
    if (
      this.stopped ||
      this.timer ||
      (this.swept && this.files.length >= SPARE_FILES && this.dirs.length >= SPARE_DIRS)
    )
      return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.step = this.makeOne().then(
        () => this.refill(),
        () => {
          this.stopped = true;
        },
      );
    }, 0);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async makeOne(): Promise<void> {
    if (this.stopped) return;
    if (!this.swept) {
      this.swept = true;
      await this.sweep();
      return;
    }
    const name = this.newName();
    if (this.files.length < SPARE_FILES) {
      await this.fs.writeFile(name, new Uint8Array(0));
      if (this.stopped) await removeIfPresent(this.fs, name);
      else this.files.push(name);
    } else {
      await this.fs.mkdir(name);
      if (this.stopped) await removeIfPresent(this.fs, name);
      else this.dirs.push(name);
    }
  }

  /**
   * Remove the spares a killed process left behind. Only old ones: a younger one may belong to a
   * server still running on the same folder (which copes if one goes missing anyway).
   */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const name of await this.fs.readdir(this.objects)) {
      // the backend's own temporary of a spare or fresh object whose write was killed, too
      if (!name.startsWith(PREFIX) && !(isAtomicTemp(name) && name.startsWith(`.${PREFIX}`))) continue;
      const path = `${this.objects}/${name}`;
      const stat = await lstatOrNull(this.fs, path);
      if (!stat || now - stat.mtimeMs < STALE_MS) continue;
      // A stale spare folder another process has already filled is no longer a spare: leave it.
      await removeIfPresent(this.fs, path).catch((e) => {
        if (!hasFsCode(e, 'ENOTEMPTY')) throw e;
      });
    }
  }

  /** Stop refilling and remove the spares not used, so a closed workspace leaves nothing behind. */
  async release(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.step.catch(() => {});
    for (const path of [...this.files.splice(0), ...this.dirs.splice(0)]) await removeIfPresent(this.fs, path);
  }
}
