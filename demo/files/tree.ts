import { coalesced, el, formatSize, placeChildren } from '../page/dom.js';
import type { Session } from '../page/session.js';

// One collator for every sort: `localeCompare` with options builds a new one per comparison, and
// the tree sorts all its entries after each change (a 200-file burst made that most of its redraw).
const naturalOrder = new Intl.Collator(undefined, { numeric: true });

export interface TreeEntry {
  path: string;
  name: string;
  type: 'file' | 'directory' | 'symlink';
  size_bytes?: number;
}

/**
 * The workspace's files, redrawn from `list_directory` after every change event, so the tree
 * shows what an agent's tools see (hidden files included, `.sandpit` never). Folders fold;
 * arrow keys move, Enter opens a file or folds a folder.
 */
export class FileTree {
  private entries: TreeEntry[] = [];
  private readonly collapsed = new Set<string>();
  private previousSizes = new Map<string, number | undefined>();
  private selected: string | null = null;

  constructor(
    private readonly session: Session,
    private readonly list: HTMLUListElement,
    private readonly empty: HTMLElement,
    private readonly count: HTMLElement,
    private readonly onOpen: (path: string) => void,
    private readonly onDelete: (path: string, type: string) => void,
    private readonly onRename: (path: string) => void,
  ) {
    list.addEventListener('click', (event) => {
      const item = (event.target as HTMLElement).closest<HTMLLIElement>('li[data-path]');
      if (!item) return;
      if ((event.target as HTMLElement).closest('.delete')) this.onDelete(item.dataset.path!, item.dataset.type!);
      else this.activate(item);
    });
    list.addEventListener('keydown', (event) => this.onKey(event));
  }

  /**
   * After the next redraw, put keyboard focus on `path`, or where it stood when it is gone (a
   * delete), so focus never falls to the page.
   */
  focusAfter(path: string, near: string = path): void {
    const items = [...this.list.querySelectorAll<HTMLLIElement>('li[data-path]')];
    this.pendingFocus = {
      path,
      index: Math.max(
        0,
        items.findIndex((i) => i.dataset.path === near),
      ),
    };
  }

  private pendingFocus: { path: string; index: number } | null = null;

  get files(): TreeEntry[] {
    return this.entries.filter((e) => e.type === 'file');
  }

  select(path: string | null): void {
    this.selected = path;
    for (const item of this.list.querySelectorAll<HTMLLIElement>('li[data-path]')) {
      const on = String(item.dataset.path === path);
      // Only what differs: kept rows already say it, and each write restyles the row.
      if (item.getAttribute('aria-selected') === on) continue;
      item.classList.toggle('selected', on === 'true');
      item.setAttribute('aria-selected', on);
    }
  }

  /** Redraw; calls arriving during a redraw fold into one more redraw, never a pile of them. */
  refresh(): Promise<void> {
    return this.refreshOnce();
  }

  private readonly refreshOnce = coalesced(() => this.load());

  private async load(): Promise<void> {
    const envelope = await this.session.call('list_directory', {
      path: '.',
      recursive: true,
      include_hidden: true,
      max_entries: 5000,
    });
    this.entries = envelope.ok ? (envelope.result as { entries: TreeEntry[] }).entries : [];
    // Natural order, as a file manager shows it: f1, f2, f10, f100.
    this.entries.sort((a, b) => naturalOrder.compare(a.path, b.path));
    this.render(envelope.ok ? null : envelope.error.message);
  }

