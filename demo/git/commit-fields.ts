import { $ } from '../page/dom.js';
import type { Session } from '../page/session.js';

/** What the Git tab keeps per workspace between visits. */
export interface KeptGit {
  url?: string;
  branch?: string;
  /** only a message the person wrote: a filled-in one is made again from the changes */
  message?: string;
  name?: string;
  email?: string;
  squash?: boolean;
  /** the newest snapshot when the workspace last met its remote (clone, push, pull) */
  syncedAt?: string;
}

const SQUASHED =
  'Your message and name go on the one commit that is pushed. Untick the box to push every snapshot as a commit of its own instead.';
const EVERY =
  'Every snapshot is pushed as a commit of its own, with its own message and the author Sandpit, so these fields do not apply. Tick the box above to push one commit with your message and name.';

/** The push form's commit fields: HTML for them, and whether they apply. */
export const COMMIT_FIELDS_HTML = `
  <label class="git-check"><input id="git-squash" type="checkbox" checked /> one commit with my message instead of every snapshot</label>
  <label for="git-message">Commit message</label>
  <textarea id="git-message" rows="4" spellcheck="true" placeholder="filled in from the changes since the last push" aria-describedby="git-commit-note"></textarea>
  <div class="git-row">
    <label for="git-author-name">Author</label>
    <input id="git-author-name" spellcheck="false" placeholder="Sandpit" autocomplete="name" aria-describedby="git-commit-note" />
    <label for="git-author-email">Email</label>
    <input id="git-author-email" type="email" spellcheck="false" placeholder="sandpit@localhost" autocomplete="email" aria-describedby="git-commit-note" />
  </div>
  <p id="git-commit-note" class="muted">${SQUASHED}</p>`;

/**
 * The commit message and author of a push. The git layer takes them only for a squashed commit,
 * so they are enabled only while "one commit" is ticked, and the note beside them says which.
 * The message is filled in with the changes since the workspace last met its remote; that text
 * is never kept, so a later visit fills in the changes of then, not a stale list.
 */
export class CommitFields {
  /** the text this page filled in, to tell it from what the person wrote */
  private suggested = '';
  syncedAt: string | undefined;

  constructor(private readonly session: Session) {
    $('git-squash').addEventListener('change', () => {
      this.updateEnabled();
      void this.refreshSuggestion();
    });
    // Alt+N opens the tab without a click, so the pane's own visibility is what is watched.
    new MutationObserver(() => {
      if (!$('pane-git').hidden) void this.refreshSuggestion();
    }).observe($('pane-git'), { attributes: true, attributeFilter: ['hidden'] });
  }

  private get box(): HTMLTextAreaElement {
    return $<HTMLTextAreaElement>('git-message');
  }

  get squash(): boolean {
    return $<HTMLInputElement>('git-squash').checked;
  }

  load(saved: KeptGit): void {
    $<HTMLInputElement>('git-squash').checked = saved.squash ?? true;
    this.box.value = saved.message ?? '';
    this.suggested = '';
    this.syncedAt = saved.syncedAt;
    $<HTMLInputElement>('git-author-name').value = saved.name ?? '';
    $<HTMLInputElement>('git-author-email').value = saved.email ?? '';
    this.updateEnabled();
    void this.refreshSuggestion();
  }

  /** The fields to keep: the message only when the person wrote or changed it. */
  kept(): KeptGit {
    const message = this.box.value;
    return {
      ...(message.trim() && message !== this.suggested ? { message } : {}),
      name: $<HTMLInputElement>('git-author-name').value.trim(),
      email: $<HTMLInputElement>('git-author-email').value.trim(),
      squash: this.squash,
      ...(this.syncedAt ? { syncedAt: this.syncedAt } : {}),
    };
  }

  /** The author the fields name, with the placeholders' defaults. */
  author(): { name: string; email: string } {
    const name = $<HTMLInputElement>('git-author-name').value.trim();
    const email = $<HTMLInputElement>('git-author-email').value.trim();
    return { name: name || 'Sandpit', email: email || 'sandpit@localhost' };
  }

  /** Fill the author fields again (a clone into a new workspace carries them over). */
  setAuthor(author: { name: string; email: string }): void {
    $<HTMLInputElement>('git-author-name').value = author.name === 'Sandpit' ? '' : author.name;
    $<HTMLInputElement>('git-author-email').value = author.email === 'sandpit@localhost' ? '' : author.email;
  }

  /** What git.push takes from these fields. */
  async options(): Promise<{ squash: boolean; message?: string; author?: { name: string; email: string } }> {
    if (!this.squash) return { squash: false };
    await this.refreshSuggestion();
    const message = this.box.value.trim();
    const name = $<HTMLInputElement>('git-author-name').value.trim();
    const email = $<HTMLInputElement>('git-author-email').value.trim();
    return {
      squash: true,
      ...(message ? { message } : {}),
      ...(name || email ? { author: { name: name || 'Sandpit', email: email || 'sandpit@localhost' } } : {}),
    };
  }

  /** The workspace met its remote: later messages start from here, and a pushed message is spent. */
  async synced(pushed: boolean): Promise<void> {
    const envelope = await this.session.call('list_snapshots', { limit: 1 });
    if (envelope.ok) this.syncedAt = (envelope.result as { snapshots: Array<{ id: string }> }).snapshots[0]?.id;
    if (pushed) this.box.value = '';
    this.suggested = '';
    await this.refreshSuggestion();
  }

  private updateEnabled(): void {
    const on = this.squash;
    for (const id of ['git-message', 'git-author-name', 'git-author-email']) $<HTMLInputElement>(id).disabled = !on;
    $('git-commit-note').textContent = on ? SQUASHED : EVERY;
  }

  /** Fill the message with the changes since the last sync, unless the person wrote their own. */
  async refreshSuggestion(): Promise<void> {
    if (!this.squash || (this.box.value.trim() && this.box.value !== this.suggested)) return;
    const envelope = await this.session.call('list_snapshots', { limit: 200 });
    if (!envelope.ok) return;
    const all = (envelope.result as { snapshots: Array<{ id: string; message: string }> }).snapshots;
    const at = this.syncedAt ? all.findIndex((s) => s.id === this.syncedAt) : -1;
    // Never synced: every change but the workspace's first, empty snapshot.
    const rows = (at >= 0 ? all.slice(0, at) : all.slice(0, -1)).reverse();
    const text = rows.length
      ? `Changes from Sandpit\n\n${rows.map((r) => `- ${r.message.split('\n')[0]}`).join('\n')}\n`
      : '';
    // The person may have typed while the list was on its way: their text wins.
    if (this.box.value.trim() && this.box.value !== this.suggested) return;
    this.box.value = text;
    this.suggested = text;
  }
}
