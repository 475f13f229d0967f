import type { Envelope } from '../../src/contract/index.js';
import type { ForkSummary } from '../../web/protocol.js';
import { $, counted, el, toast } from '../page/dom.js';
import { failureText } from '../page/failure-words.js';
import type { Session } from '../page/session.js';
import type { AgentSettings } from '../agent/settings.js';
import { ForkRuns } from './runs.js';
import { showCompare, showMerge } from './views.js';

/** Builds the panel inside #pane-forks, so the page's HTML only holds the tab and the pane. */
function buildForm(pane: HTMLElement): void {
  pane.innerHTML = `
    <form id="fork-form" class="fork-form" autocomplete="off">
      <label for="fork-name">New fork of the workspace</label>
      <input id="fork-name" spellcheck="false" placeholder="attempt-1" pattern="[A-Za-z0-9][A-Za-z0-9._\\-]{0,63}" required title="1 to 64 letters, digits, dots, dashes or underscores" />
      <button id="fork-make" type="submit">Fork</button>
    </form>
    <p id="fork-viewing" class="muted" role="status">Working on the workspace itself.</p>
    <button id="fork-parent" type="button" class="secondary small" hidden>Back to the workspace</button>
    <ul id="fork-list" class="fork-list" aria-label="Forks"></ul>
    <p id="fork-empty" class="empty-hint">No forks yet. A fork starts as the workspace is now; run the Agent tab in it, compare, then merge the one you keep.</p>
    <form id="fork-agents" class="fork-agents" autocomplete="off">
      <label for="fork-agents-task">An agent on each fork at once, with the Agent tab's model settings (a fork's own model in its row)</label>
      <textarea id="fork-agents-task" rows="2" spellcheck="true" placeholder="The same task for every fork" required></textarea>
      <div class="actions">
        <button id="fork-agents-run" type="submit" disabled>Run on each fork</button>
        <button id="fork-agents-stop" type="button" class="secondary" disabled>Stop</button>
      </div>
    </form>
    <div id="fork-runs" class="fork-compare" aria-label="The agents' runs"></div>
    <div class="actions"><button id="fork-compare" type="button" class="secondary" disabled>Compare the forks</button></div>
    <div id="fork-merge" class="summary" role="status" hidden></div>
    <div id="fork-compare-view" class="fork-compare"></div>`;
}

/**
 * The Forks tab: fork the open workspace, work on a fork (the console, the editor, Review and the
 * Agent tab then act on it), compare each fork's diff against its fork point side by side, merge
 * one back (clean: one change in Review; conflicting: the paths and regions, nothing changed), drop.
 */
export class ForksPanel {
  private forks: ForkSummary[] = [];
  /** the list is redrawn when the tab shows: the workspace changed while it was hidden */
  private stale = true;
  /** each fork's model for a side-by-side run, as typed in its row (empty: the Agent tab's) */
  private readonly models = new Map<string, string>();
  private readonly runs: ForkRuns;

