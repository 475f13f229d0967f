import { s, ToolError, type Envelope } from '../../contract/index.js';
import { defineTool, DESTRUCTIVE, type ToolDefinition, type ToolRunContext } from '../../tools/schema/define.js';
import { editFile } from '../../tools/edit-file.js';
import { listDirectory } from '../../tools/list-directory.js';
import { readFile } from '../../tools/read-file.js';
import { writeFile } from '../../tools/write-file.js';
import { defined, runCanonical, withPolicy } from '../adapt.js';
import { editorPath } from './editor-path.js';

/** The editor's name, fixed by the API for `text_editor_20250728`. */
export const EDITOR_NAME = 'str_replace_based_edit_tool';

type Row = Record<string, any>;

const schema = s.object({
  command: s.enum(['view', 'create', 'str_replace', 'insert']),
  path: s.string({ minLength: 1, description: 'A file or folder in the workspace.' }),
  view_range: s.optional(
    s.array(s.integer(), {
      minItems: 2,
      maxItems: 2,
      description: 'view: [first, last] line, 1-based; last -1 reads to the end.',
    }),
  ),
  file_text: s.optional(s.string({ description: "create: the new file's text." })),
  old_str: s.optional(s.string({ description: 'str_replace: the exact text to replace, once in the file.' })),
  new_str: s.optional(s.string({ description: 'str_replace: the replacement.' })),
  insert_line: s.optional(s.integer({ minimum: 0, description: 'insert: the line to insert after (0: the top).' })),
  insert_text: s.optional(s.string({ description: 'insert: the text to insert.' })),
});

type EditorArgs = {
  command: 'view' | 'create' | 'str_replace' | 'insert';
  path: string;
  view_range?: number[];
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  insert_text?: string;
};

function needs(args: EditorArgs, name: keyof EditorArgs): void {
  if (args[name] === undefined)
    throw new ToolError('INVALID_ARGUMENTS', `${args.command} needs ${name}`, {
      problems: [{ path: `/${name}`, message: 'is required' }],
    });
}

const numbered = (lines: string[], first: number) => lines.map((line, i) => `${first + i}: ${line}`).join('\n');
const splitLines = (text: string) => (text === '' ? [] : text.replace(/(\r\n|\n|\r)$/, '').split(/\r\n|\n|\r/));

// A whole view must show every line (the 10 MiB limit still holds), like an editor would.
const wholeFile = (ctx: ToolRunContext) =>
  withPolicy(ctx, { limits: { ...ctx.policy.limits, maxReadLines: Number.MAX_SAFE_INTEGER } });

async function view(args: EditorArgs, path: string, ctx: ToolRunContext, maxCharacters?: number): Promise<string> {
  const target = await ctx.resolve(path, 'read');
  if (target.stat?.type === 'dir') {
    if (args.view_range) throw new ToolError('INVALID_ARGUMENTS', 'view_range applies to files, not folders');
    const list: Row = await runCanonical(listDirectory, { path, recursive: true, max_depth: 2 }, ctx);
    const lines = (list.entries as Row[]).map((e) => `${e.path}${e.type === 'directory' ? '/' : ''}`);
    const more = list.truncated ? '\n(more entries not shown)' : '';
    return `Files and folders up to 2 levels deep in ${list.path}, excluding hidden items:\n${lines.join('\n')}${more}`;
  }
  const [first, last] = args.view_range ?? [1, -1];
  if (args.view_range && (first! < 1 || (last !== -1 && last! < first!)))
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `Invalid view_range [${first}, ${last}]: give [first, last], 1-based, last >= first or -1`,
      {
        problems: [{ path: '/view_range', message: 'must be [first, last] with 1 <= first <= last, or last -1' }],
      },
    );
  const r: Row = await runCanonical(
    readFile,
    defined({ path, start_line: args.view_range ? first : undefined, end_line: last === -1 ? undefined : last }),
    args.view_range ? ctx : wholeFile(ctx),
  );
  let out = numbered(splitLines(r.content), r.start_line);
  if (r.has_more && args.view_range === undefined) out += `\n(the file continues at line ${r.next_start_line})`;
  if (maxCharacters !== undefined && out.length > maxCharacters)
    out = `${out.slice(0, maxCharacters)}\n(truncated at ${maxCharacters} characters: view a smaller view_range)`;
  return out;
}

