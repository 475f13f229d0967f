import { decodeText, isDecodeFailure } from '../text/codec.js';
import type { ToolRunContext as ToolContext } from './define.js';

const KEEP_LIMIT = 1024 * 1024;

/** Bytes as the change log keeps them: their text, or undefined when binary, undecodable or too big. */
export function textOfBytes(bytes: Uint8Array): string | undefined {
  if (bytes.length > KEEP_LIMIT) return undefined;
  const decoded = decodeText(bytes);
  return isDecodeFailure(decoded) ? undefined : decoded.text;
}

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
