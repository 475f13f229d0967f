import { decodeText, isDecodeFailure, type TextEncodingName } from '../text/codec.js';
import { fileSha256 } from '../workspace/sha-cache.js';
import { countLines } from '../text/lines.js';
import type { ToolContext } from '../workspace/context.js';
import { toToolError } from '../fs/tool-error.js';
import { lstatOrNull } from '../fs/helpers.js';
import { displayPath, parentRel, type WorkspacePath } from '../workspace/paths.js';
import type { PatchOp } from './parse.js';
import { applyChunks } from './rewrite.js';
import { documentKind } from '../text/document-types.js';
import { PASSAGES, ToolError, words } from '../contract/index.js';

/** What a file holds at one moment of the plan. */
export interface Content {
  text: string | undefined;
  encoding: TextEncodingName;
  bom: boolean;
  /** the exact bytes, when known (unchanged since read); otherwise `text` is encoded */
  bytes?: Uint8Array;
}

/** One path the patch touches: what it held before, and what it will hold. */
export interface PlannedFile {
  path: WorkspacePath;
  before: (Content & { bytes: Uint8Array; sha256: string }) | null;
  after: Content | null;
  /** the policy checks (read-before-write, staleness) already ran */
  checked: boolean;
}

/** One entry of the tool's result, per file operation in patch order. */
export interface OpSummary {
  path: string;
  action: 'add' | 'update' | 'delete' | 'move';
  moved_to: string | null;
  added_lines: number;
  removed_lines: number;
}

export interface PatchPlan {
  /** by real root-relative path, in the order first touched */
  files: Map<string, PlannedFile>;
  ops: OpSummary[];
  /** display paths of the files the patch deletes, for the confirm policy */
  deletes: string[];
  /** moves (real paths), so the change log can show them as moves */
  moves: Array<{ from: string; to: string }>;
}

/** Stands for the hash of a file no earlier read recorded: the policy checks never compare it. */
const NOT_HASHED = 'not-hashed';

/**
 * The preflight: resolve every path, read every file and apply every operation in memory, in
 * patch order. Nothing is written; any failure is thrown before the first write. With `exact`
 * chunks match only line for line (seed 004's surface); otherwise whitespace and punctuation are tolerated.
 */
export async function planPatch(
  ctx: ToolContext,
  ops: PatchOp[],
  options: { exact?: boolean } = {},
): Promise<PatchPlan> {
  const plan: PatchPlan = { files: new Map(), ops: [], deletes: [], moves: [] };
  for (const [index, op] of ops.entries()) {
    // Planning writes nothing, so a cancelled call stops here with the workspace untouched.
    await ctx.checkpoint();
    ctx.progress(index, ops.length * 2, `planning ${op.path.slice(0, 200)}`);
    const file = await touch(ctx, plan, op.path, op.patchLine, op.kind === 'update' ? 'text' : 'bytes');
    const shown = displayPath(file.path.rel);
    if (op.kind === 'add') {
      if (file.after) {
        throw new ToolError(
          'PATCH_CONFLICT',
          `patch line ${op.patchLine}: '${shown}' already exists, so it cannot be added`,
          {
            hint: `Use '*** Update File: ${shown}' to change it, or '*** Delete File: ${shown}' before adding it anew.`,
            details: { path: shown, patch_line: op.patchLine },
          },
        );
      }
      await checkParents(ctx, plan, file.path.rel, op.patchLine);
      const text = op.lines.map((l) => `${l}\n`).join('');
      file.after = { text, encoding: 'utf-8', bom: false };
      plan.ops.push({ path: shown, action: 'add', moved_to: null, added_lines: op.lines.length, removed_lines: 0 });
    } else if (op.kind === 'delete') {
      const current = requireFile(file, op.patchLine, 'delete');
      if (!file.checked && file.before) checkStale(ctx, file);
      plan.deletes.push(shown);
      file.after = null;
      plan.ops.push({
        path: shown,
        action: 'delete',
        moved_to: null,
        added_lines: 0,
        removed_lines: current.text === undefined ? 0 : countLines(current.text),
      });
    } else {
      const current = requireFile(file, op.patchLine, 'update');
      if (current.text === undefined)
        await ctx.readText(file.path).catch((error) => {
          throw atLine(error, op.patchLine);
        });
      if (!file.checked && file.before) ctx.checkWritable(file.path, file.before.sha256);
      file.checked = true;
      const result = op.chunks.length > 0 ? applyChunks(current.text!, op.chunks, shown, options) : null;
      const next: Content =
        result && result.text !== current.text ? { ...current, text: result.text, bytes: undefined } : current;
      let target = file;
      if (op.moveTo !== null) {
        target = await touch(ctx, plan, op.moveTo, op.patchLine, 'bytes');
        if (target !== file) {
          if (target.after && !target.checked && target.before) ctx.checkWritable(target.path, target.before.sha256);
          target.checked = true;
          await checkParents(ctx, plan, target.path.rel, op.patchLine);
          file.after = null;
          plan.moves.push({ from: file.path.realRel, to: target.path.realRel });
        }
      }
      target.after = next;
      plan.ops.push({
        path: shown,
        action: target !== file ? 'move' : 'update',
        moved_to: op.moveTo === null ? null : displayPath(target.path.rel),
        added_lines: result?.added_lines ?? 0,
        removed_lines: result?.removed_lines ?? 0,
      });
    }
  }
  return plan;
}

