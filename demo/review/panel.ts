import type { Envelope } from '../../src/index.js';
import { $, coalesced, el, formatTime, placeChildren, toast } from '../page/dom.js';
import { failureText } from '../page/failure-words.js';
import { parseUnifiedDiff, renderDiff } from './diff-view.js';
import { isInstalledFile, packageChanges } from './package-summary.js';
import { packageSummaryView } from './package-summary-view.js';
import type { Session } from '../page/session.js';
import { HunkReview } from './hunks.js';

interface SnapshotRow {
  id: string;
  message: string;
  created_at: string;
  files_changed: number;
  tool?: string;
  change_id?: string;
  restored_to?: string;
  undo?: boolean;
}

/** A step's first line; the badge names the tool already, so its "tool: " prefix would say it twice. */
function subjectOf(row: SnapshotRow): string {
  const first = row.message.split('\n')[0] ?? row.message;
  return row.tool && first.startsWith(`${row.tool}: `) ? first.slice(row.tool.length + 2) : first;
}

const sameId = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

interface DiffResult {
  files: Array<{ path: string; status: string; added_lines: number; removed_lines: number }>;
  unified_diff: string;
}

const MODE_KEY = 'sandpit.demo.diffMode';

/**
 * Review: every snapshot (one per change) newest first; the selected one's diff against the
 * snapshot before it, unified or side by side; Undo (with Redo), and Restore to any snapshot.
 * The tree and the editor follow on their own, through the change events these calls cause.
 */
export class Review {
  private rows: SnapshotRow[] = [];
  private selected: string | null = null;
  private redoWith: string | null = null;
  private mode: 'unified' | 'split' = localStorage.getItem(MODE_KEY) === 'split' ? 'split' : 'unified';
  private diffText = '';
  /** how many of the selected change's files sit under node_modules (summarised, not diffed) */
  private installedFiles = 0;
  private readonly list = $<HTMLOListElement>('timeline');

  /** review by hunk and blame of the open file, below the timeline */
  readonly hunks: HunkReview;

  constructor(
    private readonly session: Session,
    private readonly report: (envelope: Envelope) => void,
    editor: { readonly path: string | null } = { path: null },
    /** resolves when the preview's reload after a change has loaded: the hunks redraw after it (see PreviewPanel.afterReload) */
    afterReload: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.hunks = new HunkReview(
      {
        workspace: () => {
          try {
            return session.workspace;
          } catch {
            return null;
          }
        },
        openFile: () => editor.path,
      },
      $('hunks'),
      $('blame'),
      $('blame-title'),
    );
    // Changes the page did not make itself (an agent run, another caller) bring new hunks too.
    session.onChange(() => void afterReload().then(() => this.hunks.refresh()));
    this.list.addEventListener('click', (event) => {
      const item = (event.target as HTMLElement).closest<HTMLLIElement>('li[data-id]');
      if (item) void this.select(item.dataset.id!);
    });
    this.list.addEventListener('keydown', (event) => {
      const items = [...this.list.querySelectorAll<HTMLLIElement>('li[data-id]')];
      const at = items.indexOf(document.activeElement as HTMLLIElement);
      const next = event.key === 'ArrowDown' ? items[at + 1] : event.key === 'ArrowUp' ? items[at - 1] : undefined;
      if (next) {
        event.preventDefault();
        next.focus();
        void this.select(next.dataset.id!);
      }
    });
    $('undo').addEventListener('click', () => void this.act('undo', {}));
    $('redo').addEventListener(
      'click',
      () => this.redoWith && void this.act('restore_snapshot', { id: this.redoWith }, true),
    );
    $('restore').addEventListener(
      'click',
      () => this.selected && void this.act('restore_snapshot', { id: this.selected }),
    );
    for (const mode of ['unified', 'split'] as const) {
      $(`diff-${mode}`).addEventListener('click', () => {
        this.mode = mode;
        localStorage.setItem(MODE_KEY, mode);
        this.drawDiff();
      });
    }
    this.drawModeButtons();
  }

  reset(): void {
    this.rows = [];
    this.selected = null;
    this.redoWith = null;
    this.diffText = '';
    this.redoRestored = false;
  }

  /** Redo survives a reload: the snapshot it restores is kept per workspace, like the files. */
  private get redoKey(): string {
    return `sandpit.demo.redo:${this.session.choice.backend}:${this.session.choice.name}`;
  }

  private redoRestored = false;

  private keepRedo(): void {
    try {
      if (this.redoWith) localStorage.setItem(this.redoKey, this.redoWith);
      else localStorage.removeItem(this.redoKey);
    } catch {
      // Storage off: Redo then lasts only for this page.
    }
  }

  /** How many changes the timeline lists (the starting point is not one). */
  get changeCount(): number {
    return Math.max(0, this.rows.length - 1);
  }

