import type { AgentEvent, AgentToolCall } from '../../src/agent/index.js';
import { el } from '../page/dom.js';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A call's arguments in one short line: `path: "a.ts", old_text: "…"`. */
function brief(call: AgentToolCall): string {
  if (call.parse_error) return clip(call.raw, 80);
  const args = call.args as Record<string, unknown>;
  return clip(
    Object.entries(args ?? {})
      .map(([k, v]) => `${k}: ${clip(JSON.stringify(v), 40)}`)
      .join(', '),
    110,
  );
}

/**
 * The streamed conversation: the task, the model's text as it arrives, each tool call folded
 * with its arguments and envelope, retries, errors and how the run ended.
 */
export class AgentLog {
  private text: HTMLElement | null = null;
  private readonly calls = new Map<string, HTMLLIElement>();

  constructor(private readonly list: HTMLOListElement) {}

  clear(): void {
    this.list.replaceChildren();
    this.calls.clear();
    this.text = null;
  }

  task(text: string): void {
    this.add(el('li', text, 'agent-user'));
  }

  show(event: AgentEvent): void {
    if (event.type === 'step') this.text = null;
    else if (event.type === 'text') {
      if (!this.text) {
        this.text = el('li', '', 'agent-text');
        this.add(this.text);
      }
      this.text.textContent += event.delta;
      this.follow();
    } else if (event.type === 'tool_call') this.call(event.step, event.call);
    else if (event.type === 'tool_result') {
      const item = this.calls.get(`${event.step}:${event.call.id}`);
      if (!item) return;
      const envelope = event.envelope;
      item.dataset.ok = String(envelope.ok);
      if (!envelope.ok) item.dataset.code = envelope.error.code;
      item.classList.add(envelope.ok ? 'ok' : 'failed');
      item.querySelector('.agent-call-state')!.textContent = envelope.ok ? 'ok' : envelope.error.code;
      item
        .querySelector('details')!
        .append(el('div', 'Result', 'agent-label'), el('pre', JSON.stringify(envelope, null, 2)));
    } else if (event.type === 'notes') {
      // What the loop appended to its next request, word for word, so the person sees what the model read.
      for (const note of event.notes) this.add(el('li', `[info: ${note}]`, 'agent-info'));
      this.text = null;
    } else if (event.type === 'waiting') {
      // The model has answered; the run stays alive until a task's note or end wakes it.
      this.add(
        el(
          'li',
          `Waiting for ${event.tasks} background task${event.tasks === 1 ? '' : 's'}: a note or its end wakes the run.`,
          'agent-waiting',
        ),
      );
      this.text = null;
    } else if (event.type === 'retry') {
      this.add(
        el(
          'li',
          `The endpoint answered ${event.status}; trying again in ${(event.delay_ms / 1000).toFixed(1)} s.`,
          'agent-note',
        ),
      );
    } else if (event.type === 'error') {
      const item = el('li', undefined, 'agent-error');
      item.setAttribute('role', 'alert');
      item.dataset.code = event.code;
      item.append(el('strong', event.code), el('span', ` ${event.message}`));
      this.add(item);
    } else if (event.type === 'done') {
      const reasons = {
        answered: 'Finished',
        step_limit: 'Stopped at the step limit',
        token_budget: 'Stopped: token budget spent',
        stopped: 'Stopped',
        error: 'Ended by an error',
      };
      const item = el(
        'li',
        `${reasons[event.reason]} after ${event.steps} step${event.steps === 1 ? '' : 's'} · ${event.usage.input_tokens} in / ${event.usage.output_tokens} out tokens`,
        'agent-done',
      );
      item.dataset.reason = event.reason;
      this.add(item);
    }
  }

  private call(step: number, call: AgentToolCall): void {
    const item = el('li', undefined, 'agent-call');
    item.dataset.tool = call.name;
    const details = el('details');
    const summary = el('summary');
    summary.append(
      el('span', call.name, 'agent-call-name'),
      el('span', brief(call), 'agent-call-args'),
      el('span', 'running…', 'agent-call-state'),
    );
    details.append(
      summary,
      el('div', 'Arguments', 'agent-label'),
      el('pre', call.parse_error ? call.raw : JSON.stringify(call.args, null, 2)),
    );
    item.append(details);
    this.calls.set(`${step}:${call.id}`, item);
    this.text = null;
    this.add(item);
  }

  private add(item: HTMLElement): void {
    this.list.append(item);
    this.follow();
  }

  // Keep the newest step in view while the run streams.
  private follow(): void {
    this.list.scrollTop = this.list.scrollHeight;
  }
}
