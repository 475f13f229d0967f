import { dominantEol, lineAt, LfView, toLf } from '../text/lines.js';
import { arg, PASSAGES, s, ToolError, words } from '../contract/index.js';
import { expectedShaProperty, pathProperty } from './common.js';
import { defineTool, DESTRUCTIVE } from './schema/define.js';
import { findNearMatch } from './near-match.js';
import { changeIdResult } from './schema/result-schemas.js';

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit file',
  description:
    'Replace an exact piece of text in a file. old_text must match exactly once (include surrounding lines to make it ' +
    'unique) unless replace_all is true. Nothing changes when it is absent (NO_MATCH, with a hint to the nearest ' +
    'whitespace-insensitive match) or ambiguous (AMBIGUOUS_MATCH, listing the lines). \\n in old_text also matches \\r\\n; ' +
    'the file keeps its line endings, encoding and every byte outside the match.',
  mutates: true,
  annotations: DESTRUCTIVE,
  schema: s.object({
    path: pathProperty('The file to edit'),
    old_text: s.string({ minLength: 1, description: 'The exact text to replace.' }),
    new_text: s.string({ description: 'The replacement text.' }),
    replace_all: s.optional(s.boolean({ default: false, description: 'Replace every occurrence.' })),
    expected_sha256: s.optional(expectedShaProperty),
  }),
  resultSchema: s.object({
    path: s.string(),
    replacements: s.integer(),
    first_line: s.integer({ description: 'The 1-based line of the first replacement.' }),
    added_lines: s.integer(),
    removed_lines: s.integer(),
    change_id: changeIdResult,
  }),
  async run(args, ctx) {
    return ctx.withPath(args.path, 'write', async (path, shown) => {
      const file = await ctx.readText(path);
      ctx.checkWritable(path, file.sha256, args.expected_sha256);
      const oldText = toLf(args.old_text);
      const newText = toLf(args.new_text);
      if (oldText === newText) {
        throw new ToolError(
          'INVALID_ARGUMENTS',
          words`${arg('old_text')} and ${arg('new_text')} are the same, so nothing would change`,
          {
            problems: [{ path: '/new_text', message: words`must differ from ${arg('old_text')}` }],
          },
        );
      }
      const view = new LfView(file.text);
      const starts: number[] = [];
      for (let i = view.text.indexOf(oldText); i !== -1; i = view.text.indexOf(oldText, i + oldText.length))
        starts.push(i);
      if (starts.length === 0) throw noMatch(shown, view.text, oldText);
      if (starts.length > 1 && !args.replace_all) {
        const lines = starts.map((s) => lineAt(view.text, s));
        throw new ToolError(
          'AMBIGUOUS_MATCH',
          words`${arg('old_text')} occurs ${starts.length} times in '${shown}', ${whereOnLines(lines)}`,
          {
            hint: words`Include more surrounding lines so it matches once${PASSAGES.replaceAll}.`,
            details: { lines },
          },
        );
      }
      const text = view.splice(
        starts.map((s) => ({ start: s, end: s + oldText.length, replacement: newText })),
        dominantEol(file.text),
      );
      const bytes = ctx.encode(path, text, file.encoding, file.bom);
      await ctx.writeBytes(path, bytes);
      const change = ctx.recordChange([{ path: path.rel, before: file.text, after: text }]);
      return {
        path: shown,
        replacements: starts.length,
        first_line: lineAt(view.text, starts[0]!),
        added_lines: change.added_lines,
        removed_lines: change.removed_lines,
        change_id: change.id,
      };
    });
  },
});

function noMatch(shown: string, text: string, needle: string): ToolError {
  const near = findNearMatch(text, needle);
  const hint = !near
    ? words`Read the file again and copy ${arg('old_text')} exactly, including indentation.`
    : near.kind === 'whitespace'
      ? words`A match that differs only in whitespace starts at line ${near.line}:\n${near.text}\nCopy its exact spacing into ${arg('old_text')}.`
      : words`The first line of ${arg('old_text')} is at line ${near.line}, but the lines after it differ:\n${near.text}`;
  return new ToolError('NO_MATCH', words`${arg('old_text')} was not found in '${shown}'`, {
    hint,
    details: near ? { near_line: near.line } : undefined,
  });
}

/** "on lines 1 (twice) and 3": each line once, with how often it matched there when more than once. */
export function whereOnLines(lines: number[]): string {
  const counts = new Map<number, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  const words = ['', '', 'twice', 'three times'];
  const parts = [...counts].map(([line, n]) => (n > 1 ? `${line} (${words[n] ?? `${n} times`})` : String(line)));
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  return `on line${parts.length > 1 ? 's' : ''} ${list}`;
}
