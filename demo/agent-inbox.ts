import type { AgentInbox, AgentNote } from '../src/agent/index.js';
import type { ChangeEvent } from '../web/protocol.js';

const named = (paths: string[]) => (paths.length <= 4 ? paths.join(', ') : `${paths.slice(0, 4).join(', ')} and ${paths.length - 4} more`);

/**
 * What an agent run in the playground hears besides its own results: the changes anyone else
 * makes while it runs (the person saving in the editor, deleting in the tree, a git pull), as
 * `[info: ...]` notes at the end of its next request. The browser shell runs no background
 * tasks, so nothing here is ever running and no note wakes a run that has answered.
 */
export class ChangesInbox implements AgentInbox {
  private heardChanges: ChangeEvent[] = [];
  private readonly own = new Set<string>();

  /** A change the page heard of, from anyone. */
  heard(event: ChangeEvent): void {
    this.heardChanges.push(event);
  }

  /** A change the agent's own call made: never a note. */
  ownChange(changeId: string): void {
    this.own.add(changeId);
  }

  take(): AgentNote[] {
    // The loop takes notes once the step's calls have answered, so their change ids are known by now.
    const others = this.heardChanges.filter((event) => !this.own.has(event.change_id) && event.paths.length > 0);
    this.heardChanges = this.heardChanges.filter((event) => !others.includes(event) && !this.own.has(event.change_id));
    return others.map((event) => ({
      text: `the user changed ${named(event.paths)} (${event.tool}) while you worked; read ${event.paths.length === 1 ? 'it' : 'them'} again before changing ${event.paths.length === 1 ? 'it' : 'them'}`,
      wake: false,
    }));
  }

  running(): number {
    return 0;
  }

  wakeWaiting(): boolean {
    return false;
  }

  whenWoken(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}
