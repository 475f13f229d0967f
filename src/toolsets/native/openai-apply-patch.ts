import { s, ToolError, type Envelope } from '../../contract/index.js';
import { defineTool, DESTRUCTIVE } from '../../tools/schema/define.js';
import type { PatchOutcome } from '../../patch/apply.js';

/** The operation of a Responses API `apply_patch_call`, as the model emits it. */
export interface ApplyPatchOperation {
  /** `create_file` (diff: the new file's lines, each starting '+'), `update_file` (diff: V4A chunks), `delete_file` */
  type: 'create_file' | 'update_file' | 'delete_file';
  /** the file, relative to the workspace root */
  path: string;
  /** the V4A diff (absent for delete_file) */
  diff?: string;
  /** update_file: where the file moves with its update (the Agents SDK's `moveTo`; the Responses API sends none) */
  move_to?: string;
}

const operationSchema = s.object({
  type: s.enum(['create_file', 'update_file', 'delete_file']),
  path: s.string({ minLength: 1, description: 'The file, relative to the workspace root.' }),
  diff: s.optional(
    s.string({
      description:
        "create_file: the new file's lines, each starting '+'. update_file: V4A chunks ('@@' lines, then ' ', '-' and '+' lines; '*** End of File' pins a chunk to the end).",
    }),
  ),
  move_to: s.optional(
    s.string({ minLength: 1, description: 'update_file only: the path the file moves to, with its update.' }),
  ),
});

// Only these markers may appear inside one operation's diff: any other '*** ' line would open a second file section.
const ALLOWED_MARKER = /^\*\*\* End of File\s*$/;
const WRAPPER_LINES = 2;

/** The one-file `*** Begin Patch` patch that does what an apply_patch_call operation asks. */
export function operationPatch(op: ApplyPatchOperation): string {
  if (op.type === 'delete_file') return `*** Begin Patch\n*** Delete File: ${op.path}\n*** End Patch\n`;
  const diff = op.diff ?? '';
  // An empty new file comes as an empty diff (or only a line end).
  const lines = diff.trim() === '' ? [] : diff.replace(/\r\n?/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('***') && !ALLOWED_MARKER.test(line))
      throw new ToolError('PATCH_PARSE_ERROR', `diff line ${i + 1}: '${line.slice(0, 60)}' is not part of a V4A diff`, {
        hint: 'One apply_patch_call changes one file: send the diff of this file only, without *** file headers.',
        details: { diff_line: i + 1 },
      });
    if (op.type === 'create_file' && !line.startsWith('+'))
      throw new ToolError('PATCH_PARSE_ERROR', `diff line ${i + 1}: a new file's lines must each start with '+'`, {
        hint: "Send create_file's diff as the file's lines, each prefixed with '+'.",
        details: { diff_line: i + 1 },
      });
  }
  const header = op.type === 'create_file' ? '*** Add File:' : '*** Update File:';
  const move = op.type === 'update_file' && op.move_to ? `*** Move to: ${op.move_to}\n` : '';
  return `*** Begin Patch\n${header} ${op.path}\n${move}${lines.join('\n')}${lines.length ? '\n' : ''}*** End Patch\n`;
}

// The engine counts lines of the wrapped patch; the model wrote only the diff.
function inDiffLines(error: unknown, wrapper: number): unknown {
  if (!(error instanceof ToolError) || !/^patch line \d+/.test(error.message)) return error;
  const [first, ...rest] = error.wordsOf('message')!.parts;
  const lead = (first as string).replace(/^patch line (\d+)/, (_, n: string) => `diff line ${Number(n) - wrapper}`);
  return new ToolError(
    error.code,
    { parts: [lead, ...rest] },
    {
      hint: "Check the V4A diff: '@@' lines, then lines starting ' ' (context), '-' (remove) or '+' (add).",
    },
  );
}

const VERB = { create_file: 'Created', update_file: 'Updated', delete_file: 'Deleted' } as const;

/**
 * OpenAI's built-in apply_patch (Responses API `{ type: 'apply_patch' }`): one `apply_patch_call`
 * operation applied exactly, all or nothing, through the canonical patch engine, so it is
 * confined, lossless, snapshotted and undoable, and its deletes go to the confirm policy.
 */
export const openaiApplyPatch = defineTool({
  name: 'apply_patch',
  title: 'Apply patch (OpenAI)',
  description:
    'Create, update or delete one file: operation.type create_file (diff: the lines, each starting +), update_file (diff: V4A chunks) or delete_file. ' +
    'Context lines must match the file; a failed patch changes nothing.',
  mutates: true,
  annotations: DESTRUCTIVE,
  schema: s.object({ operation: operationSchema }),
  resultSchema: s.object({
    status: s.enum(['completed']),
    output: s.string(),
    change_id: s.nullable(s.string()),
  }),
  async run(args, ctx) {
    const op = args.operation as ApplyPatchOperation;
    if (op.move_to !== undefined && op.type !== 'update_file')
      throw new ToolError('INVALID_ARGUMENTS', `move_to goes with update_file, not ${op.type}`, {
        problems: [{ path: '/operation/move_to', message: 'only for update_file' }],
      });
    if (op.type !== 'delete_file' && op.diff === undefined)
      throw new ToolError('INVALID_ARGUMENTS', `${op.type} needs a diff`, {
        problems: [{ path: '/operation/diff', message: 'is required' }],
      });
    const { applyPatch } = await import('../../patch/apply.js');
    let outcome: PatchOutcome;
    try {
      outcome = await applyPatch(ctx, operationPatch(op), { exact: false });
    } catch (error) {
      throw inDiffLines(error, WRAPPER_LINES + (op.move_to ? 1 : 0));
    }
    const file = outcome.files[0];
    const counts = file && op.type === 'update_file' ? ` (+${file.added_lines} -${file.removed_lines})` : '';
    return {
      status: 'completed' as const,
      output: `${VERB[op.type]} ${op.move_to ? `${op.path}, moved to ${op.move_to}` : (file?.path ?? op.path)}${counts}`,
      change_id: outcome.change_id,
    };
  },
  present: presentApplyPatch,
});

/** An apply_patch call's answer as the Responses API's `apply_patch_call_output` item carries it. */
export type ApplyPatchCallOutput = {
  /** whether the operation was applied */
  status: 'completed' | 'failed';
  /** what the model reads: a summary, or the error and what to do */
  output: string;
};

/** The envelope as an `apply_patch_call_output`'s status and output. */
export function presentApplyPatch(envelope: Envelope): ApplyPatchCallOutput {
  if (envelope.ok)
    return { status: 'completed', output: String((envelope.result as { output?: unknown }).output ?? '') };
  const { code, message, hint } = envelope.error;
  return { status: 'failed', output: `${code}: ${message}${hint ? `\n${hint}` : ''}` };
}