async function insert(args: EditorArgs, path: string, ctx: ToolRunContext): Promise<Row> {
  const r: Row = await runCanonical(readFile, { path }, wholeFile(ctx));
  const lines = r.content.split(/(?<=\r\n|\n|\r(?!\n))/) as string[];
  const at = args.insert_line!;
  if (at > lines.length)
    throw new ToolError('INVALID_ARGUMENTS', `insert_line ${at} is past the end: the file has ${lines.length} lines`, {
      problems: [{ path: '/insert_line', message: `must be between 0 and ${lines.length}` }],
    });
  const before = lines.slice(0, at);
  // After a last line with no newline, the inserted text starts on a line of its own.
  if (before.length > 0 && !/[\r\n]$/.test(before.at(-1)!)) before[before.length - 1] += '\n';
  const text = args.insert_text!.endsWith('\n') || at === lines.length ? args.insert_text! : `${args.insert_text}\n`;
  return runCanonical(
    writeFile,
    { path, content: [...before, text, ...lines.slice(at)].join(''), expected_sha256: r.sha256 },
    ctx,
  );
}

/**
 * Anthropic's text editor (`text_editor_20250728`, named `str_replace_based_edit_tool`): view
 * (numbered lines or a two-level folder listing), create, str_replace and insert over the
 * canonical tools, so every change is lossless, confined, snapshotted and undoable.
 */
export function anthropicEditor(options: { maxCharacters?: number } = {}): ToolDefinition & { maxCharacters?: number } {
  const tool = defineTool({
    name: EDITOR_NAME,
    title: 'Text editor (Anthropic)',
    description:
      'View a file (numbered lines, optionally a view_range) or a folder, create a file, replace one exact occurrence of old_str, or insert text after a line.',
    mutates: true,
    annotations: DESTRUCTIVE,
    schema,
    resultSchema: s.object({ output: s.string(), change_id: s.optional(s.nullable(s.string())) }),
    async run(raw, ctx) {
      const args = raw as EditorArgs;
      const path = editorPath(args.path);
      if (args.command === 'view') return { output: await view(args, path, ctx, options.maxCharacters) };
      if (args.command === 'create') {
        needs(args, 'file_text');
        const r: Row = await runCanonical(writeFile, { path, content: args.file_text }, ctx);
        return { output: `File created successfully at: ${args.path}`, change_id: r.change_id ?? null };
      }
      if (args.command === 'str_replace') {
        needs(args, 'old_str');
        const r: Row = await runCanonical(
          editFile,
          { path, old_text: args.old_str, new_text: args.new_str ?? '' },
          ctx,
        );
        return { output: 'Successfully replaced text at exactly one location.', change_id: r.change_id ?? null };
      }
      needs(args, 'insert_line');
      needs(args, 'insert_text');
      const r = await insert(args, path, ctx);
      return {
        output: `Text inserted after line ${args.insert_line} of ${args.path}.`,
        change_id: r.change_id ?? null,
      };
    },
    present: presentEditor,
  });
  // The toolset reads it back to send the same limit to the API.
  return options.maxCharacters !== undefined ? { ...tool, maxCharacters: options.maxCharacters } : tool;
}

/** A tool's answer as Anthropic's `tool_result` block carries it. */
export type AnthropicToolResult = {
  /** the text the model reads */
  content: string;
  /** present, and true, when the call failed */
  is_error?: true;
};

/** The envelope as a `tool_result`'s text, with the editor's documented error texts. */
export function presentEditor(envelope: Envelope): AnthropicToolResult {
  if (envelope.ok) return { content: String((envelope.result as { output?: unknown }).output ?? '') };
  const error = envelope.error as Row;
  const detail = `${error.message}${error.hint ? `\n${error.hint}` : ''}`;
  const lead =
    error.code === 'NO_MATCH'
      ? 'Error: No match found for replacement. Please check your text and try again.'
      : error.code === 'AMBIGUOUS_MATCH'
        ? `Error: Found ${Array.isArray(error.lines) ? error.lines.length : 'several'} matches for replacement text. Please provide more context to make a unique match.`
        : error.code === 'NOT_FOUND'
          ? 'Error: File not found'
          : error.code === 'PERMISSION_DENIED' || error.code === 'CONFIRMATION_DENIED'
            ? 'Error: Permission denied. Cannot write to file.'
            : `Error: ${error.code}`;
  return { content: `${lead}\n${detail}`, is_error: true };
}
