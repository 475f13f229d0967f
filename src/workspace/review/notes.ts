import { NoteQueue } from '../note-queue.js';

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
export class ReviewNotes extends NoteQueue {}
