import type { WorkspaceFs } from '../../fs/types.js';
import type { Spares } from '../spares.js';

/**
 * Whether this store prepares spare object files (see Spares), and the spares when it does. Owns
 * the wish and the instance, so a release that comes before the module has loaded still wins.
 */
export class SpareFiles {
  private spares: Spares | null = null;
  private wanted = false;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly objects: string,
  ) {}

  /** the spares to write loose objects through, or null */
  get current(): Spares | null {
    return this.spares;
  }

  /**
   * Start preparing spares: once the module has loaded, and once `opening` (the repository's
   * open, if one has started) is done. Does nothing on backends that cannot write in place.
   */
  want(opening: () => Promise<void> | null): void {
    // Loaded here, so a browser worker (which never asks for spares) does not carry them.
    this.wanted = true;
    void import('../spares.js').then(({ Spares }) => {
      if (!this.wanted || this.spares || !Spares.supported(this.fs)) return;
      this.spares = new Spares(this.fs, this.objects);
      const opened = opening();
      if (opened)
        void opened.then(
          () => this.spares?.refill(),
          () => {},
        );
    });
  }

  /** Top the spares up after a commit used some. */
  refill(): void {
    this.spares?.refill();
  }

  /** Stop preparing spares and remove the unused ones. */
  async release(): Promise<void> {
    this.wanted = false;
    const spares = this.spares;
    this.spares = null;
    await spares?.release();
  }
}
