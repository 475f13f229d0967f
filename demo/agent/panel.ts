import { createProvider, runAgent, TranscriptRecorder, type AgentWorkspace } from '../../src/agent/index.js';
import { $, counted, el, toast } from '../page/dom.js';
import { failureText } from '../page/failure-words.js';
import { AgentLog } from './view.js';
import { ChangesInbox } from './inbox.js';
import { loadSettings, saveSettings, type AgentSettings } from './settings.js';
import type { Session } from '../page/session.js';

/** How long a run that has answered waits for the background tasks it started (the seed's agent.max_background_wait_minutes). */
const BACKGROUND_WAIT_MINUTES = 10;
const USUAL_ENDPOINT = { openai: 'http://127.0.0.1:11434/v1', anthropic: 'https://api.anthropic.com' };

/** Builds the panel's form inside #pane-agent, so the page's HTML only holds the tab and the pane. */
function buildForm(pane: HTMLElement): void {
  pane.innerHTML = `
    <form id="agent-form" class="agent-form" autocomplete="off">
      <details id="agent-settings" class="agent-settings" open>
        <summary>Model</summary>
        <div class="agent-grid">
          <label for="agent-api">API</label>
          <select id="agent-api">
            <option value="openai">OpenAI-compatible (llama.cpp, Ollama, LM Studio, vLLM, OpenAI)</option>
            <option value="anthropic">Anthropic messages</option>
          </select>
          <label for="agent-endpoint">Endpoint</label>
          <input id="agent-endpoint" type="url" spellcheck="false" placeholder="http://127.0.0.1:11434/v1" required />
          <label for="agent-model">Model</label>
          <input id="agent-model" spellcheck="false" placeholder="qwen2.5-coder:7b" required />
          <label for="agent-key">API key</label>
          <input id="agent-key" type="password" spellcheck="false" placeholder="none for a local server" />
          <span></span>
          <label class="agent-check"><input id="agent-remember" type="checkbox" /> remember the key in this browser</label>
          <label for="agent-max-steps">Max steps</label>
          <input id="agent-max-steps" type="number" min="1" max="500" required />
        </div>
      </details>
      <textarea id="agent-task" rows="3" spellcheck="true" placeholder="What should the agent do? e.g. Make the greeting in src/greet.ts say good morning" aria-label="Task" required></textarea>
      <div class="actions agent-actions">
        <button id="agent-run" type="submit">Run</button>
        <button id="agent-stop" type="button" class="secondary" disabled>Stop</button>
        <button id="agent-undo" type="button" class="secondary" disabled title="Bring every file back to how it was before the run (itself undoable in Review)">Undo run</button>
        <button id="agent-save" type="button" class="secondary" disabled title="Download the run's tool calls as JSONL for sandpit replay">Save transcript</button>
        <button id="agent-replay" type="button" class="secondary" disabled title="Open the run's tool calls in Replay">Replay</button>
      </div>
      <p id="agent-status" class="muted" role="status">The agent calls the endpoint you enter, from this page; nothing else leaves it.</p>
    </form>
    <ol id="agent-log" class="agent-log" aria-label="The agent's steps"></ol>
    <p class="muted agent-hint">Files you change while the agent runs reach it as <code>[info: …]</code> notes with its next request, shown here too. A command it starts with <code>background: true</code> keeps a run that has answered waiting (up to ${BACKGROUND_WAIT_MINUTES} minutes): the task's notes and its end wake it.</p>`;
}

/**
 * The agent panel: a model endpoint, a task, the streamed run over the page's workspace, Stop,
 * and one-click undo of everything the run changed (a snapshot is taken before it starts).
 */
export class AgentPanel {
  private settings: AgentSettings = loadSettings();
  private running: AbortController | null = null;
  private before: string | null = null;
  private transcript = '';
  private readonly log: AgentLog;

