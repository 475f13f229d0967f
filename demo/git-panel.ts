import type { Envelope } from '../src/contract/index.js';
import { $, toast } from './dom.js';
import type { Session } from './session.js';
import { renderEnvelope } from './tool-console.js';

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
      <div class="actions"><button id="git-clone" type="submit">Clone into this workspace</button></div>
      <progress id="git-progress" value="0" max="1" hidden></progress>
      <span id="git-phase" class="muted" role="status"></span>
    </form>
    <form id="git-push-form" class="git-form" autocomplete="off">
      <h3>Push to branch</h3>
      <label for="git-branch">Branch</label>
      <input id="git-branch" spellcheck="false" placeholder="agent/my-change" required />
      <label class="git-check"><input id="git-squash" type="checkbox" /> one squashed commit instead of every snapshot</label>
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
  constructor(private readonly session: Session, private readonly filesChanged: () => void) {
    buildForm($('pane-git'));
    $<HTMLFormElement>('git-clone-form').addEventListener('submit', (e) => { e.preventDefault(); void this.clone(); });
    $<HTMLFormElement>('git-push-form').addEventListener('submit', (e) => { e.preventDefault(); void this.sync('push'); });
    $('git-pull').addEventListener('click', () => void this.sync('pull'));
  }

  private get remote() {
    const token = $<HTMLInputElement>('git-token').value;
    const corsProxy = $<HTMLInputElement>('git-cors').value.trim();
    return {
      ...(token ? { auth: () => ({ token: $<HTMLInputElement>('git-token').value }) } : {}),
      ...(corsProxy ? { corsProxy } : {}),
    };
  }

  private async clone(): Promise<void> {
    const bar = $<HTMLProgressElement>('git-progress');
    const phase = $('git-phase');
    bar.hidden = false;
    bar.removeAttribute('value');
    const envelope = await this.busy(() => this.session.workspace.git.clone({
      url: $<HTMLInputElement>('git-url').value.trim(),
      ...($<HTMLInputElement>('git-ref').value.trim() ? { ref: $<HTMLInputElement>('git-ref').value.trim() } : {}),
      ...($<HTMLInputElement>('git-shallow').checked ? { depth: 1 } : {}),
      ...this.remote,
      onProgress: (e) => {
        phase.textContent = `${e.phase} ${e.total ? `${e.loaded}/${e.total}` : e.loaded}`;
        if (e.total) { bar.max = e.total; bar.value = e.loaded; }
      },
    }));
    bar.hidden = true;
    phase.textContent = '';
    if (envelope.ok) {
      const r = envelope.result as { files: number; ref: string };
      toast(`Cloned ${r.files} files from ${r.ref}`);
      if (!$<HTMLInputElement>('git-branch').value) $<HTMLInputElement>('git-branch').value = `agent/${Date.now().toString(36)}`;
    }
  }

  private async sync(verb: 'push' | 'pull'): Promise<void> {
    const url = $<HTMLInputElement>('git-url').value.trim();
    const branch = $<HTMLInputElement>('git-branch').value.trim();
    const common = { ...(url ? { url } : {}), ...(branch ? { branch } : {}), ...this.remote };
    const ws = this.session.workspace;
    const envelope = await this.busy(() => (verb === 'push' ? ws.git.push({ ...common, squash: $<HTMLInputElement>('git-squash').checked }) : ws.git.pull(common)));
    if (envelope.ok) toast(verb === 'push' ? `Pushed to ${branch}` : `Pull: ${(envelope.result as { status: string }).status.replace('_', ' ')}`);
  }

  private async busy(work: () => Promise<Envelope>): Promise<Envelope> {
    const buttons = ['git-clone', 'git-push', 'git-pull'].map((id) => $<HTMLButtonElement>(id));
    for (const b of buttons) b.disabled = true;
    let envelope: Envelope;
    try {
      envelope = await work();
    } catch (error) {
      envelope = { ok: false, tool: 'git', error: { code: 'IO_ERROR', message: (error as Error).message } };
    } finally {
      for (const b of buttons) b.disabled = false;
    }
    // The code, message and hint on a coloured line, as the console shows them: a refusal has to
    // read as one at a glance, not as a field inside the JSON below it.
    const out = $('git-result');
    out.hidden = false;
    renderEnvelope($('git-summary'), out, envelope);
    if (!envelope.ok) toast(`${envelope.error.code}: ${envelope.error.message}`, 'error');
    else this.filesChanged();
    return envelope;
  }
}