  constructor(
    private readonly session: Session,
    private readonly merged: () => void,
    private readonly canLeave: () => boolean,
    settings: () => AgentSettings,
  ) {
    buildForm($('pane-forks'));
    this.runs = new ForkRuns(session, settings);
    $<HTMLFormElement>('fork-agents').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.runAgents();
    });
    $('fork-agents-stop').addEventListener('click', () => this.runs.abort());
    $('fork-list').addEventListener('input', (event) => {
      const field = event.target as HTMLInputElement;
      const name = field.closest<HTMLElement>('li[data-fork]')?.dataset.fork;
      if (name && field.dataset.act === 'model') this.models.set(name, field.value);
    });
    $<HTMLFormElement>('fork-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.make();
    });
    $('fork-parent').addEventListener('click', () => void this.use(null));
    $('fork-compare').addEventListener('click', () => void this.compare());
    $('fork-list').addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-act]');
      const name = button?.closest<HTMLElement>('li[data-fork]')?.dataset.fork;
      if (!button || !name) return;
      if (button.dataset.act === 'use') void this.use(name);
      if (button.dataset.act === 'merge') void this.merge(name);
      if (button.dataset.act === 'drop') void this.drop(name);
    });
    session.onSwitch(() => {
      this.runs.abort();
      this.models.clear();
      $('fork-runs').replaceChildren();
      $('fork-compare-view').replaceChildren();
      $('fork-merge').hidden = true;
      void this.refresh();
    });
    session.onView(() => this.draw());
    // The fork code loads with the first look at the tab, not with every workspace that opens.
    const pane = $('pane-forks');
    new MutationObserver(() => {
      if (!pane.hidden && this.stale) void this.refresh();
    }).observe(pane, { attributes: true, attributeFilter: ['hidden'] });
  }

  /** An agent run acts on the workspace it started in: switching under it would move its calls. */
  private get agentRunning(): boolean {
    return document.body.dataset.agent === 'running';
  }

  async refresh(): Promise<void> {
    if (!this.session.isOpen) return;
    this.stale = $('pane-forks').hidden;
    if (this.stale) return;
    const envelope = await this.session.workspace.forks.list();
    this.forks = envelope.ok ? envelope.result.forks : [];
    this.draw();
  }

  private draw(): void {
    const viewing = this.session.viewing;
    $('fork-viewing').textContent = viewing
      ? `Working on the fork “${viewing}”: the console, the editor, Review and the Agent tab act on it.`
      : 'Working on the workspace itself.';
    $('fork-parent').hidden = viewing === null;
    $('fork-empty').hidden = this.forks.length > 0;
    $<HTMLButtonElement>('fork-compare').disabled = this.forks.length === 0;
    $<HTMLButtonElement>('fork-agents-run').disabled = this.forks.length === 0 || this.runs.running;
    $<HTMLButtonElement>('fork-agents-stop').disabled = !this.runs.running;
    $('fork-list').replaceChildren(
      ...this.forks.map((fork) => {
        const here = fork.name === viewing;
        const item = el('li');
        item.dataset.fork = fork.name;
        if (here) item.setAttribute('aria-current', 'true');
        const use = Object.assign(el('button', here ? 'Working here' : 'Work here'), { type: 'button' });
        use.className = 'small secondary';
        use.dataset.act = 'use';
        use.disabled = here;
        const merge = Object.assign(el('button', 'Merge'), {
          type: 'button',
          title: `Merge “${fork.name}” into the workspace`,
        });
        merge.className = 'small';
        merge.dataset.act = 'merge';
        const drop = Object.assign(el('button', 'Drop'), {
          type: 'button',
          title: `Drop “${fork.name}” and its changes`,
        });
        drop.className = 'small secondary';
        drop.dataset.act = 'drop';
        const model = Object.assign(el('input'), {
          value: this.models.get(fork.name) ?? '',
          placeholder: 'model (the Agent tab’s)',
          spellcheck: false,
        });
        model.className = 'fork-model';
        model.dataset.act = 'model';
        model.setAttribute('aria-label', `Model for an agent on “${fork.name}”`);
        item.append(el('span', fork.name), model, use, merge, drop);
        item.firstElementChild!.className = 'fork-name';
        return item;
      }),
    );
  }

  private failed(what: string, envelope: Envelope): boolean {
    if (envelope.ok) return false;
    toast(failureText(what, envelope.error), 'error');
    return true;
  }

  private async make(): Promise<void> {
    const field = $<HTMLInputElement>('fork-name');
    const name = field.value.trim();
    if (!name) return;
    const envelope = await this.session.workspace.forks.create(name);
    if (this.failed(`Could not fork “${name}”`, envelope)) return;
    field.value = '';
    toast(`Forked “${name}” from the workspace as it is now.`);
    await this.refresh();
  }

  private async use(name: string | null): Promise<void> {
    if (this.agentRunning) return void toast('The agent is running here: stop it or let it finish first.', 'error');
    if (!this.canLeave()) return;
    this.failed(name ? `Could not work on “${name}”` : 'Could not go back', await this.session.useFork(name));
  }

  /** The task on every fork at once, each with its model; then their diffs side by side. */
  private async runAgents(): Promise<void> {
    const task = $<HTMLTextAreaElement>('fork-agents-task').value.trim();
    if (!task || this.runs.running || this.forks.length === 0) return;
    const runs = this.forks.map((f) => ({ fork: f.name, model: this.models.get(f.name) ?? '' }));
    const done = this.runs.run(task, runs, $('fork-runs'));
    this.draw();
    await done;
    this.draw();
    await this.compare();
  }

  private async compare(): Promise<void> {
    const diffs = [];
    for (const fork of this.forks) {
      const envelope = await this.session.workspace.forks.diff(fork.name);
      if (this.failed(`Could not diff “${fork.name}”`, envelope)) return;
      if (envelope.ok) diffs.push(envelope.result);
    }
    showCompare($('fork-compare-view'), diffs);
  }

  private async merge(name: string): Promise<void> {
    if (this.agentRunning) return void toast('The agent is running: let it finish before merging.', 'error');
    const envelope = await this.session.workspace.forks.merge(name);
    showMerge($('fork-merge'), name, envelope);
    if (!envelope.ok) return;
    toast(`Merged “${name}”: ${counted(envelope.result.files.length, 'file')}, one change in Review.`);
    // The merge is the workspace's change: show it there.
    if (this.session.viewing !== null) await this.session.useFork(null);
    this.merged();
    await this.refresh();
  }

  private async drop(name: string): Promise<void> {
    if (this.agentRunning) return void toast('The agent is running: let it finish before dropping a fork.', 'error');
    if (!window.confirm(`Drop the fork “${name}”? Its changes go with it.`)) return;
    const envelope = await this.session.workspace.forks.drop(name);
    if (this.failed(`Could not drop “${name}”`, envelope)) return;
    if (this.session.viewing === name) await this.session.useFork(null);
    toast(`Dropped “${name}”.`);
    $('fork-compare-view')
      .querySelector(`[data-fork="${CSS.escape(name)}"]`)
      ?.remove();
    await this.refresh();
  }
}
