import {
  defineTool,
  DESTRUCTIVE,
  DESTRUCTIVE_IDEMPOTENT,
  READ_ONLY,
  RUNS_PROGRAMS,
  runsPrograms,
  waitsForRunner,
  type ToolDefinition,
} from '../tools/schema/define.js';
import { editFile } from '../tools/edit-file.js';
import { fileBytes, NOT_UTF8_HINT } from '../tools/file-bytes.js';
import { readFile } from '../tools/read-file.js';
import { createRunCommandTool, runCommand } from '../tools/run-command.js';
import { writeFile } from '../tools/write-file.js';
import { LfView } from '../text/lines.js';
import type { ToolRunContext as ToolContext } from '../tools/schema/define.js';
import { s, sayWords, type JsonSchema, type ResultOf, type Schema } from '../contract/index.js';
import { defined, invalid, runCanonical } from './adapt.js';
import { fsList, fsSearch } from './fs-process-listing.js';
import { projectTarget as target, underRoot } from './fs-process-root.js';
import { FS_PROCESS_WORDS, speaking } from './vocabulary.js';

type Row = Record<string, any>;

/** Characters kept of each of stdout and stderr (seed 001). */
export const STREAM_CAP = 4096;
export { LIST_CAP } from './fs-process-listing.js';

const rootProperty = s.optional(
  s.string({
    default: '.',
    description: 'The project root, an existing folder relative to the workspace (default ".").',
  }),
);
const fileProperty = s.string({ minLength: 1, description: 'The file, relative to the project root `path`.' });
const changeId = s.string({ description: 'The change-log entry of this call.' });

const fsRead = defineTool({
  name: 'read_file',
  title: 'Read file',
  description:
    'Read a UTF-8 text file under the project root `path`, returned with line numbers. Without a range at most 2,000 lines come back; ' +
    'an explicit start_line and end_line bypass that cap. showing tells which lines you got. Do not hash or write back the numbered content.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({ path: rootProperty, file: fileProperty, ...s.pick(readFile.schema, ['start_line', 'end_line']) }),
  resultSchema: s.object({
    file: s.string({ description: 'Relative to the project root.' }),
    content: s.string({ description: 'The lines, numbered cat -n style.' }),
    total_lines: s.integer(),
    truncated: s.boolean(),
    showing: s.object({ start: s.integer(), end: s.integer(), count: s.integer() }),
  }),
  async run(args, ctx) {
    const t = await target(ctx, args.path, args.file);
    const r = await runCanonical(
      readFile,
      defined({ path: t.arg, start_line: args.start_line, end_line: args.end_line, line_numbers: true }),
      ctx,
    );
    const count = r.total_lines === 0 ? 0 : r.end_line - r.start_line + 1;
    return {
      file: underRoot(t.rootRel, r.path),
      content: r.content,
      total_lines: r.total_lines,
      truncated: r.truncated,
      showing: { start: r.start_line, end: r.end_line, count },
    };
  },
});

const fsWrite = defineTool({
  name: 'write_file',
  title: 'Write file',
  description:
    'Write UTF-8 text to `file` under the project root `path`, creating folders and replacing an existing file ' +
    '(atomically, keeping its line endings). Returns the workspace path and the bytes written.',
  mutates: true,
  annotations: DESTRUCTIVE_IDEMPOTENT,
  schema: s.object({ path: rootProperty, file: fileProperty, ...s.pick(writeFile.schema, ['content']) }),
  resultSchema: s.object({
    path: s.string({ description: 'Relative to the workspace.' }),
    bytes: s.integer(),
    change_id: changeId,
  }),
  async run(args, ctx) {
    const t = await target(ctx, args.path, args.file);
    const r = await runCanonical(writeFile, { path: t.arg, content: args.content }, ctx);
    return { path: r.path, bytes: r.bytes, change_id: r.change_id };
  },
});

