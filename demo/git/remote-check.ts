import type { Envelope } from '../../src/contract/index.js';
import type { GitAuth } from '../../src/git/index.js';
import { inPersonWords } from './words.js';

/** How long typing must pause before the remote is asked: one request per URL, not per key. */
const SETTLE_MS = 500;

/** Where the remote of the URL field stands, and the words the Git tab shows for it. */
export type RemoteState =
  | { kind: 'none' }
  | { kind: 'asking'; url: string }
  | { kind: 'answered'; url: string; empty: boolean }
  | { kind: 'silent'; url: string; why: string }
  | { kind: 'clone-failed'; url: string };

export interface RemoteAsk {
  url: string;
  auth?: GitAuth;
  corsProxy?: string;
}

/**
 * Push and Pull are offered only for a remote that answered: after the URL settles, the remote
 * is asked for its refs (git's ref discovery, nothing changed); an empty repository answers too,
 * so a new workspace can start it. A clone that failed turns them off until the URL changes and
 * the new one answers.
 */
export class RemoteCheck {
  private state: RemoteState = { kind: 'none' };
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** each ask's number: an answer to an older ask than the latest is dropped */
  private asked = 0;

  constructor(
    private readonly probe: (ask: RemoteAsk) => Promise<Envelope<{ empty: boolean }>>,
    private readonly changed: (state: RemoteState) => void,
  ) {}

  get current(): RemoteState {
    return this.state;
  }

  /** Whether Push and Pull may go to `url` now. */
  answered(url: string): boolean {
    return this.state.kind === 'answered' && this.state.url === url;
  }

  /** The URL (or the way to reach it) changed: ask again once it settles. */
  edited(ask: RemoteAsk): void {
    const url = ask.url.trim();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.asked++;
    // The URL a clone just failed on stays off until it changes.
    if (this.state.kind === 'clone-failed' && this.state.url === url) {
      this.set(this.state);
      return;
    }
    if (!url) {
      this.set({ kind: 'none' });
      return;
    }
    this.set({ kind: 'asking', url });
    this.timer = setTimeout(() => void this.ask({ ...ask, url }), SETTLE_MS);
  }

  /** Ask now, without waiting for typing to settle (a URL restored with the workspace). */
  async ask(ask: RemoteAsk): Promise<void> {
    const url = ask.url.trim();
    const mine = ++this.asked;
    if (!url) return this.set({ kind: 'none' });
    this.set({ kind: 'asking', url });
    let envelope: Envelope<{ empty: boolean }>;
    try {
      envelope = await this.probe({ ...ask, url });
    } catch (error) {
      envelope = { ok: false, tool: 'git_probe', error: { code: 'IO_ERROR', message: (error as Error).message } };
    }
    if (mine !== this.asked) return;
    this.set(
      envelope.ok
        ? { kind: 'answered', url, empty: envelope.result.empty }
        : {
            kind: 'silent',
            url,
            why: inPersonWords(`${envelope.error.message}.${envelope.error.hint ? ` ${envelope.error.hint}` : ''}`),
          },
    );
  }

  /** A clone, push or pull of `url` went through: the remote answered. */
  succeeded(url: string): void {
    this.asked++;
    this.set({ kind: 'answered', url, empty: false });
  }

  /** A clone of `url` failed: off until the URL changes and answers. */
  cloneFailed(url: string): void {
    this.asked++;
    this.set({ kind: 'clone-failed', url });
  }

  /** Forget everything (another workspace opened). */
  reset(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.asked++;
    this.set({ kind: 'none' });
  }

  private set(state: RemoteState): void {
    this.state = state;
    this.changed(state);
  }
}

/** Why Push and Pull are off, in the Git tab's words (empty when they are on). */
export function remoteHint(state: RemoteState): string {
  switch (state.kind) {
    case 'none':
      return 'Enter a repository URL above (or clone one) to push or pull.';
    case 'asking':
      return 'Asking the git server at this URL whether it answers…';
    case 'silent':
      return `Push and Pull wait for a remote that answers, and this one did not answer: ${state.why}`;
    case 'clone-failed':
      return 'The clone of this URL failed, so Push and Pull are off: change the URL to one that answers.';
    case 'answered':
      return state.empty ? 'The remote is an empty repository: Push starts it.' : '';
  }
}
