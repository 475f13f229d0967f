import type { Envelope } from '../../src/contract/index.js';
import { $, counted, toast } from '../page/dom.js';
import type { Session } from '../page/session.js';
import { renderEnvelope } from '../console/panel.js';
import { COMMIT_FIELDS_HTML, CommitFields, type KeptGit } from './commit-fields.js';
import { inPersonWords } from './words.js';
import { RemoteCheck, remoteHint } from './remote-check.js';

export { inPersonWords } from './words.js';

/** Builds the panel inside #pane-git, so the page's HTML only holds the tab and the pane. */
function buildForm(pane: HTMLElement): void {
  pane.innerHTML = `
    <form id="git-clone-form" class="git-form" autocomplete="off">
      <h3>Open a git repository</h3>
      <label for="git-url">Repository URL</label>
      <input id="git-url" type="url" spellcheck="false" placeholder="https://github.com/owner/repo.git" required />
      <div class="git-row">
        <label for="git-ref">Branch or tag</label>
        <input id="git-ref" spellcheck="false" placeholder="default branch" />
        <label class="git-check"><input id="git-shallow" type="checkbox" checked /> newest commit only</label>
      </div>
      <label for="git-cors">CORS proxy (for hosts without CORS headers)</label>
      <input id="git-cors" type="url" spellcheck="false" placeholder="https://cors.isomorphic-git.org" />
      <label for="git-token">Token (sent only when the server asks; never stored)</label>
      <input id="git-token" type="password" spellcheck="false" placeholder="none for a public repository" />
      <div id="git-new-row" class="git-row" hidden>
        <label for="git-new-name">New workspace</label>
        <input id="git-new-name" spellcheck="false" placeholder="my-repo" aria-describedby="git-new-note" />
      </div>
      <p id="git-new-note" class="muted" hidden>This workspace has files, so the clone goes into a new one of this name, on the same storage. This one stays as it is.</p>
      <div class="actions"><button id="git-clone" type="submit">Clone into this workspace</button></div>
      <progress id="git-progress" value="0" max="1" hidden></progress>
      <span id="git-phase" class="muted" role="status"></span>
    </form>
    <form id="git-push-form" class="git-form" autocomplete="off">
      <h3>Push to branch</h3>
      <label for="git-branch">Branch</label>
      <input id="git-branch" spellcheck="false" placeholder="agent/my-change" required />
      ${COMMIT_FIELDS_HTML}
      <p id="git-push-hint" class="muted" role="status">Enter a repository URL above (or clone one) to push or pull.</p>
      <div class="actions">
        <button id="git-push" type="submit">Push</button>
        <button id="git-pull" type="button" class="secondary" title="Bring the branch's new commits in, unless a file collides">Pull</button>
      </div>
    </form>
    <div id="git-summary" class="summary" role="status" hidden></div>
    <pre id="git-result" class="git-result" hidden></pre>`;
}

/**
 * The Git tab: clone a repository into the open workspace (with a progress bar), push its
 * snapshots to a branch, pull. The token lives in the password field only; the worker gets it
 * through a callback when the server asks, and nothing keeps it.
 */
export class GitPanel {
  private readonly commit: CommitFields;

  /** whether the URL's remote answered: Push and Pull wait for it */
  private readonly check = new RemoteCheck(
    (ask) => this.session.workspace.git.probe(ask),
    () => this.updateButtons(),
  );

