import { ToolError, type Envelope, type Problem } from './contract/index.js';
import { toToolError } from './fs/tool-error.js';
import type { ToolDefinition } from './tools/schema/define.js';
import { rejectHunksTool } from './tools/review/reject-hunks.js';
import type { ChangeLog } from './workspace/change-log.js';
import type { CallOptions } from './workspace/context.js';
import { hunksOfFile, type Hunk, type HunkSource, type HunkStatus } from './workspace/review/hunks.js';
import type { ReviewNotes } from './workspace/review/notes.js';

/** Which hunks `review.hunks` lists (all kept changes' hunks when empty). */
export interface HunkFilter {
  /** only this change's */
  change_id?: string;
  /** only this file's */
  path?: string;
  /** only hunks in this state */
  status?: HunkStatus;
}

/** Who reviews: the actor the revert change and the blame of its lines carry (default `reviewer`). */
export interface ReviewOptions {
  /** who gives the verdict (the revert's actor; `reviewer` when not named) */
  actor?: string;
}

/** A hunk `review.reject` took out, and where its lines were. */
export interface RejectedHunk {
  /** the hunk's id */
  id: string;
  /** its file */
  path: string;
  /** the change it belonged to */
  change_id: string;
  /** its first line in the file before the revert (1-based) */
  start_line: number;
  /** its last line in the file before the revert */
  end_line: number;
}

/** What `review.reject` answers: the revert's change and where each rejected hunk was. */
export interface RejectResult {
  /** the new change that took the hunks out */
  change_id: string;
  /** the files it rewrote */
  files: string[];
  /** the hunks, with the lines they had filled */
  rejected: RejectedHunk[];
}

/** What the review desk needs from its workspace. */
export interface ReviewDeps {
  changes: ChangeLog;
  notes: ReviewNotes;
  run: <A, R>(tool: ToolDefinition<A, R>, args: A, options?: CallOptions) => Promise<R>;
  /** the verdicts by hunk id, when the host keeps them (a persisted change log) */
  verdicts?: Map<string, { status: HunkStatus; reason?: string }>;
  /** told after every verdict, with the verdicts just given */
  onVerdict?: (decided: Array<[string, { status: Exclude<HunkStatus, 'pending'>; reason?: string }]>) => void;
}

const lines = (h: Hunk) =>
  h.new_lines === 0
    ? `after line ${h.new_start - 1}`
    : h.new_lines === 1
      ? `line ${h.new_start}`
      : `lines ${h.new_start}-${h.new_start + h.new_lines - 1}`;

/** Review by hunk over a workspace's change log: list, accept, and reject (revert) hunks. */
export class ReviewDesk {
  private readonly cache = new Map<string, HunkSource[]>();
  private readonly verdicts: Map<string, { status: HunkStatus; reason?: string }>;

  constructor(private readonly deps: ReviewDeps) {
    this.verdicts = deps.verdicts ?? new Map();
  }

  /** Every kept change's hunks, oldest change first; a hunk id two changes share belongs to the newer one. */
  private sources(): Map<string, HunkSource> {
    const byId = new Map<string, HunkSource>();
    for (const change of this.deps.changes.list()) {
      let found = this.cache.get(change.id);
      if (!found) {
        const files = this.deps.changes.filesOf(change.id) ?? [];
        found = files.flatMap((f) => hunksOfFile(change.id, f));
        this.cache.set(change.id, found);
      }
      for (const source of found) byId.delete(source.hunk.id), byId.set(source.hunk.id, source);
    }
    return byId;
  }

  private view(source: HunkSource): Hunk {
    const verdict = this.verdicts.get(source.hunk.id);
    return {
      ...source.hunk,
      status: verdict?.status ?? 'pending',
      ...(verdict?.reason !== undefined ? { reason: verdict.reason } : {}),
    };
  }

