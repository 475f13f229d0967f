import type { Envelope } from '../../src/index.js';
import { counted, el } from '../page/dom.js';

/** What a foreground run_command answers: the fields the terminal view shows. */
interface CommandOutcome {
  exit_code: number;
  stdout?: string;
  stderr?: string;
  timed_out?: boolean;
  truncated?: boolean;
  duration_ms?: number;
  note?: string;
  changed_files?: string[];
  changed_files_total?: number;
  change_id?: string;
}

/** The outcome of a finished command, or null for anything the JSON view shows better (errors, background tasks). */
export function commandOutcome(envelope: Envelope): CommandOutcome | null {
  if (!envelope.ok || envelope.tool !== 'run_command') return null;
  const result = envelope.result as Partial<CommandOutcome> | undefined;
  return typeof result?.exit_code === 'number' ? (result as CommandOutcome) : null;
}

const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);

/**
 * A command's outcome as a terminal shows it: stdout as text, stderr after it in its own colour,
 * then a line with the exit code and how long it took, and what it changed with a way to Review.
 * The streams come apart from the shell, so they are shown one after the other, not interleaved.
 */
export function renderTerminal(host: HTMLElement, outcome: CommandOutcome, openReview: () => void): void {
  const screen = el('pre', undefined, 'term-screen');
  if (outcome.stdout) screen.append(el('span', outcome.stdout, 'term-stdout'));
  if (outcome.stderr) screen.append(el('span', outcome.stderr, 'term-stderr'));
  if (!outcome.stdout && !outcome.stderr) screen.append(el('span', '(no output)', 'term-quiet'));
  const failed = outcome.exit_code !== 0;
  const facts = [
    outcome.timed_out ? 'timed out' : `exit ${outcome.exit_code}`,
    ...(outcome.duration_ms === undefined ? [] : [seconds(outcome.duration_ms)]),
    ...(outcome.truncated ? ['output cut: the start and the end are kept'] : []),
  ];
  const exit = el('p', facts.join(' · '), `term-exit ${failed ? 'failed' : 'ok'}`);
  host.replaceChildren(screen, exit);
  if (outcome.note) host.append(el('p', outcome.note, 'term-note muted'));
  const changed = outcome.changed_files ?? [];
  if (outcome.change_id && changed.length) {
    const total = outcome.changed_files_total ?? changed.length;
    const line = el('p', `Changed ${counted(total, 'file')}: ${changed.slice(0, 5).join(', ')}`, 'term-change');
    if (total > 5) line.append(` and ${total - 5} more`);
    const link = el('a', 'See the change in Review');
    link.href = '#pane-review';
    link.addEventListener('click', (event) => {
      event.preventDefault();
      openReview();
    });
    line.append(' · ', link);
    host.append(line);
  }
}