  /** Reload the timeline; the newest snapshot becomes the selection when `follow` is set. */
  refresh(follow = false): Promise<void> {
    return this.refreshOnce(follow);
  }

  // A burst of writes (an agent writing 200 files) sends a change per write: while one redraw of
  // the timeline is on its way the others fold into one more, not one each (each is O(changes)).
  private readonly refreshOnce = coalesced(
    (follow: boolean) => this.load(follow),
    (a, b) => a || b,
  );

  private async load(follow: boolean): Promise<void> {
    const envelope = await this.session.call('list_snapshots', { limit: 200 });
    this.rows = envelope.ok ? (envelope.result as { snapshots: SnapshotRow[] }).snapshots : [];
    $('timeline-empty').hidden = this.rows.length > 1;
    $('timeline-count').textContent = this.rows.length > 1 ? String(this.rows.length - 1) : '';
    if (follow || !this.rows.some((r) => r.id === this.selected))
      this.selected = this.rows.length > 1 ? this.rows[0]!.id : null;
    if (!this.redoRestored && envelope.ok) {
      this.redoRestored = true;
      const kept = (() => {
        try {
          return localStorage.getItem(this.redoKey);
        } catch {
          return null;
        }
      })();
      if (kept && !this.redoWith) this.redoWith = kept;
    }
    ($('redo') as HTMLButtonElement).disabled = !this.redoWith;
    // Nothing to undo in a workspace with no change yet; the button says so instead of failing.
    ($('undo') as HTMLButtonElement).disabled = this.rows.length <= 1;
    this.drawList();
    this.selected ? await this.select(this.selected) : this.clearDiff();
    await this.hunks.refresh();
  }

  noteChange(envelope: Envelope): void {
    // Any change other than the redo itself makes the undone snapshots a branch not taken.
    if (envelope.tool === 'undo' && envelope.ok)
      this.redoWith = (envelope.result as { redo_with?: string }).redo_with ?? null;
    else if (envelope.tool !== 'restore_snapshot') this.redoWith = null;
    ($('redo') as HTMLButtonElement).disabled = !this.redoWith;
    this.keepRedo();
  }

  private drawList(): void {
    // The oldest snapshot is the state the workspace was opened in: a starting point, not a change.
    const shown = this.rows.slice(0, Math.max(0, this.rows.length - 1));
    // A step whose words are the same as last time keeps its row: a burst of writes redraws this
    // list (up to 199 steps) per change, and fresh rows cost the browser their style and layout.
    const items = new Map<string, { key: string; item: HTMLLIElement }>();
    for (const [index, row] of shown.entries()) {
      const redo = this.isRedo(index);
      const subject = row.restored_to ? this.restoreWords(row.restored_to, redo) : subjectOf(row);
      const badge = row.undo ? 'undo' : redo ? 'redo' : row.restored_to ? 'restore' : null;
      const time = formatTime(row.created_at);
      const key = [badge, row.tool, time, subject, row.files_changed, index === 0].join('\n');
      const kept = this.items.get(row.id);
      const entry = kept?.key === key ? kept : { key, item: this.step(row, index, badge, time, subject) };
      items.set(row.id, entry);
      const on = row.id === this.selected;
      // Only what differs: each attribute written restyles the row.
      if (entry.item.getAttribute('aria-selected') !== String(on)) {
        entry.item.tabIndex = on ? 0 : -1;
        entry.item.classList.toggle('selected', on);
        entry.item.setAttribute('aria-selected', String(on));
      }
    }
    this.items = items;
    placeChildren(
      this.list,
      [...items.values()].map((i) => i.item),
    );
  }

  /** The timeline's rows by snapshot id, with the words each was drawn with. */
  private items = new Map<string, { key: string; item: HTMLLIElement }>();

  private step(row: SnapshotRow, index: number, badge: string | null, time: string, subject: string): HTMLLIElement {
    const item = el('li', undefined, 'step');
    item.dataset.id = row.id;
    // A list to pick one step from: aria-selected needs the option role (and the list, listbox).
    item.setAttribute('role', 'option');
    const top = el('div', undefined, 'step-top');
    top.append(
      el('span', badge ?? row.tool ?? 'snapshot', `badge ${badge === 'redo' ? 'restore' : (badge ?? 'change')}`),
      el('span', time, 'time'),
    );
    if (index === 0) top.append(el('span', 'now', 'badge head'));
    item.append(
      top,
      el('div', subject, 'step-message'),
      el('div', `${row.files_changed} file${row.files_changed === 1 ? '' : 's'} · ${row.id.slice(0, 7)}`, 'step-meta'),
    );
    return item;
  }

