import type { ChangedFile } from '../workspace/change-log.js';
import type { ToolContext } from '../workspace/context.js';
import { ToolError } from '../contract/index.js';
import { lexicalPath } from '../workspace/paths.js';
import { confirmOrRefuse } from '../workspace/approval.js';
import { unifiedFileDiff } from '../text/line-diff.js';
import { changesStorage, commitPlan, finalBytes } from './commit.js';
import { parsePatch, type PatchOp } from './parse.js';
import { planPatch, type OpSummary, type PatchPlan } from './plan.js';
import { MAX_PATCH_FILES } from './limits.js';

export { MAX_PATCH_FILES };

export interface PatchOutcome {
  files: OpSummary[];
  change_id: string | null;
  /** only for a dry run: the unified diff of what would change */
  unified_diff?: string;
  dry_run?: true;
}

/**
 * Apply a `*** Begin Patch` patch all or nothing: parse, plan every file in memory, ask the
 * confirm policy once about all deletes, then write, rolling back on any failure. The whole
 * patch is one change in the change log. `exact` turns off the tolerant matching tiers.
 */
export async function applyPatch(
  ctx: ToolContext,
  patch: string,
  options: { dryRun?: boolean; exact?: boolean } = {},
): Promise<PatchOutcome> {
  const ops = parsePatch(patch);
  if (ops.length > MAX_PATCH_FILES) {
    throw new ToolError(
      'TOO_LARGE',
      `the patch has ${ops.length} file sections; one patch holds at most ${MAX_PATCH_FILES}`,
      {
        hint: 'Split it into several patches.',
      },
    );
  }
  return ctx.lock(lockKeys(ctx, ops), async () => {
    const plan = await planPatch(ctx, ops, { exact: options.exact === true });
    const encoded = new Map<string, Uint8Array>();
    for (const [rel, file] of plan.files) {
      if (!file.after) continue;
      const bytes = finalBytes(ctx, file);
      if (changesStorage(file, bytes)) encoded.set(rel, bytes);
    }
    const changed = changedFiles(plan, encoded);
    if (options.dryRun) {
      const diff = changed
        .map((f) => unifiedFileDiff(f.path, text(f.before), text(f.after), f.from ?? f.path))
        .join('');
      return { files: plan.ops, change_id: null, unified_diff: diff, dry_run: true };
    }
    await confirmDeletes(ctx, plan.deletes);
    // The last point where stopping leaves the tree as it was: the commit that follows is all or nothing.
    await ctx.checkpoint();
    ctx.progress(ops.length, ops.length * 2, 'writing');
    if (changed.length === 0) return { files: plan.ops, change_id: null };
    return { files: plan.ops, change_id: (await commitPlan(ctx, plan, encoded, changed)).id };
  });
}

/** Every path the patch names, so concurrent calls on them queue behind it. */
function lockKeys(ctx: ToolContext, ops: PatchOp[]): string[] {
  const keys: string[] = [];
  for (const op of ops) {
    for (const p of op.kind === 'update' && op.moveTo !== null ? [op.path, op.moveTo] : [op.path]) {
      try {
        keys.push(lexicalPath(p, ctx.cwd));
      } catch {
        // the plan reports a bad path with its patch line
      }
    }
  }
  return keys;
}

// A patch's deletes are asked about together, after the preflight; alwaysConfirmDeletes makes an approver mandatory.
async function confirmDeletes(ctx: ToolContext, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  await confirmOrRefuse(ctx, [...paths], 'delete', {
    required: ctx.policy.alwaysConfirmDeletes,
    refusedHint:
      'Nothing in the patch was applied. Ask the user, or send the patch again without the Delete File sections.',
  });
}

/** The change log's view: per path, before and after text; a move whose target was free is one entry. */
function changedFiles(plan: PatchPlan, encoded: Map<string, Uint8Array>): ChangedFile[] {
  const out: ChangedFile[] = [];
  const merged = new Set<string>();
  for (const { from, to } of plan.moves) {
    const source = plan.files.get(from)!;
    const target = plan.files.get(to)!;
    if (merged.has(from) || merged.has(to) || source.after || !source.before || target.before || !target.after)
      continue;
    merged.add(from).add(to);
    out.push({ path: to, from, before: source.before.text, after: target.after.text });
  }
  for (const [rel, file] of plan.files) {
    if (merged.has(rel)) continue;
    const removed = !file.after && file.before;
    if (!removed && !encoded.has(rel)) continue;
    out.push({ path: rel, before: file.before ? file.before.text : null, after: file.after ? file.after.text : null });
  }
  return out;
}

function text(value: string | null | undefined): string | null {
  return value === undefined ? '' : value;
}
