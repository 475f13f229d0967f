import type { RemoteWorkspace } from '../../web/client.js';
import { coalesced, el, placeChildren, toast } from '../page/dom.js';
import { failureText } from '../page/failure-words.js';

type Hunk = Extract<Awaited<ReturnType<RemoteWorkspace['review']['hunks']>>, { ok: true }>['result']['hunks'][number];

/** What the hunk list needs from the page: the worker's review desk and blame, and the open file. */
export interface HunkHost {
  workspace(): RemoteWorkspace | null;
  openFile(): string | null;
}

const where = (h: Hunk) =>
  h.new_lines === 0 ? `after line ${h.new_start - 1}` : `lines ${h.new_start}–${h.new_start + h.new_lines - 1}`;

const titleOf = (h: Hunk) => `${h.path} · ${where(h)} · ${h.change_id}`;

/**
 * Review by hunk: the open hunks of the kept changes, newest first, each with Accept and Reject
 * (a rejection reverts just that hunk and tells the agent the reason); below, blame of the file
 * open in the editor: who last wrote each range of its lines.
 */
export class HunkReview {
  constructor(
    private readonly host: HunkHost,
    private readonly list: HTMLElement,
    private readonly blameList: HTMLElement,
    private readonly blameTitle: HTMLElement,
  ) {}

  /** Redraw the hunks and blame; calls while one redraw runs fold into one more after it. */
  refresh(): Promise<void> {
    return this.refreshOnce();
  }

  private readonly refreshOnce = coalesced(async () => {
    await Promise.all([this.drawHunks(), this.drawBlame()]);
  });

  private async drawHunks(): Promise<void> {
    const ws = this.host.workspace();
    const listed = ws ? await ws.review.hunks({ status: 'pending' }).catch(() => null) : null;
    const hunks = listed?.ok ? [...listed.result.hunks].reverse().slice(0, 50) : [];
    // A hunk still waiting keeps its row: a burst of writes redraws this list per change, and
    // fresh rows (an input and two buttons each) cost style and layout every time; a kept row also
    // keeps a reason being typed into it, and the focus, across the redraws an agent's writes cause.
    const rows = new Map<string, { key: string; item: HTMLLIElement }>();
    for (const h of hunks) {
      const key = `${titleOf(h)}\n${h.removed.slice(0, 8).join('\n')}\n${h.added.slice(0, 8).join('\n')}`;
      const kept = this.rows.get(h.id);
      rows.set(h.id, kept?.key === key ? kept : { key, item: this.item(h) });
    }
    this.rows = rows;
    placeChildren(this.list, hunks.length ? [...rows.values()].map((r) => r.item) : [this.none]);
  }

  private rows = new Map<string, { key: string; item: HTMLLIElement }>();
  private readonly none = el('li', 'No hunks waiting for review.', 'muted');

  private item(h: Hunk): HTMLLIElement {
    const item = el('li', undefined, 'hunk');
    item.dataset.hunk = h.id;
    item.dataset.path = h.path;
    const lines = el('pre', undefined, 'hunk-lines');
    lines.append(
      ...h.removed.slice(0, 8).map((l) => el('div', `-${l}`, 'dels')),
      ...h.added.slice(0, 8).map((l) => el('div', `+${l}`, 'adds')),
    );
    const reason = el('input', undefined, 'hunk-reason');
    reason.placeholder = 'Why reject? (the agent reads it)';
    reason.setAttribute('aria-label', `Reason for rejecting ${h.path} ${where(h)}`);
    const accept = el('button', 'Accept', 'secondary');
    const reject = el('button', 'Reject', 'danger');
    for (const button of [accept, reject]) button.type = 'button';
    accept.addEventListener(
      'click',
      () => void this.verdict(() => this.host.workspace()!.review.accept([h.id]), 'Accepted.'),
    );
    reject.addEventListener(
      'click',
      () =>
        void this.verdict(
          () => this.host.workspace()!.review.reject([h.id], reason.value),
          'Rejected and reverted; the agent will be told.',
        ),
    );
    item.append(el('div', titleOf(h), 'hunk-title'), lines, reason, accept, reject);
    return item;
  }

  private async verdict(
    run: () => Promise<{ ok: boolean; error?: { code: string; message: string; hint?: string } }>,
    done: string,
  ) {
    const envelope = await run();
    if (envelope.ok) toast(done);
    else toast(failureText('Could not apply that verdict', envelope.error as never), 'error');
    await this.refresh();
  }

  private async drawBlame(): Promise<void> {
    const ws = this.host.workspace();
    const path = this.host.openFile();
    this.blameTitle.textContent = path ? `Who wrote ${path}` : 'Open a file to see who wrote its lines.';
    if (!ws || !path) return void this.blameList.replaceChildren();
    const blamed = await ws.blame(path).catch(() => null);
    if (!blamed?.ok) return void this.blameList.replaceChildren();
    this.blameList.replaceChildren(
      ...blamed.result.ranges.map((r) => {
        const span = r.start_line === r.end_line ? `${r.start_line}` : `${r.start_line}–${r.end_line}`;
        const who = r.change_id ? `${r.actor ?? 'unnamed'} · ${r.tool} · ${r.change_id}` : 'before this session';
        const row = el('li', `${span}: ${who}`, 'blame-row');
        row.dataset.actor = r.actor ?? '';
        return row;
      }),
    );
  }
}