  private render(error: string | null): void {
    const fresh = this.previousSizes.size > 0;
    // A row keyboard focus is on stays the tab stop: kept rows keep the focus across redraws now.
    const focused = this.list.contains(document.activeElement)
      ? (document.activeElement as HTMLElement).closest<HTMLLIElement>('li[data-path]')?.dataset.path
      : undefined;
    const tabStop = focused ?? this.selected;
    const items: HTMLLIElement[] = [];
    const rows = new Map<string, { key: string; item: HTMLLIElement }>();
    for (const entry of this.entries) {
      const parts = entry.path.split('/');
      if (parts.some((_, i) => i > 0 && this.collapsed.has(parts.slice(0, i).join('/')))) continue;
      const open = !this.collapsed.has(entry.path);
      const before = this.previousSizes.get(entry.path);
      const changed =
        entry.type !== 'directory' && fresh && (!this.previousSizes.has(entry.path) || before !== entry.size_bytes);
      // A row whose entry looks the same as last time keeps its element: a burst of 200 writes
      // otherwise rebuilds every row per change (most of the page's script time in that burst).
      const key = `${entry.type}|${entry.size_bytes}|${open}|${changed}`;
      const kept = this.rows.get(entry.path);
      const row = kept?.key === key ? kept : { key, item: this.row(entry, parts.length, open, changed) };
      rows.set(entry.path, row);
      // The attribute, not the property: a new <li> reads tabIndex -1 without being focusable.
      const tabIndex = entry.path === tabStop ? '0' : '-1';
      if (row.item.getAttribute('tabindex') !== tabIndex) row.item.setAttribute('tabindex', tabIndex);
      items.push(row.item);
    }
    this.rows = rows;
    placeChildren(this.list, items);
    if (!items.some((i) => i.tabIndex === 0) && items[0]) items[0].tabIndex = 0;
    this.select(this.selected);
    const files = this.files.length;
    this.count.textContent = files ? String(files) : '';
    // Settings alone (an .npmrc naming a registry, a .gitignore) leave the ways to start on offer.
    const onlySettings = this.entries.length > 0 && this.entries.every((e) => e.path.startsWith('.'));
    this.empty.hidden = this.entries.length > 0 && !onlySettings;
    this.empty.querySelector('.empty-title')!.textContent =
      error ?? (onlySettings ? 'Only settings files so far.' : 'This workspace is empty.');
    this.previousSizes = new Map(this.entries.map((e) => [e.path, e.size_bytes]));
    if (this.pendingFocus) {
      const { path, index } = this.pendingFocus;
      const exact = items.find((i) => i.dataset.path === path);
      if (exact || !this.entries.some((e) => e.path === path)) {
        this.pendingFocus = null;
        const target = exact ?? items[Math.min(index, items.length - 1)];
        if (target) {
          for (const item of items) item.tabIndex = -1;
          target.tabIndex = 0;
          target.focus();
        } else if (!this.empty.hidden) this.empty.querySelector<HTMLElement>('button:not([disabled])')?.focus();
      }
    }
  }

  private rows = new Map<string, { key: string; item: HTMLLIElement }>();

  private row(entry: TreeEntry, depth: number, open: boolean, changed: boolean): HTMLLIElement {
    const item = el('li', undefined, `entry ${entry.type}`);
    item.dataset.path = entry.path;
    item.dataset.type = entry.type;
    item.setAttribute('role', 'treeitem');
    item.style.paddingLeft = `${0.5 + (depth - 1) * 0.95}rem`;
    if (entry.type === 'directory') {
      item.setAttribute('aria-expanded', String(open));
      item.append(el('span', open ? '▾' : '▸', 'twisty'), el('span', entry.name, 'name'));
    } else {
      item.append(el('span', entry.type === 'symlink' ? '↪' : '', 'twisty'), el('span', entry.name, 'name'));
      if (entry.type === 'file') item.append(el('span', formatSize(entry.size_bytes ?? 0), 'size'));
      if (changed) item.classList.add('changed');
    }
    const remove = el('button', '×', 'delete');
    remove.type = 'button';
    remove.tabIndex = -1;
    remove.title = `Delete ${entry.path} (Delete key)`;
    remove.setAttribute('aria-label', `Delete ${entry.path}`);
    item.append(remove);
    return item;
  }

  private activate(item: HTMLLIElement): void {
    const path = item.dataset.path!;
    if (item.dataset.type === 'directory') {
      if (this.collapsed.has(path)) this.collapsed.delete(path);
      else this.collapsed.add(path);
      this.selected = path;
      this.render(null);
      this.list.querySelector<HTMLLIElement>(`li[data-path="${CSS.escape(path)}"]`)?.focus();
    } else if (item.dataset.type === 'file') {
      this.onOpen(path);
    }
  }

  private onKey(event: KeyboardEvent): void {
    const items = [...this.list.querySelectorAll<HTMLLIElement>('li[data-path]')];
    const current = (event.target as HTMLElement).closest<HTMLLIElement>('li[data-path]');
    const at = current ? items.indexOf(current) : -1;
    const move = (to: number) => {
      const next = items[Math.max(0, Math.min(items.length - 1, to))];
      if (!next) return;
      for (const item of items) item.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if ((event.key === 'Enter' || event.key === ' ') && current) this.activate(current);
    else if (event.key === 'Delete' && current) this.onDelete(current.dataset.path!, current.dataset.type!);
    else if (event.key === 'F2' && current) this.onRename(current.dataset.path!);
    else return;
    event.preventDefault();
  }
}
