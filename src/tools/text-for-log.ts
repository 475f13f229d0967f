import { LOG_TEXT_LIMIT as KEEP_LIMIT, textOfBytes } from '../workspace/change-log.js';
import type { ToolRunContext as ToolContext } from './schema/define.js';

export { textOfBytes };

/** A file's text for the change log, or undefined when it is binary, undecodable or too big to keep. */
export async function textForLog(ctx: ToolContext, rel: string): Promise<string | undefined> {
  try {
    const abs = ctx.paths.toAbs(rel);
    const stat = await ctx.fs.lstat(abs);
    if (stat.type !== 'file' || stat.size > KEEP_LIMIT) return undefined;
    return textOfBytes(await ctx.fs.readFile(abs));
  } catch {
    return undefined;
  }
}