  hunks(filter: HunkFilter = {}): { hunks: Hunk[] } {
    const all = [...this.sources().values()].map((s) => this.view(s));
    return {
      hunks: all.filter(
        (h) =>
          (filter.change_id === undefined || h.change_id === filter.change_id) &&
          (filter.path === undefined || h.path === filter.path) &&
          (filter.status === undefined || h.status === filter.status),
      ),
    };
  }

  /** The hunks these ids name, refusing unknown ids and (with `open`) hunks already decided. */
  private pick(ids: unknown, verb: string): HunkSource[] {
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string'))
      throw new ToolError('INVALID_ARGUMENTS', `${verb} takes a non-empty array of hunk ids`, {
        problems: [{ path: '/ids', message: 'must be a non-empty array of strings' }],
      });
    const all = this.sources();
    const problems: Problem[] = [];
    const picked: HunkSource[] = [];
    for (const id of new Set(ids as string[])) {
      const source = all.get(id);
      if (!source) problems.push({ path: id, message: 'no kept change has this hunk' });
      else if (this.verdicts.get(id)?.status === 'rejected') problems.push({ path: id, message: 'already rejected' });
      else picked.push(source);
    }
    if (problems.some((p) => p.message !== 'already rejected'))
      throw new ToolError('NOT_FOUND', `${problems.length} of the hunk ids are not in the change log`, {
        hint: 'List the hunks with review.hunks(); a change dropped from the log (the oldest past its limit) cannot be reviewed.',
        problems,
      });
    if (problems.length)
      throw new ToolError('PATCH_CONFLICT', `${problems.length} of the hunks were already rejected`, {
        hint: 'Nothing changed. A rejected hunk is already out of its file.',
        problems,
      });
    return picked;
  }

  accept(ids: unknown): { accepted: string[] } {
    const picked = this.pick(ids, 'accept');
    for (const source of picked) this.verdicts.set(source.hunk.id, { status: 'accepted' });
    this.deps.onVerdict?.(picked.map((s) => [s.hunk.id, { status: 'accepted' }]));
    return { accepted: picked.map((s) => s.hunk.id) };
  }

  async reject(ids: unknown, reason: unknown, options: ReviewOptions = {}): Promise<RejectResult> {
    if (typeof reason !== 'string')
      throw new ToolError('INVALID_ARGUMENTS', 'reject takes the reason as a string (it is told to the agent)', {
        problems: [{ path: '/reason', message: 'must be string' }],
      });
    const picked = this.pick(ids, 'reject');
    const out = await this.deps.run(rejectHunksTool(picked), {}, { actor: options.actor ?? 'reviewer' });
    const rejected = picked.map((s) => {
      this.verdicts.set(s.hunk.id, { status: 'rejected', reason });
      const h = s.hunk;
      return {
        id: h.id,
        path: h.path,
        change_id: h.change_id,
        start_line: h.new_start,
        end_line: h.new_start + h.new_lines - 1,
      };
    });
    this.deps.onVerdict?.(picked.map((s) => [s.hunk.id, { status: 'rejected', reason }]));
    const where = picked.map((s) => `${s.hunk.path} ${lines(this.view(s))} (${s.hunk.change_id})`).join(', ');
    const why = reason.trim() === '' ? 'no reason given' : `reason: "${reason.trim().slice(0, 2000)}"`;
    this.deps.notes.push({
      text: `review: a person rejected your change to ${where} and it was reverted (change ${out.change_id}); ${why}. Read the file again before changing it.`,
      wake: false,
    });
    return { change_id: out.change_id, files: out.files, rejected };
  }
}

/** Run a review verb as an envelope under `tool`: never throws. */
export async function reviewEnvelope<R>(tool: string, work: () => R | Promise<R>): Promise<Envelope<R>> {
  try {
    return { ok: true, tool, result: await work() };
  } catch (error) {
    return { ok: false, tool, error: toToolError(error).toJSON() };
  }
}
