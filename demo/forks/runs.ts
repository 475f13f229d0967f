import { createProvider, runAgent, type AgentWorkspace } from '../../src/agent/index.js';
import { AgentLog } from '../agent/view.js';
import type { AgentSettings } from '../agent/settings.js';
import { el } from '../page/dom.js';
import type { Session } from '../page/session.js';

/** One agent run to start: the fork it works in and the model (the Agent tab's when empty). */
export interface ForkRun {
  fork: string;
  model: string;
}

/**
 * Agents side by side: the Agent tab's model settings, one run per fork, all at once, each in its
 * own column with its streamed log. Each run calls its own fork by name, whichever one the page
 * is looking at, under the actor `agent:<model>`, so blame and Review name it.
 */
export class ForkRuns {
  private stop: AbortController | null = null;

  constructor(
    private readonly session: Session,
    private readonly settings: () => AgentSettings,
  ) {}

  get running(): boolean {
    return this.stop !== null;
  }

  /** Stop every run of the batch. */
  abort(): void {
    this.stop?.abort();
  }

  /** Run `task` on each fork at once, drawing a column per run in `host`; resolves when all have ended. */
  async run(task: string, runs: ForkRun[], host: HTMLElement): Promise<void> {
    if (this.stop) return;
    const stop = new AbortController();
    this.stop = stop;
    document.body.dataset.agent = 'running';
    const settings = this.settings();
    try {
      host.replaceChildren();
      await Promise.all(
        runs.map((run) => {
          const model = run.model.trim() || settings.model;
          const column = el('section', undefined, 'fork-column fork-run');
          column.dataset.fork = run.fork;
          column.setAttribute('aria-label', `Agent on ${run.fork}`);
          const status = el('p', `running ${model}…`, 'muted fork-run-status');
          status.dataset.state = 'running';
          const list = el('ol', undefined, 'agent-log') as HTMLOListElement;
          column.append(el('h4', `${run.fork} · ${model}`), status, list);
          host.append(column);
          const log = new AgentLog(list);
          log.task(task);
          return this.one(run.fork, task, { ...settings, model }, stop.signal, log, status);
        }),
      );
    } finally {
      this.stop = null;
      document.body.dataset.agent = 'idle';
    }
  }

  private async one(
    fork: string,
    task: string,
    settings: AgentSettings,
    signal: AbortSignal,
    log: AgentLog,
    status: HTMLElement,
  ): Promise<void> {
    const forks = this.session.workspace.forks;
    const workspace: AgentWorkspace = {
      listTools: () => this.session.workspace.listTools(),
      call: (tool, args, options) => forks.call(fork, tool, args, options),
    };
    const outcome = await runAgent({
      workspace,
      task,
      signal,
      maxSteps: settings.maxSteps,
      provider: createProvider({
        api: settings.api,
        endpoint: settings.endpoint,
        model: settings.model,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      }),
      onEvent: (event) => log.show(event),
    }).catch((error: Error) => ({ reason: 'error', steps: 0, error: { message: error.message } }));
    status.dataset.state = outcome.reason;
    status.textContent = outcome.error
      ? `ended by an error after ${outcome.steps} step${outcome.steps === 1 ? '' : 's'}`
      : `${outcome.reason.replace('_', ' ')} after ${outcome.steps} step${outcome.steps === 1 ? '' : 's'}`;
  }
}
