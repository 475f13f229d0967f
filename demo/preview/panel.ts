import type { PreviewProblem } from '../../web/preview/file-server.js';
import type { PageReport } from '../../web/preview/messages.js';
import { $, el } from '../page/dom.js';
import { PreviewLink } from './link.js';
import type { Session } from '../page/session.js';

/** A change reloads at once; more changes within this window (a multi-file call, a replay) wait for its end. */
const RELOAD_QUIET_MS = 60;
const CONSOLE_LINES = 200;
const OPEN_KEY = 'sandpit.demo.preview-open';
/** The longest the other panels wait for a reload they yield to: a page that never loads must not hold them. */
const YIELD_AT_MOST_MS = 600;
/**
 * The longest a reload waits for the navigation before it to end (see `reload`): the Service
 * Worker answers a page within 15 s, so a frame past that has lost its navigation some other way.
 */
const NAVIGATION_AT_MOST_MS = 16_000;
/**
 * The longest the session's spare worker waits for one preview load (see `loadStarted`): a first
 * preview of 201 modules takes about a second, several on a loaded machine; one that never loads
 * must not keep the page from its spare.
 */
const SPARE_WAITS_AT_MOST_MS = 10_000;

/**
 * The frame the previewed page runs in. It joins the pane when the pane is first shown (see
 * `visibilityChanged`): an iframe in the page, even an empty one, is a child frame Chromium sets up
 * on every load of the playground, and most visits never open the preview.
 */
function buildFrame(): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.id = 'preview-frame';
  frame.className = 'preview-frame';
  frame.title = 'Preview of the workspace';
  frame.setAttribute('sandbox', 'allow-scripts allow-forms allow-same-origin');
  return frame;
}

function buildPane(pane: HTMLElement): void {
  pane.innerHTML = `
    <div class="preview-bar">
      <label for="preview-root">Folder</label>
      <select id="preview-root"></select>
      <button id="preview-reload" type="button" class="secondary small">Reload</button>
      <span id="preview-address" class="muted preview-address"></span>
    </div>
    <p id="preview-status" class="muted preview-status" role="status"></p>
    <div class="preview-console-head">
      <h3>Preview console</h3>
      <button id="preview-clear" type="button" class="secondary small">Clear</button>
    </div>
    <ol id="preview-console" class="preview-console" aria-label="Preview console output"></ol>`;
}

/**
 * The Preview tab: the workspace (the folder holding index.html, or one the person picks) as a
 * running page on a separate origin, reloaded after every change, with its console underneath.
 * The frame keeps `allow-same-origin` because Chromium routes no request of an opaque-origin
 * frame through a Service Worker; the separate origin is what keeps this page's storage away.
 */
export class PreviewPanel {
  private readonly link: PreviewLink;
  private readonly frame: HTMLIFrameElement;
  private readonly rootSelect: HTMLSelectElement;
  private readonly log: HTMLOListElement;
  private started = false;
  private warmed = false;
  private path = '';
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private lastReload = 0;
  private loads = 0;
  /** Panels waiting for the reload in flight to finish (see `afterReload`). */
  private waiting: Array<() => void> = [];
  private reloading = false;
  /** When the frame was last sent to `navigatingTo` and has not fired `load` since; 0 when it has. */
  private navigatingSince = 0;
  private navigatingTo = '';
  /** A reload was asked for while the frame's navigation was still going: it runs once that one loads. */
  private reloadOwed = false;
  /** The load in flight, from the panel's start or a reload to the frame's `load` (or the bound). */
  private loading: { done: Promise<void>; end: () => void } | null = null;

