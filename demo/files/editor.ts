import { EditorView, basicSetup } from 'codemirror';
import { el, toast } from '../page/dom.js';
import { failureText } from '../page/failure-words.js';
import { renderViewer } from './viewer.js';
import { blameGutter, setBlame } from './blame-gutter.js';
import { languageFor } from './languages.js';
import { planSave } from './save-plan.js';
import type { Session } from '../page/session.js';

interface OpenFile {
  path: string;
  /** the text as last read or saved; the editor is dirty when it differs */
  saved: string;
  sha256: string | null;
  /** a file made with "New file" that is not on the workspace yet */
  fresh: boolean;
  /** the encoding the person picked for a file that is not UTF-8; saves write it back in it */
  encoding?: string;
}

/**
 * The editor pane. Saves go through the tools an agent uses: edit_file with the smallest unique
 * run of lines that changed (guarded by the sha256 of the read), or write_file when no such run
 * exists or the file is new. A change made by anything else reloads a clean editor and warns a
 * dirty one.
 */
export class Editor {
  private view: EditorView | null = null;
  private file: OpenFile | null = null;
  private saving = false;
  /** a file shown in the viewer (an image, bytes, text in another encoding), not the editor */
  private viewing: string | null = null;

  constructor(
    private readonly session: Session,
    private readonly host: HTMLElement,
    private readonly header: {
      path: HTMLElement;
      lang: HTMLElement;
      state: HTMLElement;
      save: HTMLButtonElement;
      banner: HTMLElement;
    },
    private readonly onOpened: (path: string | null) => void,
  ) {
    // Capture phase, so Ctrl+S saves the file instead of opening the browser's "save page".
    host.addEventListener(
      'keydown',
      (event) => {
        if (event.key.toLowerCase() === 's' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          void this.save();
        }
      },
      true,
    );
    header.save.addEventListener('click', () => void this.save());
    this.showEmpty();
  }

  get path(): string | null {
    return this.file?.path ?? this.viewing;
  }

  /** The path of the text file open for editing (not one shown as bytes), or null. */
  get editingText(): string | null {
    return this.view ? (this.file?.path ?? null) : null;
  }

  /** Whether the editor's text differs from `text` (the file as the workspace now has it). */
  private dirtyAgainst(text: string): boolean {
    return Boolean(
      this.view && this.view.state.doc.toString() !== text && this.view.state.doc.toString() !== this.file?.saved,
    );
  }

  get dirty(): boolean {
    return Boolean(this.file && this.view && (this.file.fresh || this.view.state.doc.toString() !== this.file.saved));
  }

  close(): void {
    this.view?.destroy();
    this.view = null;
    this.file = null;
    this.viewing = null;
    this.showEmpty();
    this.onOpened(null);
  }

  /** Read a file whole (which also lets later edits through a read-before-write policy) and show it. */
  async open(path: string, encoding?: string): Promise<boolean> {
    const read = await this.readWhole(path, encoding);
    if (!read.ok) {
      if (!encoding && (read.code === 'BINARY_FILE' || read.code === 'DECODE_ERROR'))
        return this.showBytes(path, read.code);
      toast(failureText(`Could not open ${path}`, read), 'error');
      return false;
    }
    this.mount({ path, saved: read.content, sha256: read.sha256, fresh: false, ...(encoding ? { encoding } : {}) });
    if (encoding) this.header.state.textContent = `opened as ${encoding}; saves keep it`;
    return true;
  }

  /** Show a file that is not UTF-8 text in the viewer instead of refusing it. */
  private async showBytes(path: string, reason: string): Promise<boolean> {
    let entry;
    try {
      entry = await this.session.workspace.previewEntry(path);
    } catch {
      entry = null;
    }
    if (entry?.kind !== 'file') {
      toast(`Could not open ${path}: it is not text, and its bytes could not be read.`, 'error');
      return false;
    }
    this.view?.destroy();
    this.view = null;
    this.file = null;
    this.viewing = path;
    const kind = await renderViewer(this.host, {
      path,
      bytes: entry.bytes,
      reason,
      openAs: (encoding) => void this.open(path, encoding),
    });
    this.header.path.textContent = path;
    this.header.lang.textContent = kind;
    this.header.state.textContent = 'read-only';
    this.header.save.disabled = true;
    this.header.banner.hidden = true;
    this.onOpened(path);
    return true;
  }

