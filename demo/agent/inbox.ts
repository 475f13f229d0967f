import { NoteQueue, type AgentInbox, type AgentNote } from '../../src/agent/index.js';
import type { ChangeNotice, TaskNoteEvent } from '../../web/protocol.js';

const named = (paths: string[]) =>
  paths.length <= 4 ? paths.join(', ') : `${paths.slice(0, 4).join(', ')} and ${paths.length - 4} more`;

/**
 * What an agent run in the playground hears besides its own results: the changes anyone else
 * makes while it runs (the person saving in the editor, deleting in the tree, a git pull), and
 * its background tasks' notes and ends, as `[info: ...]` notes at the end of its next request.
 * A task the run started keeps it waiting once it has answered; a `{"wake": true}` note or the
 * task's end starts its next turn.
 */
export class ChangesInbox implements AgentInbox {
  private heardChanges: ChangeNotice[] = [];
  private readonly own = new Set<string>();
  private readonly taskNotes = new NoteQueue();
  private readonly started = new Set<string>();
  private readonly ended = new Set<string>();

  /** A change the page heard of, from anyone. */
  heard(event: ChangeNotice): void {
    this.heardChanges.push(event);
  }

  /** A change the agent's own call made: never a note. */
  ownChange(changeId: string): void {
    this.own.add(changeId);
  }

  /** The run started a background task: it keeps the run waiting until it ends. */
  taskStarted(taskId: string): void {
    this.started.add(taskId);
  }

  /** A background task's note or end, from the worker. Its end may arrive before the call that started it answers. */
  heardTask(event: TaskNoteEvent): void {
    if (event.ended) this.ended.add(event.task_id);
    // What a task wrote is told by its exit note, not again as the person's change.
    if (event.change_id) this.own.add(event.change_id);
    this.taskNotes.push({ text: event.text, wake: event.wake });
  }

  take(): AgentNote[] {
    // The loop takes notes once the step's calls have answered, so their change ids are known by now.
    const others = this.heardChanges.filter((event) => !this.own.has(event.change_id) && event.paths.length > 0);
    this.heardChanges = this.heardChanges.filter((event) => !others.includes(event) && !this.own.has(event.change_id));
    const changes = others.map((event) => ({
      text: `the user changed ${named(event.paths)} (${event.tool}) while you worked; read ${event.paths.length === 1 ? 'it' : 'them'} again before changing ${event.paths.length === 1 ? 'it' : 'them'}`,
      wake: false,
    }));
    return [...changes, ...this.taskNotes.take()];
  }

  running(): number {
    return [...this.started].filter((id) => !this.ended.has(id)).length;
  }

  wakeWaiting(): boolean {
    return this.taskNotes.wakeWaiting();
  }

  whenWoken(signal: AbortSignal): Promise<void> {
    return this.taskNotes.whenWoken(signal);
  }
}
