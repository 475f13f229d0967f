import { unreadableResult } from './schema/result-schemas.js';
import { decodeCursor, encodeCursor, queryFingerprint } from '../search/cursor.js';
import { anyGlob } from '../search/glob.js';
import { buildMatcher } from '../search/matcher.js';
import { shortened, type Unreadable } from '../search/walk.js';
import { arg, s, tool, ToolError, words } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import { pathProperty } from './common.js';
import { defineTool, READ_ONLY } from './schema/define.js';

/** search_files: matching lines across files, paged with a self-contained cursor. */
export const searchFilesTool = defineTool({
  name: 'search_files',
  title: 'Search file contents',
  description:
    'Search file contents for a literal text (default) or an RE2 regex (JavaScript syntax without backreferences ' +
    'or lookaround), one result per matching line ' +
    '(path, 1-based line and column, the line capped at 500 characters). Skips hidden folders, node_modules, build ' +
    'outputs, binary and undecodable files (one holding a literal pattern is listed in skipped) and whatever ' +
    '.gitignore excludes. Results are in sorted path order; when ' +
    'truncated, pass next_cursor as cursor (with the same other arguments) to get the next page; a search that ' +
    "runs out of time answers with what it found, truncated, stopped: 'time_budget' and a next_cursor.",
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    pattern: s.string({
      minLength: 1,
      description: 'Text to find (or a regex when is_regex is true). Matches within one line.',
    }),
    path: s.optional(pathProperty('Folder (or single file) to search, default the current folder')),
    is_regex: s.optional(
      s.boolean({ description: 'Treat pattern as an RE2 regular expression, matched in linear time (default false).' }),
    ),
    case_sensitive: s.optional(s.boolean({ description: 'Match case exactly (default true).' })),
    include: s.optional(
      s.array(s.string({ minLength: 1, maxLength: 4096 }), {
        description:
          "Only search files matching one of these globs: '*.ts' matches basenames anywhere, 'src/**/*.ts' matches root-relative paths.",
      }),
    ),
    max_matches: s.optional(
      s.integer({ minimum: 1, maximum: 100000, description: 'Matching lines per page (default 50).' }),
    ),
    context_lines: s.optional(
      s.integer({ minimum: 0, maximum: 20, description: 'Lines of context before and after each match (default 0).' }),
    ),
    cursor: s.optional(
      s.string({ minLength: 1, description: 'next_cursor from the previous page of the same search.' }),
    ),
  }),
  resultSchema: s.object({
    matches: s.array(
      s.object({
        path: s.string(),
        line: s.integer({ description: '1-based.' }),
        column: s.integer({ description: '1-based, in code points.' }),
        content: s.string({ description: 'The line, capped at 500 characters.' }),
        before: s.optional(s.array(s.string())),
        after: s.optional(s.array(s.string())),
      }),
    ),
    count: s.integer(),
    truncated: s.boolean(),
    next_cursor: s.nullable(s.string({ description: 'Pass as cursor for the next page.' })),
    stopped: s.optional(
      s.enum(['time_budget'], { description: 'The call ran out of its time budget; next_cursor continues.' }),
    ),
    skipped: unreadableResult,
  }),
  async run(args, ctx) {
    const caseSensitive = args.case_sensitive ?? true;
    const isRegex = args.is_regex ?? false;
    const matcher = await buildMatcher(args.pattern, isRegex, caseSensitive);
    const include = await anyGlob(args.include);
    const start = await ctx.resolve(args.path ?? '.', 'read');
    if (!start.stat) {
      throw new ToolError('NOT_FOUND', `'${displayPath(start.rel)}' does not exist`, {
        hint: words`Check the folder with ${tool('list_directory')}, or omit ${arg('path')} to search the current folder.`,
      });
    }
    const fingerprint = queryFingerprint([args.pattern, start.rel, isRegex, caseSensitive, args.include ?? []]);
    const resume = args.cursor === undefined ? null : decodeCursor(args.cursor, fingerprint);
    const unreadable: Unreadable[] = [];
    // The search engine loads with the first search, not with the tools (see scripts/build-cli.mjs).
    const [{ searchFiles: runSearch }, kept] = await Promise.all([
      import('../search/search.js'),
      import('../search/kept-pages.js'),
    ]);
    // the page that returned this cursor may have left its walk and read-ahead for it
    const mark = kept.changeMark(ctx.changes);
    const continueFrom = args.cursor === undefined ? undefined : kept.takePage(ctx.changes, args.cursor);
    const page = await runSearch(ctx.fs, ctx.paths, {
      matcher,
      start,
      include,
      resume,
      ...(continueFrom ? { continueFrom } : {}),
      keepRest: true,
      maxMatches: args.max_matches ?? 50,
      context: args.context_lines ?? 0,
      maxLineChars: ctx.policy.limits.maxLineChars,
      deadline: Date.now() + ctx.policy.limits.searchBudgetMs,
      unreadable,
      allowHardLinks: ctx.policy.allowHardLinks,
      onFiles: async (scanned) => {
        await ctx.checkpoint();
        ctx.progress(scanned, undefined, `${scanned} files searched`);
      },
    });
    const last = page.resumeAfter ?? page.matches[page.matches.length - 1];
    const nextCursor = page.truncated && last ? encodeCursor(fingerprint, last) : null;
    if (page.rest) {
      if (nextCursor) kept.keepPage(ctx.changes, mark, nextCursor, page.rest);
      else void page.rest.close();
    }
    return {
      matches: page.matches,
      count: page.matches.length,
      // what could not be read makes the answer incomplete, even with nothing more to page
      truncated: page.truncated || unreadable.length > 0,
      next_cursor: nextCursor,
      ...(page.resumeAfter ? { stopped: 'time_budget' as const } : {}),
      ...(unreadable.length > 0 ? { skipped: unreadable.map(shortened) } : {}),
    };
  },
});
