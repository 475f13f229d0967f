import { walk, type WalkEntry } from '../search/walk.js';
import { s, tool, ToolError, words } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import { pathProperty } from './common.js';
import { defineTool, READ_ONLY } from './schema/define.js';

interface ListedEntry {
  path: string;
  name: string;
  type: 'file' | 'directory' | 'symlink';
  size_bytes: number | null;
}

const TYPE_NAMES = { file: 'file', dir: 'directory', symlink: 'symlink' } as const;

/** list_directory: a sorted, capped listing of a folder (DESIGN.md, canonical tools). */
export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List directory',
  description:
    'List a folder: entries sorted by path (a folder is followed by its contents when recursive), each with its ' +
    'type (file, directory, symlink) and size (null for directories and links; links are shown, never followed). ' +
    'Hidden entries only with include_hidden. Recursive listings do not enter node_modules or build outputs. ' +
    'At most max_entries (default 200) come back; truncated says when there were more.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    path: s.optional(pathProperty('Folder to list, default the current folder')),
    recursive: s.optional(s.boolean({ description: 'Include the contents of sub-folders (default false).' })),
    max_depth: s.optional(
      s.integer({ minimum: 1, description: 'Levels to list: 1 is the folder itself; more implies recursive.' }),
    ),
    max_entries: s.optional(
      s.integer({ minimum: 1, maximum: 10000, description: 'Most entries to return (default 200).' }),
    ),
    include_hidden: s.optional(s.boolean({ description: 'Include names starting with a dot (default false).' })),
  }),
  resultSchema: s.object({
    path: s.string(),
    entries: s.array(
      s.object({
        path: s.string({ description: 'Root-relative.' }),
        name: s.string(),
        type: s.enum(['file', 'directory', 'symlink']),
        size_bytes: s.nullable(s.integer()),
      }),
    ),
    count: s.integer(),
    truncated: s.boolean(),
  }),
  async run(args, ctx) {
    const start = await ctx.resolve(args.path ?? '.', 'read');
    const shown = displayPath(start.rel);
    if (!start.stat)
      throw new ToolError('NOT_FOUND', `'${shown}' does not exist`, {
        hint: 'List its parent folder to see what is there.',
      });
    if (start.stat.type !== 'dir') {
      throw new ToolError('NOT_A_DIRECTORY', `'${shown}' is a file, not a folder`, {
        hint: words`Use ${tool('read_file')} to read it, or list its parent folder.`,
      });
    }
    const maxDepth = args.max_depth ?? (args.recursive ? Infinity : 1);
    const maxEntries = args.max_entries ?? 200;
    const entries: WalkEntry[] = [];
    const walker = walk(ctx.fs, ctx.paths, start, {
      includeHidden: args.include_hidden ?? false,
      buildOutputs: 'list',
      links: 'show',
      dirs: true,
      maxDepth,
    });
    let truncated = false;
    for await (const entry of walker) {
      if (entries.length === maxEntries) {
        truncated = true;
        break;
      }
      entries.push(entry);
    }
    const listed = await Promise.all(
      entries.map(
        async (e): Promise<ListedEntry> => ({
          path: e.rel,
          name: e.name,
          type: TYPE_NAMES[e.type],
          // A file that vanished between the listing and this stat keeps its place with no size.
          size_bytes:
            e.type === 'file'
              ? await ctx.fs.lstat(e.abs).then(
                  (s) => s.size,
                  () => null,
                )
              : null,
        }),
      ),
    );
    return { path: shown, entries: listed, count: listed.length, truncated };
  },
});
