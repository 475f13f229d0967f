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

// The queue sits in the workspace layer so the review desk's notes use the same one.
export { NoteQueue } from '../workspace/note-queue.js';
