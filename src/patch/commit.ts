import { sha256Hex } from '../text/hash.js';
import type { ToolContext } from '../workspace/context.js';
import { ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import { displayPath } from '../workspace/paths.js';
import type { PatchPlan, PlannedFile } from './plan.js';

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
 * Carry out a checked plan: removals first (a file may give way to a folder), then writes.
 * Every step pushes its undo; if any step fails the undos run in reverse, so the workspace is
 * as it was, and the failure is reported with its code.
 */
export async function commitPlan(ctx: ToolContext, plan: PatchPlan, encoded: Map<string, Uint8Array>): Promise<void> {
  const undo: Array<() => Promise<void>> = [];
  let current = '';
  try {
    for (const [rel, file] of plan.files) {
      if (file.after || !file.before) continue;
      current = displayPath(file.path.rel);
      const original = file.before.bytes;
      await ctx.fs.unlink(file.path.abs);
      undo.push(() => ctx.fs.writeFile(ctx.paths.toAbs(rel), original));
    }
    for (const [rel, bytes] of encoded) {
      const file = plan.files.get(rel)!;
      current = displayPath(file.path.rel);
      const created = await ctx.makeParents(rel);
      undo.push(() => ctx.removeCreated(created));
      await ctx.fs.writeFile(file.path.abs, bytes);
      const original = file.before?.bytes;
      undo.push(original ? () => ctx.fs.writeFile(file.path.abs, original) : () => ctx.fs.unlink(file.path.abs));
    }
  } catch (error) {
    const failed = await rollBack(undo);
    const cause = toToolError(error, current);
    if (failed > 0) {
      throw new ToolError('IO_ERROR', `${cause.message}; rolling the patch back also failed for ${failed} step(s), so the workspace may be partly changed`, {
        hint: 'Check the files the patch names with read_file before retrying.',
      });
    }
    throw new ToolError(cause.code, `${cause.message}; the patch was rolled back and nothing changed`, {
      hint: cause.hint ?? 'Retry once; if it fails again, the storage is unhealthy.',
    });
  }
  for (const [rel, file] of plan.files) {
    if (!file.after && file.before) ctx.ledger.forget(rel);
  }
  const hashes = await Promise.all([...encoded].map(async ([rel, bytes]) => [rel, await sha256Hex(bytes)] as const));
  for (const [rel, sha] of hashes) ctx.ledger.recordWrite(rel, sha);
}

async function rollBack(undo: Array<() => Promise<void>>): Promise<number> {
  let failed = 0;
  for (const step of undo.reverse()) {
    try { await step(); } catch { failed++; }
  }
  return failed;
}
