import { defineTool, DESTRUCTIVE, type JsonSchema, type ToolDefinition } from '../tools/schema/define.js';
import { appendFile } from '../tools/append-file.js';
import { createDirectory } from '../tools/create-directory.js';
import { editFile } from '../tools/edit-file.js';
import { exists } from '../tools/exists.js';
import { listDirectory } from '../tools/list-directory.js';
import { readFile } from '../tools/read-file.js';
import { writeFile } from '../tools/write-file.js';
import { validateArgs } from '../tools/schema/validate.js';
import { s, ToolError, type Infer, type Problem, type Schema, type ToolErrorBody } from '../contract/index.js';
import type { Envelope } from '../contract/index.js';
import { defined, invalid, pick, runCanonical } from './adapt.js';
import { FILE_MANAGER_WORDS, reword } from './vocabulary.js';

type Row = Record<string, any>;

/** Each seed action: the canonical tool doing the work, the arguments it takes, and its result fields. */
const ACTIONS: Record<string, { tool: ToolDefinition; args: readonly string[]; shape: (r: Row) => Row }> = {
  create_directory: { tool: createDirectory, args: ['path'], shape: (r) => ({ created: r.created }) },
  read_file: {
    tool: readFile,
    args: ['path', 'start_line', 'end_line', 'max_chars'],
    shape: (r) => ({
      content: r.content,
      truncated: r.truncated,
      total_chars: r.total_chars,
      selected_chars: r.selected_chars,
      total_lines: r.total_lines,
      start_line: r.start_line,
      end_line: r.end_line,
      has_more: r.has_more,
      ...(r.has_more ? { next_start_line: r.next_start_line } : {}),
    }),
  },
  write_file: {
    tool: writeFile,
    args: ['path', 'content', 'overwrite'],
    shape: (r) => ({
      created: r.created,
      bytes: r.bytes,
      added_lines: r.added_lines,
      removed_lines: r.removed_lines,
      change_id: r.change_id,
    }),
  },
  append_file: {
    tool: appendFile,
    args: ['path', 'content'],
    shape: (r) => ({
      created: r.created,
      bytes: r.bytes,
      added_lines: r.added_lines,
      removed_lines: 0,
      change_id: r.change_id,
    }),
  },
  edit_file: {
    tool: editFile,
    args: ['path', 'old_text', 'new_text', 'replace_all'],
    shape: (r) => ({
      replacements: r.replacements,
      first_line: r.first_line,
      added_lines: r.added_lines,
      removed_lines: r.removed_lines,
      change_id: r.change_id,
    }),
  },
  list_directory: {
    tool: listDirectory,
    args: ['path', 'recursive', 'max_entries'],
    shape: (r) => ({
      entries: (r.entries as Row[]).map((e) => ({
        name: e.name,
        relative_path: e.path,
        type: e.type,
        size_bytes: e.size_bytes,
      })),
      count: r.count,
      truncated: r.truncated,
    }),
  },
  exists: { tool: exists, args: ['path'], shape: (r) => ({ exists: r.exists, type: r.type }) },
};

const ACTION_NAMES = Object.keys(ACTIONS);
const actionSchemas = Object.fromEntries(
  ACTION_NAMES.map((name) => {
    const { tool, args } = ACTIONS[name]!;
    const required = (tool.schema.required ?? []).filter((r) => args.includes(r));
    return [
      name,
      {
        type: 'object',
        properties: { action: { const: name }, ...pick(tool.schema, args) },
        required: ['action', ...required],
        additionalProperties: false,
      } as JsonSchema,
    ];
  }),
);

const operationSchema = {
  type: 'object',
  description: 'One file operation; `action` names it, the other fields are its arguments.',
  properties: {
    action: { type: 'string', enum: ACTION_NAMES, description: 'The operation to run.' },
    ...Object.assign({}, ...ACTION_NAMES.map((n) => pick(ACTIONS[n]!.tool.schema, ACTIONS[n]!.args))),
  },
  required: ['action', 'path'],
  additionalProperties: false,
} as Schema<Row>;

// Each operation's own fields follow `ok`, `action` and `relative_path`; see ACTIONS for them.
const operationResult = s.object(
  {
    ok: s.boolean(),
    action: s.string(),
    relative_path: s.optional(s.string()),
    error: s.optional(s.unknown({ description: "The failed operation's error." })),
  },
  { additionalProperties: true },
);

/** Seed 000's guidance rules, checked before the schema so each mistake gets its own precise error. */
function precheck(args: unknown): void {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return;
  const a = args as Row;
  const problems: Problem[] = [];
  for (const key of ['action', 'path', 'operation']) {
    if (key in a)
      problems.push({
        path: `/${key}`,
        message: `top-level '${key}' is not accepted: put each file operation inside 'operations'`,
      });
  }
  if ('command' in a)
    problems.push({
      path: '/command',
      message: 'file_manager runs no shell command strings: use list_directory, read_file or another supported action',
    });
  if (problems.length === 0) return;
  throw invalid(
    'file_manager takes only an operations array',
    problems,
    'Valid call shape: {"operations": [{"action": "read_file", "path": "example.txt"}]}. Nothing was run.',
  );
}

