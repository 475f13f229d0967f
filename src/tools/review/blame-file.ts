import { s } from '../../contract/index.js';
import type { BlameTracker } from '../../workspace/blame/tracker.js';
import { displayPath } from '../../workspace/paths.js';
import { pathProperty } from '../common.js';
import { defineTool, READ_ONLY } from '../schema/define.js';

const range = s.object({
  start_line: s.integer(),
  end_line: s.integer(),
  change_id: s.nullable(s.string()),
  tool: s.nullable(s.string()),
  actor: s.nullable(s.string()),
  call_id: s.nullable(s.string()),
  fork: s.optional(
    s.string({ description: 'For lines a merge brought from a fork: the fork whose change log holds change_id.' }),
  ),
});

/**
 * Who last wrote each line of a text file, as line ranges (a host's verb, `ws.blame(path)`):
 * the path is confined and the file decoded like read_file's, so a binary, undecodable or
 * missing file gets read_file's error.
 */
export function blameTool(tracker: BlameTracker) {
  return defineTool({
    name: 'blame',
    title: 'Blame',
    description: 'Who last wrote each line of a file: line ranges with the change, tool, actor and tool call.',
    mutates: false,
    annotations: READ_ONLY,
    schema: s.object({ path: pathProperty('The file to blame') }),
    resultSchema: s.object({ path: s.string(), total_lines: s.integer(), ranges: s.array(range) }),
    async run(args, ctx) {
      const path = await ctx.resolve(args.path, 'read');
      const file = await ctx.readText(path);
      const ranges = await tracker.blame(path.realRel, file.text);
      return { path: displayPath(path.rel), total_lines: ranges.at(-1)?.end_line ?? 0, ranges };
    },
  });
}