  /** Start a file that exists only in the editor until the first save writes it. */
  create(path: string): void {
    this.mount({ path, saved: '', sha256: null, fresh: true });
    this.view?.focus();
  }

  /**
   * The open file (or a folder holding it) was moved: follow it to its new path, keeping any unsaved
   * text, since the bytes the editor read are the bytes now at the new path.
   */
  renamed(from: string, to: string): void {
    if (this.viewing && (this.viewing === from || this.viewing.startsWith(`${from}/`))) {
      void this.open(`${to}${this.viewing.slice(from.length)}`);
      return;
    }
    if (!this.file) return;
    const path = this.file.path;
    if (path !== from && !path.startsWith(`${from}/`)) return;
    this.file = { ...this.file, path: `${to}${path.slice(from.length)}` };
    this.header.path.textContent = this.file.path;
    this.header.banner.hidden = true;
    this.update();
    this.onOpened(this.file.path);
  }

  async save(): Promise<void> {
    if (!this.file || !this.view || this.saving || !this.dirty) return;
    const file = this.file;
    const content = this.view.state.doc.toString();
    // A file in another encoding is written whole, naming it: edit_file reads UTF-8 only.
    const plan = file.fresh || file.encoding ? { tool: 'write_file' as const, content } : planSave(file.saved, content);
    const args =
      plan.tool === 'edit_file'
        ? {
            path: file.path,
            old_text: plan.old_text,
            new_text: plan.new_text,
            ...(file.sha256 ? { expected_sha256: file.sha256 } : {}),
          }
        : {
            path: file.path,
            content,
            ...(file.encoding ? { encoding: file.encoding } : {}),
            ...(file.fresh ? { overwrite: false } : file.sha256 ? { expected_sha256: file.sha256 } : {}),
          };
    this.saving = true;
    this.header.state.textContent = 'saving…';
    try {
      const envelope = await this.session.call(plan.tool, args);
      if (!envelope.ok) {
        this.header.state.textContent = 'not saved';
        const { code, message } = envelope.error;
        // A person needs to know what happened and what to do, not two full hashes.
        const shortened = (text: string) => text.replace(/\b([0-9a-f]{12})[0-9a-f]{52}\b/g, '$1…');
        toast(
          code === 'STALE_FILE'
            ? `Not saved: ${file.path} changed since you opened it (an agent, a tool or another tab). Copy your text, then reload the file to see its new version.`
            : failureText('Not saved', { code, message: shortened(message) }),
          'error',
        );
        return;
      }
      const read = await this.readWhole(file.path, file.encoding);
      file.saved = read.ok ? read.content : content;
      file.sha256 = read.ok ? read.sha256 : null;
      file.fresh = false;
      this.header.banner.hidden = true;
      this.update();
      this.header.state.textContent = `saved with ${plan.tool}`;
      void this.loadBlame();
    } finally {
      this.saving = false;
    }
  }

  /** Follow a change the tools made: reload if the editor holds no unsaved work, else say so. */
  async changed(paths: string[], tool: string): Promise<void> {
    const viewed = this.viewing;
    if (viewed && paths.includes(viewed)) {
      const entry = await this.session.workspace.previewEntry(viewed).catch(() => null);
      if (this.viewing !== viewed) return;
      if (entry?.kind === 'file') await this.open(viewed);
      else this.close();
      return;
    }
    const file = this.file;
    if (!file || this.saving || !paths.includes(file.path)) return;
    const read = await this.readWhole(file.path, file.encoding);
    // The read took a moment: the file may have been closed, renamed or replaced meanwhile (a delete, F2).
    if (this.file !== file) return;
    if (!read.ok) {
      this.showBanner(`${tool} removed this file. Save to write it back, or close it.`, {
        label: 'Close',
        run: async () => this.close(),
      });
      this.file.fresh = true;
      this.update();
      return;
    }
    if (this.file.fresh) {
      // It is back (an undo, a restore): the workspace's copy is the one to edit again.
      this.file.fresh = false;
      this.header.banner.hidden = true;
      if (!this.dirtyAgainst(read.content)) this.replaceText(read.content);
      this.file.saved = read.content;
      this.file.sha256 = read.sha256;
      this.update();
      return;
    }
    if (read.content === this.file.saved) return;
    if (!this.dirty) {
      this.file.saved = read.content;
      this.file.sha256 = read.sha256;
      this.replaceText(read.content);
      this.header.state.textContent = `updated by ${tool}`;
      void this.loadBlame();
      return;
    }
    this.showBanner(
      `${tool} changed this file while you were editing. Saving will be refused as stale; reload to take its version.`,
      {
        label: 'Reload',
        run: async () => {
          await this.open(this.file!.path);
        },
      },
    );
  }

