import { decodeText, isDecodeFailure } from '../text/codec.js';
import type { ToolContext } from '../workspace/context.js';

const KEEP_LIMIT = 1024 * 1024;

/** A file's text for the change log, or undefined when it is binary, undecodable or too big to keep. */
export async function textForLog(ctx: ToolContext, rel: string): Promise<string | undefined> {
  try {
    const abs = ctx.paths.toAbs(rel);
    const stat = await ctx.fs.lstat(abs);
    if (stat.type !== 'file' || stat.size > KEEP_LIMIT) return undefined;
    const decoded = decodeText(await ctx.fs.readFile(abs));
    return isDecodeFailure(decoded) ? undefined : decoded.text;
  } catch {
    return undefined;
  }
}