const fsEdit = defineTool({
  name: 'edit_file',
  title: 'Edit file',
  description:
    'Replace exact text in `file` under the project root `path`. With count=1 (default) several matches fail as ambiguous; ' +
    'count=-1 replaces all, another positive count replaces up to that many from the top. Returns replacements and the 1-based first_line.',
  mutates: true,
  annotations: DESTRUCTIVE,
  schema: s.object({
    path: rootProperty,
    file: fileProperty,
    old: s.string({ minLength: 1, description: 'The exact text to replace.' }),
    new: s.string({ description: 'The replacement text.' }),
    count: s.optional(
      s.integer({ minimum: -1, default: 1, description: '1: exactly one match; -1: all; N: at most N.' }),
    ),
  }),
  resultSchema: s.object({ path: s.string(), replacements: s.integer(), first_line: s.integer(), change_id: changeId }),
  async run(args, ctx) {
    const count = args.count ?? 1;
    if (count === 0)
      throw invalid('edit_file got invalid arguments', [
        { path: '/count', message: 'must be -1 (all) or a positive integer' },
      ]);
    const t = await target(ctx, args.path, args.file);
    const edit = (replace_all: boolean) =>
      runCanonical(editFile, { path: t.arg, old_text: args.old, new_text: args.new, replace_all }, ctx);
    if (count === 1 || count === -1) return shapeEdit(await edit(count === -1));
    return shapeEdit(await limitedEdit(ctx, t.arg, args.old, args.new, count));
  },
});

const shapeEdit = (r: Row) => ({
  path: r.path,
  replacements: r.replacements,
  first_line: r.first_line,
  change_id: r.change_id,
});

/**
 * count=N>1: when more than N matches exist, replace the first N through write_file; the hash guard
 * (expected_sha256) refuses the write if another writer changed the file in between.
 */
async function limitedEdit(
  ctx: ToolContext,
  arg: string,
  oldText: string,
  newText: string,
  count: number,
): Promise<Row> {
  const file = await ctx.readText(await ctx.resolve(arg, 'write'));
  const text = new LfView(file.text).text;
  const needle = oldText.replace(/\r\n?/g, '\n');
  const starts: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) starts.push(i);
  if (starts.length <= count)
    return runCanonical(editFile, { path: arg, old_text: oldText, new_text: newText, replace_all: true }, ctx);
  let out = '';
  let last = 0;
  for (const s of starts.slice(0, count)) {
    out += text.slice(last, s) + newText.replace(/\r\n?/g, '\n');
    last = s + needle.length;
  }
  const r = await runCanonical(
    writeFile,
    { path: arg, content: out + text.slice(last), expected_sha256: file.sha256 },
    ctx,
  );
  return { ...r, replacements: count, first_line: text.slice(0, starts[0]).split('\n').length };
}

const { path: _bytesPath, ...bytesResults } = fileBytes.resultSchema.properties as Record<string, JsonSchema>;

const fsBytes = defineTool({
  name: 'file_bytes',
  title: 'Check file bytes',
  description:
    'Check a workspace file byte by byte: sha256, size_bytes, encoding_ok, where `expected` occurs literally or escaped, and a verdict ' +
    '(ok, mismatch, literal_where_escaped_expected, escaped_where_literal_expected, decode_error). Read-only; confined to the workspace.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    file: { ...fileProperty, description: 'The file, relative to the workspace.' },
    ...s.pick(fileBytes.schema, ['expected', 'expect_escaped']),
    encoding: s.optional(s.enum(['utf-8'], { default: 'utf-8', description: 'Only utf-8 is supported.' })),
  }),
  // file_bytes' own result, with `file` for `path`
  resultSchema: {
    ...fileBytes.resultSchema,
    properties: { file: s.string(), ...bytesResults },
    required: ['file', ...(fileBytes.resultSchema.required ?? []).filter((k) => k !== 'path')],
  } as Schema<Omit<ResultOf<typeof fileBytes>, 'path'> & { file: string }>,
  async run(args, ctx) {
    const { path, ...rest } = await runCanonical(
      fileBytes,
      defined({ path: args.file, expected: args.expected, expect_escaped: args.expect_escaped }),
      ctx,
    );
    return {
      file: path,
      ...rest,
      // the one verdict hint that names a tool; a result carries text only, so it is said from the Words here
      ...(rest.verdict === 'decode_error' ? { hint: sayWords(NOT_UTF8_HINT, FS_PROCESS_WORDS) } : {}),
    };
  },
});