  constructor(private readonly session: Session) {
    const pane = $('pane-preview');
    buildPane(pane);
    this.frame = buildFrame();
    this.rootSelect = $<HTMLSelectElement>('preview-root');
    this.log = $<HTMLOListElement>('preview-console');
    session.spareWaitsFor(() => this.loading?.done ?? null);
    this.link = new PreviewLink(this.frame, pane, {
      answer: (request, port) => this.session.workspace.previewAnswer(request, port),
      connect: (port, context, onProblems) => this.session.workspace.previewConnect(port, context, onProblems),
      root: () => this.rootSelect.value,
      onProblem: (problem) => this.problem(problem),
      onReport: (report) => this.report(report),
    });
    $('preview-reload').addEventListener('click', () => this.reload());
    // A page the file server did not write (an error page of the Service Worker) sends no report of its load.
    this.frame.addEventListener('load', () => {
      this.navigatingSince = 0;
      this.loading?.end();
      if (this.reloadOwed) this.reload();
      else if (!this.reloadTimer) this.reloaded();
    });
    $('preview-clear').addEventListener('click', () => this.log.replaceChildren());
    this.rootSelect.addEventListener('change', () => {
      this.rootSelect.dataset.chosen = 'true';
      this.path = '';
      this.reload();
    });
    // Start when the pane is first shown, so a page that never opens it never talks to the preview origin.
    // A pointer on the tab is about to open it: the bridge (the first 0.2-0.7 s of a first preview)
    // starts then, so the time a person takes to click overlaps it; the click waits for that same start.
    const tab = $('tab-preview');
    const startEarly = () => {
      if (this.started) return;
      this.warm();
      this.link.start().catch(() => {});
    };
    tab.addEventListener('pointerenter', startEarly, { once: true });
    tab.addEventListener('pointerdown', startEarly, { once: true });
    new MutationObserver(() => this.visibilityChanged()).observe(pane, {
      attributes: true,
      attributeFilter: ['hidden'],
    });
    session.onChange((event) => {
      if (!this.started) return;
      if (event.paths.some((p) => p.endsWith('index.html'))) void this.refreshFolders();
      this.scheduleReload();
    });
    session.onSwitch(() => {
      // a new workspace worker: the Service Worker's channel to the old one leads nowhere now
      this.link.disconnect();
      if (!this.started) return;
      this.path = '';
      void this.refreshFolders().then(() => this.reload());
    });
  }

  /** Whether the person had the preview open last time, so a reload brings it back. */
  static wasOpen(): boolean {
    try {
      return localStorage.getItem(OPEN_KEY) === '1';
    } catch {
      return false;
    }
  }

