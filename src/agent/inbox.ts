/** One note from a host's background work: a line a tool wrote to its notify file, or a task's end. */
export interface AgentNote {
  /** the note's text, as the model will read it */
  text: string;
  /** starts an idle agent's next turn (a `{"wake": true}` line, a task's exit) */
  wake: boolean;
}

/**
 * Where a run hears about background work (seed 003: the notify file, task exits). Notes go to
 * the end of the next request as `[info: ...]` lines, never into the system prompt or an earlier
 * message, so a provider's prompt cache still hits.
 */
export interface AgentInbox {
  /** the notes that arrived since the last take, in order */
  take(): AgentNote[];
  /** background tasks still running: an idle run waits for them (up to maxBackgroundWaitMinutes) */
  running(): number;
  /** a waking note arrived and was not taken yet */
  wakeWaiting(): boolean;
  /** resolves when a waking note arrives (at once if one is waiting) or the signal aborts */
  whenWoken(signal: AbortSignal): Promise<void>;
}

/** The notes as the model reads them: one `[info: ...]` line each. */
export function infoLines(notes: readonly AgentNote[]): string {
  return notes.map((n) => `[info: ${n.text}]`).join('\n');
}

/** A simple inbox a host feeds by hand (the playground, tests, a custom task runner). */
export class NoteQueue implements AgentInbox {
  private notes: AgentNote[] = [];
  private wakers = new Set<() => void>();
  private tasks = 0;

  /** Add a note; a waking one starts an idle run's next turn. */
  push(note: AgentNote): void {
    this.notes.push(note);
    if (note.wake) for (const wake of [...this.wakers]) wake();
  }

  /** Count background work that keeps an idle run waiting (+1 when it starts, -1 when it ends). */
  track(delta: number): void {
    this.tasks = Math.max(0, this.tasks + delta);
  }

  take(): AgentNote[] {
    const taken = this.notes;
    this.notes = [];
    return taken;
  }

  running(): number {
    return this.tasks;
  }

  wakeWaiting(): boolean {
    return this.notes.some((n) => n.wake);
  }

  whenWoken(signal: AbortSignal): Promise<void> {
    if (this.wakeWaiting() || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.wakers.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.wakers.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
