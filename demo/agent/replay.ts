import type { Envelope } from '../../src/index.js';
import { $, el, toast } from '../page/dom.js';
import type { Session } from '../page/session.js';

export interface Step {
  tool: string;
  args: Record<string, unknown>;
}

/** Read a transcript: one `{"tool": .., "args": ..}` per line; blank lines and `#` comments are skipped. */
export function parseTranscript(text: string): Step[] {
  const steps: Step[] = [];
  text.split('\n').forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new Error(`line ${index + 1} is not JSON`);
    }
    const { tool, args } = (parsed ?? {}) as { tool?: unknown; args?: unknown };
    if (typeof tool !== 'string') throw new Error(`line ${index + 1} has no "tool" name`);
    steps.push({ tool, args: args && typeof args === 'object' ? (args as Record<string, unknown>) : {} });
  });
  return steps;
}

function describeArgs(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .map(
      ([k, v]) =>
        `${k}: ${typeof v === 'string' ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v) : JSON.stringify(v)}`,
    )
    .join(', ');
  return text.length > 110 ? `${text.slice(0, 110)}…` : text;
}

/**
 * Agent replay: a transcript's calls run one at a time against the open workspace, step by step
 * or all at once, with each step's outcome beside it and the envelope in the console.
 */
export class Replay {
  private steps: Step[] = [];
  private results: Array<Envelope | undefined> = [];
  private next = 0;
  private playing = false;
  private stopRequested = false;
  private readonly list = $<HTMLOListElement>('replay-steps');

  constructor(
    private readonly session: Session,
    private readonly show: (envelope: Envelope) => void,
  ) {
    $('replay-step').addEventListener('click', () => void this.step());
    $('replay-all').addEventListener('click', () => void this.playAll());
    $('replay-stop').addEventListener('click', () => {
      this.stopRequested = true;
    });
    $('replay-reset').addEventListener('click', () => this.rewind());
    this.list.addEventListener('click', (event) => {
      const item = (event.target as HTMLElement).closest<HTMLLIElement>('li[data-index]');
      const result = item ? this.results[Number(item.dataset.index)] : undefined;
      if (result) this.show(result);
    });
    this.draw();
  }

  load(text: string, source: string): void {
    try {
      this.steps = parseTranscript(text);
    } catch (error) {
      toast(
        `${source}: ${(error as Error).message.replace(/[.\s]+$/, '')}. It cannot be replayed: fix that line and open it again, or open another transcript.`,
        'error',
      );
      return;
    }
    $('replay-source').textContent = `${source} · ${this.steps.length} call${this.steps.length === 1 ? '' : 's'}`;
    this.rewind();
  }

  private rewind(): void {
    this.results = [];
    this.next = 0;
    this.draw();
  }

  async step(): Promise<boolean> {
    const step = this.steps[this.next];
    if (!step || this.busyStep) return false;
    this.busyStep = true;
    try {
      const envelope = await this.session.call(step.tool, step.args);
      this.results[this.next] = envelope;
      this.next++;
      this.show(envelope);
      this.draw();
      return true;
    } finally {
      this.busyStep = false;
    }
  }

  private busyStep = false;

  async playAll(): Promise<void> {
    if (this.playing) return;
    this.playing = true;
    this.stopRequested = false;
    this.draw();
    try {
      while (this.next < this.steps.length && !this.stopRequested) {
        if (!(await this.step())) break;
        // A beat between steps, so a person can watch the tree and the timeline follow along.
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
    } finally {
      this.playing = false;
      this.draw();
    }
  }

  private draw(): void {
    const total = this.steps.length;
    this.list.replaceChildren(
      ...this.steps.map((step, index) => {
        const result = this.results[index];
        const item = el(
          'li',
          undefined,
          `replay-step ${result ? (result.ok ? 'ok' : 'failed') : index === this.next ? 'next' : 'pending'}`,
        );
        item.dataset.index = String(index);
        const head = el('div', undefined, 'replay-head');
        head.append(
          el('span', step.tool, 'tool-name'),
          el('span', result ? (result.ok ? 'ok' : result.error.code) : index === this.next ? 'next' : '', 'outcome'),
        );
        item.append(head, el('div', describeArgs(step.args), 'replay-args'));
        return item;
      }),
    );
    const progress = $<HTMLProgressElement>('replay-progress');
    progress.max = Math.max(total, 1);
    progress.value = this.next;
    $('replay-count').textContent = total ? `${this.next} / ${total}` : '';
    const done = this.next >= total;
    ($('replay-step') as HTMLButtonElement).disabled = this.playing || done;
    ($('replay-all') as HTMLButtonElement).disabled = this.playing || done;
    ($('replay-stop') as HTMLButtonElement).hidden = !this.playing;
    ($('replay-reset') as HTMLButtonElement).disabled = this.playing || this.next === 0;
    $('replay-empty').hidden = total > 0;
    this.list.querySelector('li.next')?.scrollIntoView({ block: 'nearest' });
  }
}