  /**
   * Resolves once the reload that a change started has loaded (at once when none is pending, or
   * after YIELD_AT_MOST_MS). The playground, the hidden bridge and the previewed page share one
   * main thread, and the panels' redraws share the workspace worker with the preview's reads: a
   * panel that redraws after this lets the preview, which a person is watching, go first.
   */
  afterReload(): Promise<void> {
    if (!this.reloading) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, YIELD_AT_MOST_MS);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiting.push(done);
    });
  }

  private reloaded(): void {
    this.reloading = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const done of waiting) done();
  }

  /** Something outside the tool calls changed files (a pull, a clone): reload as after a change. */
  filesChanged(): void {
    if (this.started) this.scheduleReload();
  }

  private visibilityChanged(): void {
    const visible = !$('pane-preview').hidden;
    try {
      localStorage.setItem(OPEN_KEY, visible ? '1' : '0');
    } catch {
      // Storage may be off; the tab then just opens on Console next time.
    }
    if (visible && !this.frame.isConnected) $('preview-status').after(this.frame);
    if (visible && !this.started) void this.start();
  }

  /**
   * A load starts (the panel's start, a reload): the session's spare worker, which loads all the
   * workspace's code, waits until the frame's `load` or SPARE_WAITS_AT_MOST_MS, whichever is first.
   */
  private loadStarted(): void {
    if (this.loading) return;
    let end = () => {};
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => end(), SPARE_WAITS_AT_MOST_MS);
      end = () => {
        clearTimeout(timer);
        if (this.loading?.done === done) this.loading = null;
        resolve();
      };
    });
    this.loading = { done, end };
  }

  private async start(): Promise<void> {
    this.started = true;
    this.loadStarted();
    this.status(`Starting the preview on ${this.link.origin}…`);
    this.warm();
    // The bridge (and its Service Worker) starts while the folders are listed: neither needs the other.
    const linked = this.link.start();
    linked.catch(() => {});
    await this.refreshFolders();
    try {
      await linked;
    } catch (error) {
      this.started = false;
      this.loading?.end();
      this.status((error as Error).message, true);
      return;
    }
    this.reload();
  }

  /**
   * The worker compiles the preview's code while the bridge and its Service Worker start, not after
   * the first request (a workspace still opening has none to warm: the first request warms it then).
   * Once per page: a bridge started early warms it then, or the first request does.
   */
  private warm(): void {
    if (this.warmed) return;
    this.warmed = true;
    Promise.resolve()
      .then(() => this.session.workspace.previewWarm())
      .catch(() => {});
  }

  /** The folders that hold an index.html, shallowest first; the workspace root is always offered. */
  private async refreshFolders(): Promise<void> {
    const envelope = await this.session.call('glob', { pattern: '**/index.html', max_results: 200 });
    const found = envelope.ok ? (envelope.result as { matches: string[] }).matches : [];
    const folders = [
      ...new Set(
        found
          .filter((p) => !p.split('/').includes('node_modules'))
          .map((p) => p.slice(0, Math.max(0, p.lastIndexOf('/')))),
      ),
    ].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
    if (!folders.includes('')) folders.push('');
    const current = this.rootSelect.value;
    this.rootSelect.replaceChildren(
      ...folders.map((folder) =>
        Object.assign(el('option', folder ? `${folder}/` : 'workspace root'), { value: folder }),
      ),
    );
    this.rootSelect.value =
      folders.includes(current) && this.rootSelect.dataset.chosen === 'true' ? current : folders[0]!;
  }

  /** Debounced on both edges: the first change of a burst shows at once, the last one when the burst ends. */
  private scheduleReload(): void {
    const since = performance.now() - this.lastReload;
    clearTimeout(this.reloadTimer);
    this.reloading = true;
    if (since > RELOAD_QUIET_MS) this.reload();
    else this.reloadTimer = setTimeout(() => this.reload(), RELOAD_QUIET_MS - since);
  }

  /**
   * Load the frame again at the path it showed last, so a reload keeps the person where they were.
   * Chromium drops a navigation to the URL a frame is still navigating to (before that one's
   * response, within about two seconds of its start): the page then shows what the earlier
   * navigation read, from before the newest change, and no load follows. So while the frame is
   * still navigating to the same path, the reload waits for that load and goes after it (the
   * frame's `load` handler runs it; the timer, should that load never come).
   */
  reload(): void {
    if (!this.started) return;
    clearTimeout(this.reloadTimer);
    this.reloadTimer = undefined;
    this.reloading = true;
    const waited = performance.now() - this.navigatingSince;
    if (this.navigatingSince && this.navigatingTo === this.path && waited < NAVIGATION_AT_MOST_MS) {
      this.reloadOwed = true;
      this.reloadTimer = setTimeout(() => this.reload(), NAVIGATION_AT_MOST_MS - waited);
      return;
    }
    this.reloadOwed = false;
    this.loadStarted();
    this.navigatingSince = performance.now();
    this.navigatingTo = this.path;
    this.lastReload = performance.now();
    this.log.replaceChildren();
    this.status('');
    $('preview-address').textContent = `/${this.path}`;
    this.link.show(this.path);
  }

  private report(report: PageReport): void {
    if (report.kind === 'console') this.line(report.level, report.text);
    else {
      this.path = report.path;
      $('preview-address').textContent = `/${report.path}`;
      if (report.kind === 'load') {
        this.loads += 1;
        this.frame.dataset.loads = String(this.loads);
        if (!this.reloadTimer) this.reloaded();
      }
    }
  }

  private problem(problem: PreviewProblem): void {
    this.line('error', problem.message);
  }

  private line(level: string, text: string): void {
    const item = el('li', text, `preview-line level-${level}`);
    item.dataset.level = level;
    this.log.append(item);
    while (this.log.children.length > CONSOLE_LINES) this.log.firstElementChild?.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  private status(message: string, failed = false): void {
    const node = $('preview-status');
    node.textContent = message;
    node.classList.toggle('error-text', failed);
  }
}
