/** One line a tool appended to its notify file (seed 003's `ZAGENT_NOTIFY_FILE`). */
export interface NotifyNote {
  text: string;
  /** JSON lines may ask to wake an idle agent */
  wake: boolean;
}

/** A plain line is a note; a JSON object line gives `text` and `wake`. */
export function parseNote(line: string): NotifyNote | null {
  const trimmed = line.trim();
  if (trimmed === '') return null;
  if (trimmed.startsWith('{')) {
    try {
      const value = JSON.parse(trimmed) as { text?: unknown; wake?: unknown };
      if (typeof value.text === 'string') return { text: value.text, wake: value.wake === true };
    } catch {
      // Not JSON after all: deliver it as written.
    }
  }
  return { text: trimmed, wake: false };
}