/** Check every operation against its action's arguments before any runs, so a malformed call changes nothing. */
function checkOperations(operations: Row[]): void {
  const problems: Problem[] = [];
  operations.forEach((op, i) => {
    const schema = actionSchemas[op.action as string];
    if (!schema) return;
    if ((op.action === 'write_file' || op.action === 'append_file') && op.content === undefined) {
      problems.push({
        path: `/operations/${i}/content`,
        message: `is mandatory for ${op.action}; send "" only to intend an empty file`,
      });
    }
    for (const p of validateArgs(schema, op))
      if (!p.path.endsWith('/content') || op.content !== undefined)
        problems.push({ ...p, path: `/operations/${i}${p.path}` });
  });
  if (problems.length > 0)
    throw invalid('file_manager operations are invalid, so none was run and nothing was modified', problems);
}

/**
 * The description function calling shows (within OpenAI's 1,024 characters); the seed's full
 * text is the toolset's `instructions`, which the system prompt carries.
 */
export const FILE_MANAGER_SUMMARY =
  'Manage text files and directories inside the active workspace: create_directory, read_file, write_file, ' +
  'append_file, edit_file, list_directory and exists. Valid call shape is always {"operations": [{"action": "read_file", "path": "example.txt"}]}: ' +
  'one tool id, `file_manager` (never a dotted name such as file_manager.read_file), with each file operation inside `operations` ' +
  '(no top-level action, path or shell command). Paths are relative to the workspace; a bare name, `.` or `./...` means the current folder. ' +
  'Text is UTF-8. `content` is required for write_file and append_file. edit_file needs exact old_text that occurs once (or replace_all). ' +
  'read_file takes 1-based start_line/end_line windows. Operations run in order; the first failure stops the call, earlier ones stay applied. ' +
  'The tool does not delete files or directories. Each result gives the canonical `relative_path` to reuse.';

/**
 * Seed 000's `file_manager`: one tool whose `operations` run in order over the canonical tools.
 * The first failing operation stops the call: operations before it stay applied, later ones are
 * not run, and the error carries every result so far. The call is one snapshot, so `undo`
 * reverts all of it.
 */
export const fileManager = defineTool({
  name: 'file_manager',
  title: 'File manager',
  description: FILE_MANAGER_SUMMARY,
  mutates: true,
  annotations: DESTRUCTIVE,
  precheck,
  // A model that calls `file_manager.read_file` meant this tool with that action.
  present: (envelope) => fileManagerEnvelope(envelope),
  dottedHint: (method) => `{"operations": [{"action": "${method.slice(0, 60)}", "path": "..."}]}`,
  schema: s.object({
    operations: s.array(operationSchema, { minItems: 1, description: 'File operations, run in order.' }),
  }),
  resultSchema: s.object({ results: s.array(operationResult, { description: 'One per operation, in order.' }) }),
  async run(args, ctx) {
    checkOperations(args.operations);
    const results: Row[] = [];
    for (const [i, op] of args.operations.entries()) {
      const { action, ...rest } = op;
      const spec = ACTIONS[action as string]!;
      try {
        const r = await runCanonical(spec.tool, defined(rest), ctx, `/operations/${i}`);
        results.push({ ok: true, action, relative_path: r.path, ...spec.shape(r) });
      } catch (error) {
        const e = reword(error, FILE_MANAGER_WORDS);
        results.push({ ok: false, action, error: e.toJSON() });
        const left = args.operations.length - i - 1;
        throw new ToolError(
          e.code,
          `operation ${i + 1} (${String(action)}) failed: ${e.message}` +
            (i > 0 ? `; the ${i} before it stay applied` : '') +
            (left > 0 ? `; the ${left} after it were not run` : ''),
          {
            hint: e.hint ?? 'Fix that operation and send it (and the ones after it) again.',
            ...(e.problems ? { problems: e.problems } : {}),
            details: { results },
          },
        );
      }
    }
    return { results: results as Array<Infer<typeof operationResult>> };
  },
});

/** Seed 000's toolset: the single `file_manager` tool. */
export function fileManagerTools(): ToolDefinition[] {
  return [fileManager];
}

/** The seed's wire envelope `{ok, tool, results}` (with `error` when a call failed) from a workspace envelope. */
export function fileManagerEnvelope(envelope: Envelope): Row {
  if (envelope.ok)
    return { ok: true, tool: envelope.tool, results: (envelope.result as { results?: Row[] })?.results ?? [] };
  const { results, ...error } = envelope.error as ToolErrorBody & { results?: Row[] };
  return { ok: false, tool: envelope.tool, results: results ?? [], error };
}