  private async readWhole(
    path: string,
    encoding?: string,
  ): Promise<{ ok: true; content: string; sha256: string } | { ok: false; code: string; message: string }> {
    const named = encoding ? { encoding } : {};
    let envelope = await this.session.call('read_file', { path, ...named });
    if (envelope.ok && (envelope.result as { has_more?: boolean }).has_more) {
      // Past the default window: ask for every line, so the editor never saves half a file.
      envelope = await this.session.call('read_file', {
        path,
        ...named,
        start_line: 1,
        end_line: (envelope.result as { total_lines: number }).total_lines,
      });
    }
    if (!envelope.ok) return { ok: false, code: envelope.error.code, message: envelope.error.message };
    const result = envelope.result as { content: string; sha256: string };
    return { ok: true, content: result.content, sha256: result.sha256 };
  }

  private mount(file: OpenFile): void {
    this.view?.destroy();
    this.file = file;
    // a file opened as text from the viewer is no longer viewed: a change to it reloads the text
    this.viewing = null;
    this.host.replaceChildren();
    const language = languageFor(file.path);
    this.view = new EditorView({
      doc: file.saved,
      parent: this.host,
      extensions: [
        basicSetup,
        blameGutter(),
        ...(language.extension ? [language.extension] : []),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) this.update();
        }),
        EditorView.contentAttributes.of({ 'aria-label': `Editing ${file.path}` }),
      ],
    });
    this.header.path.textContent = file.path;
    this.header.lang.textContent = language.label;
    this.header.banner.hidden = true;
    this.header.state.textContent = file.fresh ? 'new file, not saved yet' : '';
    this.update();
    this.onOpened(file.path);
    void this.loadBlame();
  }

  /** Who wrote each line, into the gutter (the viewed fork's blame); nothing while the text has edits. */
  private async loadBlame(): Promise<void> {
    const { file, view } = this;
    if (!file || !view || file.fresh || !this.session.isOpen) return;
    const blamed = await this.session.workspace.blame(file.path).catch(() => null);
    if (this.file !== file || this.view !== view || this.dirty) return;
    view.dispatch({ effects: setBlame.of(blamed?.ok ? blamed.result.ranges : null) });
  }

  private replaceText(text: string): void {
    if (!this.view) return;
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text } });
  }

  private update(): void {
    const dirty = this.dirty;
    this.header.save.disabled = !dirty;
    this.host.parentElement?.classList.toggle('dirty', dirty);
    if (dirty && !this.saving)
      this.header.state.textContent = this.file?.fresh ? 'new file, not saved yet' : 'unsaved changes';
  }

  private showBanner(text: string, action?: { label: string; run: () => Promise<void> }): void {
    const banner = this.header.banner;
    banner.replaceChildren(el('span', text));
    if (action) {
      const button = el('button', action.label, 'small');
      button.type = 'button';
      button.addEventListener('click', () => void action.run());
      banner.append(button);
    }
    banner.hidden = false;
  }

  private showEmpty(): void {
    this.host.replaceChildren(el('div', 'Pick a file in the tree, or make a new one.', 'empty-hint'));
    this.header.path.textContent = 'No file open';
    this.header.lang.textContent = '';
    this.header.state.textContent = '';
    this.header.save.disabled = true;
    this.header.banner.hidden = true;
  }
}