  /**
   * `hasFiles` says whether the open workspace holds files (a clone then goes into a new one);
   * `openNew` opens an empty workspace of that name on the same storage, true once it is open.
   */
  constructor(
    private readonly session: Session,
    private readonly filesChanged: () => void,
    private readonly hasFiles: () => boolean = () => false,
    private readonly openNew: (name: string) => Promise<boolean> = async () => false,
  ) {
    buildForm($('pane-git'));
    // The tree's empty state comes and goes with the files: the clone button follows it.
    const empty = document.getElementById('tree-empty');
    if (empty) new MutationObserver(() => this.updateMode()).observe(empty, { attributes: true });
    $('git-new-name').addEventListener('input', () => ($('git-new-name').dataset.typed = 'true'));
    this.commit = new CommitFields(session);
    $<HTMLFormElement>('git-clone-form').addEventListener('submit', (e) => {
      e.preventDefault();
      void this.clone();
    });
    $<HTMLFormElement>('git-push-form').addEventListener('submit', (e) => {
      e.preventDefault();
      void this.sync('push');
    });
    $('git-pull').addEventListener('click', () => void this.sync('pull'));
    $('git-url').addEventListener('input', () => {
      this.suggestName();
      this.check.edited(this.ask);
    });
    // A token or a CORS proxy can be what the remote was waiting for: ask again with it.
    for (const id of ['git-token', 'git-cors']) $(id).addEventListener('input', () => this.check.edited(this.ask));
    for (const id of ['git-message', 'git-author-name', 'git-author-email', 'git-squash'])
      $(id).addEventListener('change', () => this.keep());
    // the console's `git commit` is by the author these fields name: a change after the clone reaches .git/config
    for (const id of ['git-author-name', 'git-author-email'])
      $(id).addEventListener(
        'change',
        () => void this.session.workspace.git.setAuthor({ author: this.commit.author() }),
      );
    session.onSwitch(() => this.load());
    this.load();
  }

  /** Per workspace: the remote it was cloned from, and the message and author last used. */
  private get key(): string {
    return `sandpit.demo.git:${this.session.choice.backend}:${this.session.choice.name}`;
  }

  private load(): void {
    let saved: KeptGit = {};
    try {
      saved = JSON.parse(localStorage.getItem(this.key) ?? '{}') as KeptGit;
    } catch {
      // A broken entry is forgotten.
    }
    $<HTMLInputElement>('git-url').value = saved.url ?? '';
    $<HTMLInputElement>('git-branch').value = saved.branch ?? '';
    this.commit.load(saved);
    this.check.reset();
    // The remote kept with the workspace is asked again: it may have gone since.
    if (saved.url) void this.check.ask(this.ask);
    this.updateMode();
  }

  private keep(): void {
    try {
      const kept: KeptGit = {
        url: $<HTMLInputElement>('git-url').value.trim(),
        branch: $<HTMLInputElement>('git-branch').value.trim(),
        ...this.commit.kept(),
      };
      localStorage.setItem(this.key, JSON.stringify(kept));
    } catch {
      // Storage off: the fields last for this page only.
    }
  }

  /** Into this workspace while it is empty; into a new one, named here, once it holds files. */
  private updateMode(): void {
    const intoNew = this.hasFiles();
    $('git-new-row').hidden = !intoNew;
    $('git-new-note').hidden = !intoNew;
    $<HTMLInputElement>('git-new-name').required = intoNew;
    $('git-clone').textContent = intoNew ? 'Clone into a new workspace' : 'Clone into this workspace';
  }

