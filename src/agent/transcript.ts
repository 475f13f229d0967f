import type { AgentEvent } from './events.js';

/** One line of a transcript as `sandpit replay` and the playground's replay read it. */
export interface TranscriptLine {
  /** the tool called */
  tool: string;
  /** its arguments */
  args: unknown;
}

/**
 * Collects a run's tool calls, in the order they finished, as a replayable transcript. Calls the
 * loop refused before the workspace saw them (unparseable arguments) changed nothing and are left
 * out, so replaying the lines without the model leaves the workspace as the run did. Parallel
 * calls are written in the order they settled; they only ran at once when their paths differed.
 */
export class TranscriptRecorder {
  /** the calls recorded so far, in the order they finished */
  readonly lines: TranscriptLine[] = [];

  /** Feed it every event of a run (it is an AgentListener). */
  readonly listen = (event: AgentEvent): void => {
    if (event.type === 'tool_result' && !event.call.parse_error)
      this.lines.push({ tool: event.call.name, args: event.call.args });
  };

  /** The transcript as JSONL: one `{"tool": ..., "args": ...}` per line. */
  toJsonl(): string {
    return toJsonl(this.lines);
  }
}

/** Lines as JSONL, each ending in a newline. */
export function toJsonl(lines: readonly TranscriptLine[]): string {
  return lines.map((line) => `${JSON.stringify({ tool: line.tool, args: line.args })}\n`).join('');
}