/**
 * The planned state of a path, loading what it holds on first use: strictly decoded text for a
 * file the patch updates (every refusal coded), the raw bytes otherwise (kept for the rollback).
 */
async function touch(
  ctx: ToolContext,
  plan: PatchPlan,
  input: string,
  patchLine: number,
  need: 'text' | 'bytes',
): Promise<PlannedFile> {
  const path = await ctx.resolve(input, 'write').catch((error) => {
    throw atLine(error, patchLine);
  });
  const known = plan.files.get(path.realRel);
  if (known) return known;
  const shown = displayPath(path.rel);
  const kind = documentKind(path.realRel);
  if (kind) {
    throw new ToolError(
      'UNSUPPORTED_FILE_TYPE',
      `patch line ${patchLine}: '${shown}' is a ${kind} document, not plain text`,
      {
        hint: 'apply_patch changes plain-text files only; use a document tool for Office and PDF files.',
        details: { path: shown, patch_line: patchLine },
      },
    );
  }
  let before: PlannedFile['before'] = null;
  if (path.stat?.type === 'dir') {
    throw new ToolError('PATCH_CONFLICT', `patch line ${patchLine}: '${shown}' is a directory, not a file`, {
      details: { path: shown, patch_line: patchLine },
    });
  }
  if (path.stat) {
    const bytes = await ctx.fs.readFile(path.abs).catch((error) => {
      throw atLine(toToolError(error, shown), patchLine);
    });
    const decoded = decodeText(bytes);
    const refused = isDecodeFailure(decoded) || bytes.length > ctx.policy.limits.maxReadBytes;
    if (need === 'text' && refused) {
      // readText words every refusal (binary, undecodable, too large) the way all text tools do
      await ctx.readText(path).catch((error) => {
        throw atLine(error, patchLine);
      });
    }
    const ok = !isDecodeFailure(decoded);
    // Hashing costs more than the patch itself; only a file the agent read has a hash to compare with.
    const sha256 = ctx.ledger.get(path.realRel) ? await fileSha256(ctx.fs, path.abs, bytes) : NOT_HASHED;
    before = {
      text: ok ? decoded.text : undefined,
      encoding: ok ? decoded.encoding : 'utf-8',
      bom: ok && decoded.bom,
      bytes,
      sha256,
    };
  }
  const file: PlannedFile = { path, before, after: before, checked: false };
  plan.files.set(path.realRel, file);
  return file;
}

function requireFile(file: PlannedFile, patchLine: number, verb: string): Content {
  if (file.after) return file.after;
  const shown = displayPath(file.path.rel);
  const gone = file.before !== null;
  throw new ToolError(
    'PATCH_CONFLICT',
    `patch line ${patchLine}: cannot ${verb} '${shown}': ${gone ? 'an earlier part of this patch removes it' : 'it does not exist'}`,
    {
      hint: gone
        ? 'Each file can be removed or moved away once per patch.'
        : words`Check the path with ${PASSAGES.listOrGlob}; to create it use '*** Add File: ${shown}'.`,
      details: { path: shown, patch_line: patchLine },
    },
  );
}

/** A file read earlier and changed since must not be deleted on the strength of that read. */
function checkStale(ctx: ToolContext, file: PlannedFile): void {
  const seen = ctx.ledger.get(file.path.realRel);
  if (ctx.policy.staleCheck && seen && seen.sha256 !== file.before!.sha256) {
    throw new ToolError('STALE_FILE', `'${displayPath(file.path.rel)}' changed since you last read it`, {
      hint: 'Read it again, then send the patch against its current content.',
    });
  }
  file.checked = true;
}

/** A new file needs folders above it: refuse when a file stands where a folder must go. */
async function checkParents(ctx: ToolContext, plan: PatchPlan, rel: string, patchLine: number): Promise<void> {
  for (let dir = parentRel(rel); dir !== ''; dir = parentRel(dir)) {
    const planned = plan.files.get(dir);
    if (planned && !planned.after) continue;
    const stat = planned ? { type: 'file' } : await lstatOrNull(ctx.fs, ctx.paths.toAbs(dir));
    if (stat && stat.type !== 'dir') {
      throw new ToolError('PATCH_CONFLICT', `patch line ${patchLine}: '${dir}' is a file, so it cannot hold '${rel}'`, {
        details: { path: rel, patch_line: patchLine },
      });
    }
    if (stat) return;
  }
}

function atLine(error: unknown, patchLine: number): unknown {
  if (!(error instanceof ToolError)) return error;
  return new ToolError(error.code, words`patch line ${patchLine}: ${error.wordsOf('message')}`, {
    hint: error.wordsOf('hint'),
    details: { ...error.details, patch_line: patchLine },
  });
}
