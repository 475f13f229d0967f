import { NoteQueue, type QueuedNote } from '../note-queue.js';

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
 * inbox; it never keeps a run waiting (reviews are not background work). A workspace with a
 * persisted change log keeps the notes not yet taken there, so the next agent run in another
 * process reads them too.
 */
export class ReviewNotes extends NoteQueue {
  private waiting: QueuedNote[] = [];
  /** @internal told the notes not yet taken whenever they change (the persisted change log keeps them) */
  onPending?: (notes: readonly QueuedNote[]) => void;

  override push(note: QueuedNote): void {
    this.waiting.push(note);
    super.push(note);
    this.onPending?.(this.waiting);
  }

  override take(): QueuedNote[] {
    const taken = super.take();
    if (taken.length > 0) {
      this.waiting = [];
      this.onPending?.(this.waiting);
    }
    return taken;
  }

  /** the notes pushed and not yet taken */
  pending(): readonly QueuedNote[] {
    return this.waiting;
  }

  /** @internal notes kept from an earlier process: queued again without being kept again */
  restore(notes: readonly QueuedNote[]): void {
    const tell = this.onPending;
    this.onPending = undefined;
    try {
      for (const note of notes) this.push(note);
    } finally {
      this.onPending = tell;
    }
  }
}
