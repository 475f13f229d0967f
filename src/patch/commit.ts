import type { ChangedFile, ChangeSummary } from '../workspace/change-log.js';
import type { ToolContext } from '../workspace/context.js';
import { PartialChangeError, type FileStep } from '../workspace/file-writer.js';
import { fileSha256 } from '../workspace/sha-cache.js';
import type { PatchPlan, PlannedFile } from './plan.js';
import { tool, ToolError, words } from '../contract/index.js';

/** The bytes a planned file ends with, encoded as the file was (encoding, BOM). */
export function finalBytes(ctx: ToolContext, file: PlannedFile): Uint8Array {
  const after = file.after!;
  return after.bytes ?? ctx.encode(file.path, after.text ?? '', after.encoding, after.bom);
}

/** True when the plan changes what the file holds on storage. */
export function changesStorage(file: PlannedFile, bytes: Uint8Array | null): boolean {
  if (!file.before || !bytes) return file.before !== null || bytes !== null;
  const old = file.before.bytes;
  if (old.length !== bytes.length) return true;
  for (let i = 0; i < old.length; i++) if (old[i] !== bytes[i]) return true;
  return false;
}

/**
 * Carry out a checked plan through the one write path, all or nothing: removals first (a file may
 * give way to a folder), then writes. The plan already holds every file's old bytes, so the
 * rollback reads nothing, and the written bytes go to the next snapshot as they are, so it does
 * not read them back either. If any step fails the workspace is as it was and the failure keeps its code.
 */
export async function commitPlan(
  ctx: ToolContext,
  plan: PatchPlan,
  encoded: Map<string, Uint8Array>,
  changed: ChangedFile[],
): Promise<ChangeSummary> {
  const steps: FileStep[] = [];
  for (const [rel, file] of plan.files)
    if (!file.after && file.before) steps.push({ kind: 'remove', rel, before: file.before.bytes });
  for (const [rel, bytes] of encoded)
    steps.push({ kind: 'write', rel, bytes, before: plan.files.get(rel)!.before?.bytes ?? null });
  // The new bytes are final, so they are hashed (off the main thread where WebCrypto does it) while
  // they are written, all at once: one after another, each file waited a round trip of its own.
  const hashes = Promise.all(
    [...encoded].map(
      async ([rel, bytes]) => [rel, await fileSha256(ctx.fs, ctx.paths.toAbs(rel), bytes, { owned: true })] as const,
    ),
  );
  let summary: ChangeSummary;
  try {
    summary = (await ctx.applySteps(steps, changed))!;
  } catch (error) {
    hashes.catch(() => {});
    if (error instanceof PartialChangeError) {
      throw new ToolError(
        'IO_ERROR',
        words`${error.cause.wordsOf('message')}; rolling the patch back also failed for ${error.failedUndos} step(s), so the workspace may be partly changed`,
        {
          hint: words`Check the files the patch names with ${tool('read_file')} before retrying.`,
        },
      );
    }
    const cause = error as ToolError;
    throw new ToolError(cause.code, words`${cause.wordsOf('message')}; the patch was rolled back and nothing changed`, {
      hint: cause.wordsOf('hint') ?? 'Retry once; if it fails again, the storage is unhealthy.',
    });
  }
  for (const [rel, file] of plan.files) {
    if (!file.after && file.before) ctx.ledger.forget(rel);
  }
  for (const [rel, sha256] of await hashes) ctx.ledger.recordWrite(rel, sha256);
  return summary;
}
