/** A note for an agent's next request (the shape of the agent inbox's notes, src/agent/inbox.ts). */
export interface QueuedNote {
  /** the note's text, as the model will read it */
  text: string;
  /** starts an idle agent's next turn */
  wake: boolean;
}

/** A simple inbox a host feeds by hand (the playground, tests, a custom task runner). */
export class NoteQueue {
  private notes: QueuedNote[] = [];
  private wakers = new Set<() => void>();
  private tasks = 0;

  /** Add a note; a waking one starts an idle run's next turn. */
  push(note: QueuedNote): void {
    this.notes.push(note);
    if (note.wake) for (const wake of [...this.wakers]) wake();
  }

  /** Count background work that keeps an idle run waiting (+1 when it starts, -1 when it ends). */
  track(delta: number): void {
    this.tasks = Math.max(0, this.tasks + delta);
  }

  /** the notes that arrived since the last take, in order */
  take(): QueuedNote[] {
    const taken = this.notes;
    this.notes = [];
    return taken;
  }

  /** background work still running (what `track` counted): an idle run waits for it */
  running(): number {
    return this.tasks;
  }

  /** a waking note arrived and was not taken yet */
  wakeWaiting(): boolean {
    return this.notes.some((n) => n.wake);
  }

  /** resolves when a waking note arrives (at once if one is waiting) or the signal aborts */
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