  constructor(
    private readonly session: Session,
    private readonly openInReplay: (jsonl: string) => void,
  ) {
    buildForm($('pane-agent'));
    this.log = new AgentLog($<HTMLOListElement>('agent-log'));
    const s = this.settings;
    $<HTMLSelectElement>('agent-api').value = s.api;
    $<HTMLInputElement>('agent-endpoint').value = s.endpoint;
    $<HTMLInputElement>('agent-model').value = s.model;
    $<HTMLInputElement>('agent-key').value = s.apiKey;
    $<HTMLInputElement>('agent-remember').checked = s.remember;
    $<HTMLInputElement>('agent-max-steps').value = String(s.maxSteps);
    $<HTMLFormElement>('agent-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
    $('agent-remember').addEventListener('change', () => saveSettings(this.readForm()));
    // Switching the API swaps an untouched example endpoint for the other API's usual one.
    $('agent-api').addEventListener('change', () => {
      const endpoint = $<HTMLInputElement>('agent-endpoint');
      const api = $<HTMLSelectElement>('agent-api').value as keyof typeof USUAL_ENDPOINT;
      if (Object.values(USUAL_ENDPOINT).includes(endpoint.value.trim()) || endpoint.value.trim() === '')
        endpoint.value = USUAL_ENDPOINT[api];
    });
    $('agent-stop').addEventListener('click', () => this.running?.abort());
    $('agent-undo').addEventListener('click', () => void this.undoRun());
    $('agent-save').addEventListener('click', () => this.download());
    $('agent-replay').addEventListener('click', () => this.openInReplay(this.transcript));
    // A run belongs to the workspace it started on; a switch ends it and its undo point.
    session.onSwitch(() => {
      this.running?.abort();
      this.before = null;
      this.setButtons();
    });
  }

  /** The model settings as the form holds them now (the Forks tab's side-by-side runs use them). */
  modelSettings(): AgentSettings {
    return this.readForm();
  }

  private readForm(): AgentSettings {
    this.settings = {
      api: $<HTMLSelectElement>('agent-api').value === 'anthropic' ? 'anthropic' : 'openai',
      endpoint: $<HTMLInputElement>('agent-endpoint').value.trim(),
      model: $<HTMLInputElement>('agent-model').value.trim(),
      apiKey: $<HTMLInputElement>('agent-key').value.trim(),
      remember: $<HTMLInputElement>('agent-remember').checked,
      maxSteps: Math.max(1, Math.floor(Number($<HTMLInputElement>('agent-max-steps').value) || 25)),
    };
    return this.settings;
  }

  private status(text: string): void {
    $('agent-status').textContent = text;
  }

  private setButtons(): void {
    const busy = this.running !== null;
    $<HTMLButtonElement>('agent-run').disabled = busy;
    $<HTMLButtonElement>('agent-stop').disabled = !busy;
    $<HTMLButtonElement>('agent-undo').disabled = busy || this.before === null;
    $<HTMLButtonElement>('agent-save').disabled = busy || this.transcript === '';
    $<HTMLButtonElement>('agent-replay').disabled = busy || this.transcript === '';
    document.body.dataset.agent = busy ? 'running' : 'idle';
  }

  async run(): Promise<void> {
    if (this.running) return;
    const settings = this.readForm();
    const task = $<HTMLTextAreaElement>('agent-task').value.trim();
    if (!task) return void toast('Write a task for the agent first.', 'error');
    saveSettings(settings);
    this.running = new AbortController();
    this.transcript = '';
    this.setButtons();
    this.log.clear();
    this.log.task(task);
    this.status('noting where to undo the run to…');
    // Every change is already a snapshot, so the newest one is the undo point: no empty
    // "before the agent" entry in Review for a run that changes nothing or fails at once.
    this.before = await this.head();
    if (!this.before) toast('No undo point for this run: the workspace has no snapshot to go back to.', 'error');
    const recorder = new TranscriptRecorder();
    const inbox = new ChangesInbox();
    const stopHearing = this.session.onChange((event) => inbox.heard(event));
    const stopHearingTasks = this.session.onTask((event) => inbox.heardTask(event));
    const workspace = this.offered(inbox);
    this.status(`running ${settings.model}…`);
    try {
      const outcome = await runAgent({
        workspace,
        task,
        maxSteps: settings.maxSteps,
        signal: this.running.signal,
        inbox,
        maxBackgroundWaitMinutes: BACKGROUND_WAIT_MINUTES,
        provider: createProvider({
          api: settings.api,
          endpoint: settings.endpoint,
          model: settings.model,
          ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        }),
        onEvent: (event) => {
          recorder.listen(event);
          this.log.show(event);
          if (event.type === 'waiting') this.status(`waiting for ${counted(event.tasks, 'background task')}…`);
          else if (event.type === 'usage')
            this.status(
              `running ${settings.model}… step ${event.step} · ${counted(event.total.input_tokens + event.total.output_tokens, 'token')}`,
            );
        },
      });
      // The log already shows the error in full; the status line only says how the run ended.
      this.status(
        outcome.error
          ? `ended by an error after ${outcome.steps} step${outcome.steps === 1 ? '' : 's'} (see the log)`
          : `${outcome.reason.replace('_', ' ')} after ${outcome.steps} step${outcome.steps === 1 ? '' : 's'}`,
      );
    } catch (error) {
      // Only the page's own workspace can fail this way (a closed worker); the loop itself does not throw.
      this.status(`the run failed: ${(error as Error).message}`);
    } finally {
      stopHearing();
      stopHearingTasks();
      this.transcript = recorder.toJsonl();
      // Run comes back the moment the run ends, not after the look at history below.
      const point = this.before;
      this.running = null;
      this.setButtons();
      // A run that changed nothing has nothing to undo (unless a new run has started meanwhile).
      if (point && (await this.head()) === point && this.running === null && this.before === point) this.before = null;
      this.setButtons();
    }
  }

  /**
   * The workspace as the model sees it: the tools the chosen surface offers, and only those (the
   * worker also answers the canonical tools the page itself uses, which the model was not given).
   */
  private offered(inbox: ChangesInbox): AgentWorkspace {
    let names: Promise<Set<string>> | null = null;
    const listTools = () => this.session.workspace.listTools();
    return {
      listTools,
      call: async (tool, args, options) => {
        names ??= listTools().then((tools) => new Set(tools.map((t) => t.name)));
        if (!(await names).has(tool)) {
          return {
            ok: false,
            tool,
            error: {
              code: 'UNKNOWN_TOOL',
              message: `there is no tool named '${tool.slice(0, 100)}'`,
              hint: 'Call one of the tools you were given.',
            },
          };
        }
        const envelope = await this.session.call(tool, args, options);
        const changeId = envelope.ok ? (envelope.result as { change_id?: unknown })?.change_id : undefined;
        if (typeof changeId === 'string') inbox.ownChange(changeId);
        const taskId =
          envelope.ok && tool === 'run_command' ? (envelope.result as { task_id?: unknown })?.task_id : undefined;
        if (typeof taskId === 'string') inbox.taskStarted(taskId);
        return envelope;
      },
    };
  }

  /** The newest snapshot's id, or null when there is none (or snapshots are off). */
  private async head(): Promise<string | null> {
    const envelope = await this.session.call('list_snapshots', { limit: 1 });
    return envelope.ok ? ((envelope.result as { snapshots: Array<{ id: string }> }).snapshots[0]?.id ?? null) : null;
  }

  /** Put every file back as it was before the run; the restore is itself a snapshot, so Review can undo it. */
  async undoRun(): Promise<void> {
    if (!this.before || this.running) return;
    const envelope = await this.session.call('restore_snapshot', { id: this.before });
    if (!envelope.ok) return void toast(failureText('Could not undo the run', envelope.error), 'error');
    const restored = (envelope.result as { files_changed?: number }).files_changed ?? 0;
    this.status(
      `undone: ${restored} file${restored === 1 ? '' : 's'} back as before the run (Undo in Review brings the run back)`,
    );
    toast('The run was undone.');
    this.before = null;
    this.setButtons();
  }

  private download(): void {
    const url = URL.createObjectURL(new Blob([this.transcript], { type: 'application/jsonl' }));
    const link = Object.assign(el('a'), { href: url, download: 'agent-run.jsonl' });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
