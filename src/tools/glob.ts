import { unreadableResult } from './schema/result-schemas.js';
import { compileGlob, staticBase } from '../search/glob.js';
import { decodeCursor, encodeCursor, queryFingerprint } from '../search/cursor.js';
import { shortened, walk, type Unreadable, type WalkBudget } from '../search/walk.js';
import { s, ToolError } from '../contract/index.js';
import { displayPath, joinRel } from '../workspace/paths.js';
import { pathProperty } from './common.js';
import { defineTool, READ_ONLY } from './schema/define.js';

/** glob: root-relative paths matching a pattern, in walk order. */
export const globTool = defineTool({
  name: 'glob',
  title: 'Find files by pattern',
  description:
    "Find files by name pattern. A pattern without '/' matches file names at any depth ('*.ts'); one with '/' " +
    "matches paths relative to path ('src/**/*.test.ts'). A pattern ending in '/' finds folders instead. " +
    'Returns root-relative paths in sorted order. Skips hidden entries (unless include_hidden), node_modules, ' +
    'build outputs and what .gitignore excludes, except below a folder the pattern names literally. When truncated ' +
    "(max_results reached, or stopped: 'time_budget'), pass next_cursor as cursor with the same arguments to continue.",
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    // no real glob comes near this; the pattern is compiled to RE2, whose size grows with it
    pattern: s.string({
      minLength: 1,
      maxLength: 4096,
      description: "Glob: *, **, ?, [abc], {a,b}. '*.md' matches names anywhere.",
    }),
    path: s.optional(pathProperty('Folder the pattern is relative to, default the current folder')),
    max_results: s.optional(
      s.integer({ minimum: 1, maximum: 100000, description: 'Most paths to return (default 500).' }),
    ),
    include_hidden: s.optional(s.boolean({ description: 'Also match names starting with a dot (default false).' })),
    cursor: s.optional(s.string({ minLength: 1, description: 'next_cursor from the previous page of the same glob.' })),
  }),
  resultSchema: s.object({
    matches: s.array(s.string(), { description: 'Root-relative paths, sorted.' }),
    count: s.integer(),
    truncated: s.boolean(),
    next_cursor: s.nullable(s.string({ description: 'Pass as cursor for the next page.' })),
    stopped: s.optional(
      s.enum(['time_budget'], { description: 'The call ran out of its time budget; next_cursor continues.' }),
    ),
    skipped: unreadableResult,
  }),
  async run(args, ctx) {
    const raw = args.pattern.replace(/^(\.\/)+/, '');
    if (raw.startsWith('/') || raw.split('/').includes('..')) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `the pattern '${args.pattern}' must stay below path (no leading '/' and no '..')`,
        {
          hint: "Set path to the folder to look in and keep the pattern relative, e.g. path 'src', pattern '**/*.ts'.",
          problems: [{ path: '/pattern', message: "must be relative, without '..'" }],
        },
      );
    }
    const wantDirs = raw.endsWith('/');
    const pattern = wantDirs ? raw.replace(/\/+$/, '') : raw;
    const base = await ctx.resolve(args.path ?? '.', 'read');
    const shown = displayPath(base.rel);
    if (!base.stat)
      throw new ToolError('NOT_FOUND', `'${shown}' does not exist`, {
        hint: 'Omit path to search from the current folder.',
      });
    if (base.stat.type !== 'dir') throw new ToolError('NOT_A_DIRECTORY', `'${shown}' is a file, not a folder`);
    const maxResults = args.max_results ?? 500;
    const fingerprint = queryFingerprint(['glob', args.pattern, base.rel, args.include_hidden ?? false]);
    // line 0: resume at the path itself (where a walk stopped); 1: after it (the last match returned)
    const resume = args.cursor === undefined ? null : decodeCursor(args.cursor, fingerprint);
    // A literal folder at the front of the pattern is where the walk begins, so a pattern that
    // names node_modules/x or .github explicitly still finds what is inside it.
    const lead = await staticBase(pattern);
    const start = lead ? await ctx.paths.resolveRel(joinRel(base.rel, lead), 'read') : base;
    if (start.stat?.type !== 'dir') return { matches: [], count: 0, truncated: false, next_cursor: null };
    const test = await compileGlob(pattern);
    const prefix = base.rel === '' ? 0 : base.rel.length + 1;
    const matches: string[] = [];
    let truncated = false;
    const budget: WalkBudget = { deadline: Date.now() + ctx.policy.limits.searchBudgetMs };
    const unreadable: Unreadable[] = [];
    const walker = walk(ctx.fs, ctx.paths, start, {
      includeHidden: args.include_hidden ?? false,
      gitignore: true,
      links: 'follow',
      dirs: wantDirs,
      resumeAt: resume?.path,
      budget,
      unreadable,
    });
    let seen = 0;
    for await (const entry of walker) {
      // let other sessions' messages through on a long walk (a memory backend never waits on I/O)
      if (++seen % 256 === 0) await ctx.checkpoint();
      if (resume && resume.line === 1 && entry.rel === resume.path) continue;
      if ((entry.type === 'dir') !== wantDirs || !test(entry.rel.slice(prefix))) continue;
      if (matches.length === maxResults) {
        truncated = true;
        break;
      }
      matches.push(entry.rel);
    }
    const stopped = !truncated && budget.stoppedAt !== undefined;
    const last = matches[matches.length - 1];
    const next = stopped
      ? { path: budget.stoppedAt!, line: 0, column: 0 }
      : truncated && last
        ? { path: last, line: 1, column: 0 }
        : null;
    return {
      matches,
      count: matches.length,
      truncated: truncated || stopped || unreadable.length > 0,
      next_cursor: next ? encodeCursor(fingerprint, next) : null,
      ...(stopped ? { stopped: 'time_budget' as const } : {}),
      ...(unreadable.length > 0 ? { skipped: unreadable.map(shortened) } : {}),
    };
  },
});
