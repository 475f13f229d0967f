/** A note for the agent, in the shape the agent's inbox takes (see src/agent/inbox.ts). */
export interface ReviewNote {
  /** the note's text, as the model reads it */
  text: string;
  /** starts an idle agent's next turn */
  wake: boolean;
}

/**
 * What reviews tell the agent: each rejection becomes a note, taken by the next model request as
 * an `[info: ...]` line. It has the agent inbox's shape, so runAgent reads it beside the task
 * inbox; it never keeps a run waiting (reviews are not background work).
 */
export class ReviewNotes {
  private notes: ReviewNote[] = [];
  private wakers = new Set<() => void>();

  /** Add a note for the next request. */
  push(note: ReviewNote): void {
    this.notes.push(note);
    if (note.wake) for (const wake of [...this.wakers]) wake();
  }

  /** The notes since the last take, in order. */
  take(): ReviewNote[] {
    const taken = this.notes;
    this.notes = [];
    return taken;
  }

  /** Reviews are never background work. */
  running(): number {
    return 0;
  }

  /** A waking note is waiting. */
  wakeWaiting(): boolean {
    return this.notes.some((n) => n.wake);
  }

  /** Resolves when a waking note arrives or the signal aborts. */
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