const capStream = (s: string) =>
  s.length > STREAM_CAP ? `${s.slice(0, STREAM_CAP)}\n[... truncated ${s.length - STREAM_CAP} characters]` : s;

// Seed 001's wording for a runner that splits argv, and the same facts for the built-in shell.
const HOW_PROGRAMS =
  'Run a command (split like a shell splits words; no shell, so pipes, redirections, && and $VARS are literal)';
const HOW_SHELL =
  "Run a bash command line (pipes, redirections, &&, globs, $VARS, $(...)) in the workspace's built-in shell";

function fsRun(inner: ToolDefinition, shell: boolean) {
  return defineTool({
    name: 'run_command',
    title: 'Run command',
    description:
      `${shell ? HOW_SHELL : HOW_PROGRAMS} in the project root ` +
      '`path` or `cwd` inside it, killed after `timeout` seconds (default 30). stdout and stderr are capped at 4,096 characters each. ' +
      'A nonzero exit or a timeout (exit_code -1, timed_out true) is still a result.',
    mutates: true,
    annotations: RUNS_PROGRAMS,
    schema: s.object({
      command: s.string({ minLength: 1, description: 'The command line.' }),
      path: rootProperty,
      cwd: s.optional(s.string({ description: 'Working folder relative to the project root (default the root).' })),
      timeout: s.optional(
        s.number({ exclusiveMinimum: 0, default: 30, description: 'Seconds before the command is killed.' }),
      ),
    }),
    resultSchema: s.object({
      stdout: s.string({ description: 'Capped at 4,096 characters.' }),
      stderr: s.string({ description: 'Capped at 4,096 characters.' }),
      exit_code: s.integer({ description: '-1 after a timeout.' }),
      timed_out: s.boolean(),
      truncated: s.boolean(),
      change_id: s.optional(changeId),
    }),
    async run(args, ctx) {
      const t = await target(ctx, args.path, args.cwd);
      const r = await runCanonical(
        inner,
        { command: args.command, cwd: t.arg, timeout_seconds: args.timeout ?? 30 },
        ctx,
      );
      const stdout = capStream(String(r.stdout ?? ''));
      const stderr = capStream(String(r.stderr ?? ''));
      return {
        stdout,
        stderr,
        exit_code: r.timed_out ? -1 : r.exit_code,
        timed_out: r.timed_out === true,
        truncated: r.truncated === true || stdout !== r.stdout || stderr !== r.stderr,
        ...(r.change_id ? { change_id: r.change_id } : {}),
      };
    },
  });
}

/**
 * Seed 001's filesystem and process tools over the canonical ones, their errors worded in seed 001's
 * names. `runCommand` is the canonical run_command that does the work (in Node, the one from
 * nodeTools); without it, run_command runs on the workspace's runner (createWorkspace's built-in
 * shell by default) and is NOT_SUPPORTED where the workspace has none.
 */
export function fsProcessTools(options: { runCommand?: ToolDefinition } = {}): ToolDefinition[] {
  const inner = options.runCommand ?? runCommand;
  const own: ToolDefinition[] = [fsRead, fsWrite, fsEdit, fsSearch, fsList, fsBytes];
  const tools = own.map((tool) => speaking(tool, FS_PROCESS_WORDS));
  if (!waitsForRunner(inner)) return [...tools, speaking(fsRun(inner, false), FS_PROCESS_WORDS)];
  // Waiting like the canonical one: the workspace's runner then does the work, worded for a shell where it is one.
  const run = runsPrograms((runner, findChanges) =>
    speaking(
      runner ? fsRun(createRunCommandTool(runner, findChanges), runner.kind === 'shell') : fsRun(inner, false),
      FS_PROCESS_WORDS,
    ),
  );
  return [...tools, run];
}
