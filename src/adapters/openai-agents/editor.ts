import type { ApplyPatchOperation, ApplyPatchResult, Editor } from '@openai/agents';
import { operationPatch } from '../../toolsets/native/openai-apply-patch.js';
import { errorText, type ToolHost } from '../shared/tool-host.js';

/**
 * The Agents SDK's `Editor` (for `applyPatchTool`) over a workspace: each operation is one
 * all-or-nothing patch through the workspace's `apply_patch`, so it is confined, lossless,
 * snapshotted and undoable, and deletes go to the workspace's confirm policy. A workspace made
 * with the `openai` toolset takes the operation as is; any other (canonical, cowork) takes it as
 * a one-file `*** Begin Patch` patch. An update's `moveTo` renames the file with its update
 * (`*** Move to:`), in the same one change. A refused operation answers `failed` with the reason.
 */
export function sandpitEditor(workspace: ToolHost): Editor {
  let takesOperation: Promise<boolean> | undefined;
  // The listing is read once, on the first operation: a worker proxy's listing is async.
  const native = () =>
    (takesOperation ??= Promise.resolve(workspace.listTools()).then((tools) => {
      const schema = tools.find((t) => t.name === 'apply_patch')?.input_schema;
      return schema?.properties?.operation !== undefined;
    }));

  async function apply(op: ApplyPatchOperation): Promise<ApplyPatchResult> {
    const operation =
      op.type === 'delete_file'
        ? { type: op.type, path: op.path }
        : {
            type: op.type,
            path: op.path,
            diff: op.diff,
            ...(op.type === 'update_file' && op.moveTo ? { move_to: op.moveTo } : {}),
          };
    let args: unknown;
    try {
      args = (await native()) ? { operation } : { patch: operationPatch(operation) };
    } catch (error) {
      // operationPatch refuses a diff that holds file headers, before anything is written.
      return { status: 'failed', output: error instanceof Error ? error.message : String(error) };
    }
    const envelope = await workspace.call('apply_patch', args);
    if (!envelope.ok) return { status: 'failed', output: errorText(envelope) };
    return { status: 'completed', output: summary(op, envelope.result) };
  }

  return { createFile: apply, updateFile: apply, deleteFile: apply };
}

const VERB = { create_file: 'Created', update_file: 'Updated', delete_file: 'Deleted' } as const;

// The openai toolset's result says it in one line; the canonical one gives counts per file.
function summary(op: ApplyPatchOperation, result: unknown): string {
  const r = result as { output?: unknown; files?: Array<{ path: string; added_lines: number; removed_lines: number }> };
  if (typeof r.output === 'string') return r.output;
  const file = r.files?.[0];
  const counts = file && op.type === 'update_file' ? ` (+${file.added_lines} -${file.removed_lines})` : '';
  const moved = op.type === 'update_file' && op.moveTo ? `${op.path}, moved to ${op.moveTo}` : undefined;
  return `${VERB[op.type]} ${moved ?? file?.path ?? op.path}${counts}`;
}
