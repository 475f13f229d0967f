import { decodeCursor, encodeCursor, queryFingerprint } from '../search/cursor.js';
import { anyGlob } from '../search/glob.js';
import { buildMatcher } from '../search/matcher.js';
import { walk, type WalkEntry } from '../search/walk.js';
import { s } from '../contract/index.js';
import { defineTool, READ_ONLY } from '../tools/schema/define.js';
import { searchFilesTool } from '../tools/search-files.js';
import { projectResolver, projectTarget } from './fs-process-root.js';

/** Entries list_dir returns at most (seed 001). */
export const LIST_CAP = 200;
/** Matches one search_files page holds (seed 001's cap). */
export const SEARCH_CAP = 50;

const rootProperty = s.optional(
  s.string({
    default: '.',
    description: 'The project root, an existing folder relative to the workspace (default ".").',
  }),
);

/**
 * Seed 001's search, with the cursor the seed lacked. It walks from the project root with the
 * project root as its barrier, so links leaving it are skipped and include globs with a slash
 * are relative to it.
 */
export const fsSearch = defineTool({
  name: 'search_files',
  title: 'Search file contents',
  description:
    'Search text files under the project root `path` for a literal (or regex) pattern. At most 50 matches per call, each line capped at ' +
    '500 characters; include globs match file names (["*.md"]), or paths relative to `path` when they hold a slash. Hidden, build and ' +
    'binary files and links leaving the root are skipped, .gitignore is honoured. When truncated, pass next_cursor as cursor for the next matches.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    path: rootProperty,
    ...s.pick(searchFilesTool.schema, ['pattern', 'is_regex', 'include', 'cursor']),
  }),
  resultSchema: s.object({
    matches: s.array(
      s.object({
        file: s.string({ description: 'Relative to the project root.' }),
        line: s.integer(),
        content: s.string(),
      }),
    ),
    count: s.integer(),
    truncated: s.boolean(),
    next_cursor: s.nullable(
      s.string({ description: 'Pass as cursor for the next matches; null when there are none.' }),
    ),
  }),
  async run(args, ctx) {
    const isRegex = args.is_regex ?? false;
    const matcher = await buildMatcher(args.pattern, isRegex, true);
    const target = await projectTarget(ctx, args.path);
    const paths = projectResolver(ctx, target);
    const fingerprint = queryFingerprint(['fs_process', args.pattern, target.rootRel, isRegex, args.include ?? []]);
    const resume = args.cursor === undefined ? null : decodeCursor(args.cursor, fingerprint);
    const { searchFiles } = await import('../search/search.js');
    const page = await searchFiles(ctx.fs, paths, {
      matcher,
      start: await paths.resolveRel('', 'read'),
      include: await anyGlob(args.include),
      resume,
      maxMatches: SEARCH_CAP,
      context: 0,
      maxLineChars: ctx.policy.limits.maxLineChars,
      allowHardLinks: ctx.policy.allowHardLinks,
    });
    const last = page.matches[page.matches.length - 1];
    const matches = page.matches.map((m) => ({ file: m.path, line: m.line, content: m.content }));
    return {
      matches,
      count: matches.length,
      truncated: page.truncated,
      next_cursor: page.truncated && last ? encodeCursor(fingerprint, last) : null,
    };
  },
});

/**
 * Seed 001's bounded listing: hidden names, the build and cache folders search skips, and links
 * that lead outside the project root are left out.
 */
export const fsList = defineTool({
  name: 'list_dir',
  title: 'List directory',
  description:
    'List the folder `path` (default "."), alphabetically, to max_depth levels (default 1; below 1 counts as 1), at most 200 entries. ' +
    'Each entry has name, path (relative to the listed folder), type and size_bytes (null for folders). Hidden names, build and cache ' +
    'folders (node_modules, dist, __pycache__, ...) and links leading outside the folder are left out.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    path: rootProperty,
    max_depth: s.optional(s.integer({ default: 1, description: 'Levels to list; values below 1 are 1.' })),
  }),
  resultSchema: s.object({
    entries: s.array(
      s.object({
        name: s.string(),
        path: s.string({ description: 'Relative to the listed folder.' }),
        type: s.enum(['file', 'directory', 'symlink']),
        size_bytes: s.nullable(s.integer()),
      }),
    ),
    count: s.integer(),
    truncated: s.boolean(),
  }),
  async run(args, ctx) {
    const target = await projectTarget(ctx, args.path);
    const paths = projectResolver(ctx, target);
    const walker = walk(
      ctx.fs,
      paths,
      { rel: '', realRel: '' },
      { buildOutputs: 'skip', links: 'show', dirs: true, maxDepth: Math.max(1, args.max_depth ?? 1) },
    );
    const kept: WalkEntry[] = [];
    let truncated = false;
    for await (const entry of walker) {
      if (entry.type === 'symlink' && (await escapes(paths, entry.rel))) continue;
      if (kept.length === LIST_CAP) {
        truncated = true;
        break;
      }
      kept.push(entry);
    }
    const entries = await Promise.all(
      kept.map(async (e) => ({
        name: e.name,
        path: e.rel,
        type: (e.type === 'dir' ? 'directory' : e.type) as 'file' | 'directory' | 'symlink',
        // A file that vanished between the listing and this stat keeps its place with no size.
        size_bytes:
          e.type === 'file'
            ? await ctx.fs.lstat(e.abs).then(
                (s) => s.size,
                () => null,
              )
            : null,
      })),
    );
    return { entries, count: entries.length, truncated };
  },
});

/** A link is an escape when following it leaves the root (a dangling link inside it is listed). */
async function escapes(paths: ReturnType<typeof projectResolver>, rel: string): Promise<boolean> {
  try {
    await paths.resolveRel(rel, 'read');
    return false;
  } catch {
    return true;
  }
}
