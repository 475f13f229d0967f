import { detectEol, LfView } from '../text/lines.js';
import { TEXT_ENCODINGS } from '../text/codec.js';
import { arg, s, ToolError, words } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import { codePointLength, codePointOffset, encodingProperty, pathProperty } from './common.js';
import { defineTool, READ_ONLY } from './schema/define.js';

const lineNumber = (description: string) => s.integer({ minimum: 1, description });

export const readFile = defineTool({
  name: 'read_file',
  title: 'Read file',
  description:
    'Read a text file, whole or as a 1-based inclusive line window. Without end_line at most 2,000 lines come back; ' +
    'has_more and next_start_line tell where to continue; a window that stops inside a line (max_chars, or the ' +
    '10 MiB character cap) also gives ' +
    "next_start_char, to pass as start_char with the same start_line. Content uses \\n line endings (eol reports the file's own). " +
    'Reading a file whole records it as read, which edits may require.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    path: pathProperty('The file to read'),
    start_line: s.optional(lineNumber('First line to return (1-based, default 1).')),
    end_line: s.optional(lineNumber('Last line to return, inclusive.')),
    max_chars: s.optional(
      s.integer({ minimum: 1, description: 'Stop after this many characters, possibly inside a line.' }),
    ),
    start_char: s.optional(
      s.integer({
        minimum: 1,
        description:
          'Begin at this character (1-based, in code points) of start_line, to continue a window that stopped inside a line (default 1).',
      }),
    ),
    line_numbers: s.optional(s.boolean({ description: 'Prefix each line with its number, cat -n style.' })),
    encoding: s.optional(encodingProperty),
  }),
  resultSchema: s.object({
    path: s.string(),
    content: s.string({ description: 'The text, with \\n line endings.' }),
    encoding: s.enum(TEXT_ENCODINGS),
    bom: s.boolean(),
    eol: s.enum(['lf', 'crlf', 'cr', 'mixed', 'none'], { description: "The file's own line endings." }),
    total_lines: s.integer(),
    start_line: s.integer(),
    end_line: s.integer(),
    has_more: s.boolean(),
    next_start_line: s.nullable(s.integer()),
    next_start_char: s.nullable(
      s.integer({
        description: 'With next_start_line: where the next window starts inside that line (pass as start_char).',
      }),
    ),
    truncated: s.boolean(),
    total_chars: s.integer(),
    selected_chars: s.integer(),
    sha256: s.string({ description: 'Of the whole file, for expected_sha256.' }),
  }),
  async run(args, ctx) {
    const windowed = args.start_line !== undefined || args.end_line !== undefined || (args.start_char ?? 1) > 1;
    const file = await ctx.readTextAt(args.path, { encoding: args.encoding, allowLarge: windowed });
    const path = file.path;
    const view = new LfView(file.text).text;
    const totalChars = codePointLength(view);
    const start = args.start_line ?? 1;
    const cap = ctx.policy.limits.maxReadLines;
    const wanted = args.end_line ?? start + cap - 1;
    const { totalLines, from, to: windowEnd } = lineWindow(view, start, wanted);
    if (args.end_line !== undefined && args.end_line < start) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        words`${arg('end_line')} ${args.end_line} is before ${arg('start_line')} ${start}`,
        {
          problems: [{ path: '/end_line', message: words`must be at least ${arg('start_line')}` }],
        },
      );
    }
    if (start > Math.max(totalLines, 1)) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        words`${arg('start_line')} ${start} is past the end: '${displayPath(path.rel)}' has ${totalLines} lines`,
        {
          problems: [{ path: '/start_line', message: `must be at most ${Math.max(totalLines, 1)}` }],
        },
      );
    }
    let end = Math.min(wanted, totalLines);
    let truncated = args.end_line === undefined && totalLines > end;
    const skip = skipChars(view, from, windowEnd, (args.start_char ?? 1) - 1);
    let content = from + skip === 0 && windowEnd === view.length ? view : view.slice(from + skip, windowEnd);
    let nextStart = end < totalLines ? end + 1 : null;
    let nextChar: number | null = null;
    // a window inside one huge line is capped too (the workspace's maxReadChars), and pages with start_char
    const maxChars = Math.min(args.max_chars ?? Number.POSITIVE_INFINITY, ctx.policy.limits.maxReadChars);
    if (content.length > maxChars && codePointLength(content) > maxChars) {
      content = content.slice(0, codePointOffset(content, maxChars));
      truncated = true;
      const cutInsideLine = !content.endsWith('\n');
      end = start + countNewlines(content) - (cutInsideLine ? 0 : 1);
      nextStart = cutInsideLine ? end : end + 1;
      // Without a column, a window that stops inside a line would send the reader back to its own start.
      if (cutInsideLine) {
        const lastBreak = content.lastIndexOf('\n');
        const done =
          codePointLength(content.slice(lastBreak + 1)) + (lastBreak === -1 ? (args.start_char ?? 1) - 1 : 0);
        nextChar = done + 1;
      }
    }
    const fullRead = !windowed && args.max_chars === undefined && !truncated;
    ctx.ledger.recordRead(path.realRel, file.sha256, fullRead);
    return {
      path: displayPath(path.rel),
      content: args.line_numbers ? numbered(content, start) : content,
      encoding: file.encoding,
      bom: file.bom,
      // without CRLF the folded view is the text itself, and its newlines are all bare LF
      eol: view === file.text ? (view.includes('\n') ? 'lf' : 'none') : detectEol(file.text),
      total_lines: totalLines,
      start_line: start,
      end_line: end,
      has_more: nextStart !== null && nextStart <= totalLines,
      next_start_line: nextStart !== null && nextStart <= totalLines ? nextStart : null,
      next_start_char: nextStart !== null && nextStart <= totalLines ? nextChar : null,
      truncated,
      total_chars: totalChars,
      selected_chars: content === view ? totalChars : codePointLength(content),
      sha256: file.sha256,
    };
  },
});

/**
 * In one pass over the text: how many lines it has, where line `start` begins and where the line
 * after `end` begins (the text's end when there is none). A final newline ends a line, it does not
 * start another.
 */
function lineWindow(text: string, start: number, end: number): { totalLines: number; from: number; to: number } {
  if (text === '') return { totalLines: 0, from: 0, to: 0 };
  let line = 1;
  let from = start === 1 ? 0 : text.length;
  let to = text.length;
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    line++;
    if (line === start) from = i + 1;
    if (line === end + 1) to = i + 1;
  }
  return { totalLines: line, from, to };
}

/**
 * UTF-16 length of the first `chars` code points of the line at `from`; a start_char past the
 * line's end (its newline excluded) is INVALID_ARGUMENTS.
 */
function skipChars(text: string, from: number, to: number, chars: number): number {
  if (chars === 0) return 0;
  const lineEnd = text.indexOf('\n', from);
  const line = text.slice(from, lineEnd === -1 || lineEnd > to ? to : lineEnd);
  const length = codePointLength(line);
  if (chars > length) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      words`${arg('start_char')} ${chars + 1} is past the end of the line, which has ${length} characters`,
      {
        problems: [{ path: '/start_char', message: `must be at most ${length + 1}` }],
      },
    );
  }
  return codePointOffset(line, chars);
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function numbered(content: string, firstLine: number): string {
  if (content === '') return '';
  const lines = content.split('\n');
  const trailing = lines[lines.length - 1] === '';
  if (trailing) lines.pop();
  return lines.map((line, i) => `${String(firstLine + i).padStart(6)}\t${line}`).join('\n') + (trailing ? '\n' : '');
}