  /** A restore right after an undo, back to the step that undo took away: that is a redo. */
  private isRedo(index: number): boolean {
    const row = this.rows[index];
    const undone = this.rows[index + 2];
    return Boolean(row?.restored_to && this.rows[index + 1]?.undo && undone && sameId(undone.id, row.restored_to));
  }

  /** "redo: write_file a.txt" or "back to “write_file a.txt” of 12:04:31", never a bare hash. */
  private restoreWords(target: string, redo: boolean): string {
    const step = this.rows.find((r) => sameId(r.id, target));
    if (!step) return 'back to an earlier step';
    const what = step === this.rows.at(-1) ? 'the start' : `“${subjectOf(step)}”`;
    return redo ? `redo: ${subjectOf(step)}` : `back to ${what} of ${formatTime(step.created_at)}`;
  }

  private scrollOwed = false;

  /**
   * Bring the selected step into view at the next frame, once however many selections came
   * before it: `scrollIntoView` lays the page out on the spot, and a burst of writes selects a new
   * newest step per change. At the frame the browser lays out anyway. A hidden tab paints no
   * frames, so nothing waits on this; the scroll happens when the tab shows again.
   */
  private scrollToSelected(): void {
    if (this.scrollOwed) return;
    this.scrollOwed = true;
    requestAnimationFrame(() => {
      this.scrollOwed = false;
      if (!this.selected) return;
      this.list
        .querySelector<HTMLLIElement>(`li[data-id="${CSS.escape(this.selected)}"]`)
        ?.scrollIntoView({ block: 'nearest' });
    });
  }

  private async select(id: string): Promise<void> {
    this.selected = id;
    for (const item of this.list.querySelectorAll<HTMLLIElement>('li[data-id]')) {
      const on = item.dataset.id === id;
      if (item.getAttribute('aria-selected') === String(on)) continue;
      item.classList.toggle('selected', on);
      item.setAttribute('aria-selected', String(on));
      item.tabIndex = on ? 0 : -1;
    }
    // A restore selects the new newest entry: bring it into view wherever the list was scrolled.
    this.scrollToSelected();
    ($('restore') as HTMLButtonElement).disabled = id === this.rows[0]?.id;
    const envelope = await this.session.call('diff_snapshots', { to: id });
    if (!envelope.ok || this.selected !== id) return;
    const diff = envelope.result as DiffResult;
    const added = diff.files.reduce((n, f) => n + f.added_lines, 0);
    const removed = diff.files.reduce((n, f) => n + f.removed_lines, 0);
    const row = this.rows.find((r) => r.id === id);
    const stats = $('diff-stats');
    stats.replaceChildren(
      el('span', row?.message.split('\n')[0] ?? id, 'diff-title'),
      el('span', `+${added}`, 'adds'),
      el('span', `−${removed}`, 'dels'),
      el('span', `${diff.files.length} file${diff.files.length === 1 ? '' : 's'}`, 'muted'),
    );
    this.diffText = diff.unified_diff;
    this.installedFiles = diff.files.filter((f) => isInstalledFile(f.path)).length;
    this.drawDiff();
  }

  private clearDiff(): void {
    this.diffText = '';
    $('diff-stats').replaceChildren();
    $('diff').replaceChildren(
      el('p', 'Changes appear here as soon as a tool makes one. Pick a step to see its diff.', 'empty-hint'),
    );
    ($('restore') as HTMLButtonElement).disabled = true;
  }

  private drawModeButtons(): void {
    $('diff-unified').setAttribute('aria-pressed', String(this.mode === 'unified'));
    $('diff-split').setAttribute('aria-pressed', String(this.mode === 'split'));
  }

  private drawDiff(): void {
    this.drawModeButtons();
    if (!this.selected) return;
    // An install changes thousands of lines nobody reads: it shows as packages and versions instead.
    const changes = packageChanges(parseUnifiedDiff(this.diffText));
    const summarise = changes.length > 0 || this.installedFiles > 0;
    renderDiff($('diff'), this.diffText, this.mode, summarise ? isInstalledFile : undefined);
    if (summarise) $('diff').prepend(packageSummaryView(changes, this.installedFiles));
  }

  private async act(tool: 'undo' | 'restore_snapshot', args: Record<string, unknown>, redo = false): Promise<void> {
    const envelope = await this.session.call(tool, args);
    this.report(envelope);
    if (!envelope.ok)
      toast(
        failureText(
          tool === 'undo' ? 'Could not undo' : redo ? 'Could not redo' : 'Could not restore that step',
          envelope.error,
        ),
        'error',
      );
    else toast(tool === 'undo' ? 'Undone. Redo brings it back.' : redo ? 'Redone.' : 'Restored that snapshot.');
    if (redo && envelope.ok) this.redoWith = null;
    ($('redo') as HTMLButtonElement).disabled = !this.redoWith;
    this.keepRedo();
  }
}