  /** The repository's name as the new workspace's, until the person types one of their own. */
  private suggestName(): void {
    const field = $<HTMLInputElement>('git-new-name');
    if (field.dataset.typed) return;
    const last = $<HTMLInputElement>('git-url').value.trim().replace(/\/+$/, '').split('/').at(-1) ?? '';
    field.value = last
      .replace(/\.git$/, '')
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 64);
  }

  /**
   * Push and Pull need a remote that answered (an empty one included): not a URL that was only
   * typed, nor one whose clone just failed. The hint says why they are off.
   */
  private updateButtons(): void {
    const url = $<HTMLInputElement>('git-url').value.trim();
    const off = this.working || !this.check.answered(url);
    $<HTMLButtonElement>('git-push').disabled = off;
    $<HTMLButtonElement>('git-pull').disabled = off;
    const hint = this.working ? '' : remoteHint(this.check.current);
    $('git-push-hint').textContent = hint;
    $('git-push-hint').hidden = !hint;
  }

  /** The URL field and the way to reach it, as the remote is asked. */
  private get ask() {
    return { url: $<HTMLInputElement>('git-url').value.trim(), ...this.remote };
  }

  /** true while a clone, push or pull runs: every git button waits */
  private working = false;

  private get remote() {
    const token = $<HTMLInputElement>('git-token').value;
    const corsProxy = $<HTMLInputElement>('git-cors').value.trim();
    return {
      ...(token ? { auth: () => ({ token: $<HTMLInputElement>('git-token').value }) } : {}),
      ...(corsProxy ? { corsProxy } : {}),
    };
  }

  private async clone(): Promise<void> {
    // Read before a switch: opening the new workspace loads that one's (empty) fields.
    const url = $<HTMLInputElement>('git-url').value.trim();
    const ref = $<HTMLInputElement>('git-ref').value.trim();
    const shallow = $<HTMLInputElement>('git-shallow').checked;
    const remote = this.remote;
    // the console's `git commit` in the clone is by the author these fields name, as a squashed push is
    const author = this.commit.author();
    if (this.hasFiles()) {
      const name = $<HTMLInputElement>('git-new-name').value.trim();
      if (!(await this.openNew(name))) return;
      $<HTMLInputElement>('git-url').value = url;
      $<HTMLInputElement>('git-ref').value = ref;
      $<HTMLInputElement>('git-shallow').checked = shallow;
      this.commit.setAuthor(author);
    }
    const bar = $<HTMLProgressElement>('git-progress');
    const phase = $('git-phase');
    bar.hidden = false;
    bar.removeAttribute('value');
    const envelope = await this.busy(() =>
      this.session.workspace.git.clone({
        url,
        ...(ref ? { ref } : {}),
        ...(shallow ? { depth: 1 } : {}),
        author,
        ...remote,
        onProgress: (e) => {
          phase.textContent = `${e.phase} ${e.total ? `${e.loaded}/${e.total}` : e.loaded}`;
          if (e.total) {
            bar.max = e.total;
            bar.value = e.loaded;
          }
        },
      }),
    );
    bar.hidden = true;
    phase.textContent = '';
    if (envelope.ok) this.check.succeeded(url);
    else this.check.cloneFailed(url);
    if (envelope.ok) {
      const r = envelope.result as { files: number; ref: string };
      toast(`Cloned ${counted(r.files, 'file')} from ${r.ref}`);
      if (!$<HTMLInputElement>('git-branch').value)
        $<HTMLInputElement>('git-branch').value = `agent/${Date.now().toString(36)}`;
      await this.commit.synced(false);
      this.keep();
      this.updateButtons();
    }
  }

  private async sync(verb: 'push' | 'pull'): Promise<void> {
    const url = $<HTMLInputElement>('git-url').value.trim();
    const branch = $<HTMLInputElement>('git-branch').value.trim();
    const common = { ...(url ? { url } : {}), ...(branch ? { branch } : {}), ...this.remote };
    const ws = this.session.workspace;
    const commit = verb === 'push' ? await this.commit.options() : {};
    this.keep();
    const envelope = await this.busy(() =>
      verb === 'push' ? ws.git.push({ ...common, ...commit }) : ws.git.pull(common),
    );
    if (envelope.ok) {
      this.check.succeeded(url);
      await this.commit.synced(verb === 'push');
      this.keep();
    }
    if (envelope.ok)
      toast(
        verb === 'push'
          ? `Pushed to ${branch}`
          : `Pull: ${(envelope.result as { status: string }).status.replace('_', ' ')}`,
      );
  }

  private async busy(work: () => Promise<Envelope>): Promise<Envelope> {
    const buttons = ['git-clone', 'git-push', 'git-pull'].map((id) => $<HTMLButtonElement>(id));
    this.working = true;
    for (const b of buttons) b.disabled = true;
    let envelope: Envelope;
    try {
      envelope = await work();
    } catch (error) {
      envelope = { ok: false, tool: 'git', error: { code: 'IO_ERROR', message: (error as Error).message } };
    } finally {
      this.working = false;
      $<HTMLButtonElement>('git-clone').disabled = false;
      this.updateButtons();
    }
    // The code, message and hint on a coloured line, as the console shows them: a refusal has to
    // read as one at a glance, not as a field inside the JSON below it.
    const out = $('git-result');
    out.hidden = false;
    renderEnvelope($('git-summary'), out, envelope);
    for (const line of $('git-summary').querySelectorAll('.message, .hint'))
      line.textContent = inPersonWords(line.textContent ?? '');
    // The result above says it in full; the toast only points there, so it stays short.
    if (!envelope.ok) toast(`Git: ${envelope.error.code}. The Git result says why and what to do next.`, 'error');
    else this.filesChanged();
    return envelope;
  }
}
