import type { ChangeEvent, LineAuthor } from '../change-log.js';
import { countLines } from '../../text/lines.js';
import { regionsBetween } from '../review/line-regions.js';
import { applyRegions, fill, rangesOf, UNKNOWN, type Runs } from './runs.js';

/** Who last wrote a range of lines: the change, its tool, and the actor and tool call when the call named them. */
export interface BlameRange {
  /** first line, 1-based */
  start_line: number;
  /** last line, inclusive */
  end_line: number;
  /** the change that wrote these lines; null when no change the workspace recorded did */
  change_id: string | null;
  /** the tool of that change */
  tool: string | null;
  /** who made it, when the call said */
  actor: string | null;
  /** the tool call's id, when the call said */
  call_id: string | null;
  /**
   * Present for lines a merge brought from a fork: the fork whose change log holds `change_id`
   * (its id; for a fork of a fork merged into it, the ids joined by `/`).
   */
  fork?: string;
}

interface Origin {
  change_id: string;
  tool: string;
  actor: string | null;
  call_id: string | null;
  fork?: string;
}

/** A file's last known text and who wrote each of its lines. */
interface FileState {
  text: string;
  runs: Runs;
}

/** How many earlier states of one path are kept for undo to return to. */
const HISTORY = 64;
/** Changes that put back an earlier state: they give lines back their earlier authors. */
const RESTORING = new Set(['undo', 'restore_snapshot']);

/**
 * Line attribution kept up to date with each recorded change, so `blame` never walks history:
 * per path, the last known text and run-length encoded origins; per change, one origin entry.
 * A change whose text the log did not keep (a program's write) is read from the file once.
 */
export class BlameTracker {
  private readonly origins: Origin[] = [];
  private readonly files = new Map<string, FileState>();
  private readonly past = new Map<string, FileState[]>();
  private queue: Promise<void> = Promise.resolve();

  /** @param read - a file's text now: null when it is gone, undefined when it is not text */
  constructor(private readonly read: (rel: string) => Promise<string | null | undefined>) {}

  /** Take a recorded change into account (in order, after the ones before it). */
  feed(event: ChangeEvent): void {
    this.queue = this.queue.then(() => this.apply(event)).catch(() => {});
  }

  /** Resolves once every change fed so far is taken into account. */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Who wrote each line of `text`, the file's content now; lines changed behind the log's back are unknown. */
  async blame(rel: string, text: string): Promise<BlameRange[]> {
    await this.idle();
    const state = this.reconcile(this.files.get(rel), text);
    this.files.set(rel, state);
    return this.rangesOf(state.runs);
  }

  /** As `blame`, keeping nothing: what a merge asks of its fork about the text it merges. */
  async peek(rel: string, text: string): Promise<BlameRange[]> {
    await this.idle();
    return this.rangesOf(this.reconcile(this.files.get(rel), text).runs);
  }

  private rangesOf(runs: Runs): BlameRange[] {
    return rangesOf(runs).map((r) => {
      const origin = r.origin === UNKNOWN ? null : this.origins[r.origin]!;
      return {
        start_line: r.start,
        end_line: r.end,
        change_id: origin?.change_id ?? null,
        tool: origin?.tool ?? null,
        actor: origin?.actor ?? null,
        call_id: origin?.call_id ?? null,
        ...(origin?.fork !== undefined ? { fork: origin.fork } : {}),
      };
    });
  }

  /** How many numbers the attribution of every path holds now (for the benchmark's memory figure). */
  size(): number {
    let n = 0;
    for (const state of this.files.values()) n += state.runs.length;
    return n;
  }

  private async apply(event: ChangeEvent): Promise<void> {
    const origin =
      this.origins.push({
        change_id: event.change_id,
        tool: event.tool,
        actor: event.actor ?? null,
        call_id: event.call_id ?? null,
      }) - 1;
    for (const file of event.files) {
      if (file.from !== undefined && file.from !== file.path) this.move(file.from, file.path);
      let after = file.after;
      if (after === undefined) after = await this.read(file.path).catch(() => undefined);
      const known = this.files.get(file.path);
      const before = file.before === undefined ? known?.text : file.before;
      if (after === undefined || after === null) {
        this.retire(file.path);
        continue;
      }
      const base = before === null || before === undefined ? { text: '', runs: [] } : this.reconcile(known, before);
      const earlier = RESTORING.has(event.tool) ? this.pastState(file.path, after) : undefined;
      let runs = earlier ?? applyRegions(base.runs, regionsBetween(base.text, after), origin);
      if (!earlier && file.authors?.length) runs = this.lay(runs, file.authors, origin);
      this.retire(file.path);
      this.files.set(file.path, { text: after, runs });
    }
  }

  /**
   * Give the lines a change wrote that came from elsewhere (a fork's, for a merge) their own
   * authors; lines the change did not write keep theirs.
   */
  private lay(runs: Runs, authors: readonly LineAuthor[], change: number): Runs {
    const lines: number[] = [];
    for (const r of rangesOf(runs)) for (let l = r.start; l <= r.end; l++) lines.push(r.origin);
    const ids = new Map<string, number>();
    for (const a of authors) {
      const key = JSON.stringify([a.change_id, a.tool, a.actor, a.call_id, a.fork]);
      let origin = ids.get(key);
      if (origin === undefined) {
        origin =
          this.origins.push({
            change_id: a.change_id,
            tool: a.tool,
            actor: a.actor,
            call_id: a.call_id,
            fork: a.fork,
          }) - 1;
        ids.set(key, origin);
      }
      for (let l = Math.max(1, a.start_line); l <= Math.min(a.end_line, lines.length); l++)
        if (lines[l - 1] === change) lines[l - 1] = origin;
    }
    const out: Runs = [];
    for (const origin of lines) {
      if (out.length > 0 && out[out.length - 1] === origin) out[out.length - 2]! += 1;
      else out.push(1, origin);
    }
    return out;
  }

  /** The state as the file holds `text`: lines that differ from the known text are unknown. */
  private reconcile(known: FileState | undefined, text: string): FileState {
    if (!known) return { text, runs: fill(countLines(text), UNKNOWN) };
    if (known.text === text) return known;
    return { text, runs: applyRegions(known.runs, regionsBetween(known.text, text), UNKNOWN) };
  }

  /** Move the current state into the path's past, where an undo can find it. */
  private retire(rel: string): void {
    const state = this.files.get(rel);
    if (!state) return;
    this.files.delete(rel);
    const list = this.past.get(rel) ?? [];
    list.push(state);
    if (list.length > HISTORY) list.shift();
    this.past.set(rel, list);
  }

  private pastState(rel: string, text: string): Runs | undefined {
    const list = this.past.get(rel) ?? [];
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.text === text) return list[i]!.runs;
    return undefined;
  }

  private move(from: string, to: string): void {
    const state = this.files.get(from);
    if (!state) return;
    this.files.delete(from);
    this.files.set(to, state);
  }
}
