import { encodeUtf8 } from '../../bytes.js';
import { errorText, type CommandContext } from '../../context.js';
import { resolve } from '../util.js';

/** Each input as bytes (stdin for none or `-`), with `name: file: error` printed for one that cannot be read. */
export async function byteInputs(
  ctx: CommandContext,
  files: string[],
): Promise<{ items: Array<{ name: string; bytes: Uint8Array }>; failed: boolean }> {
  const items: Array<{ name: string; bytes: Uint8Array }> = [];
  let failed = false;
  for (const f of files.length ? files : ['-']) {
    try {
      items.push({
        name: f,
        bytes: f === '-' ? encodeUtf8(ctx.stdin) : await ctx.shell.state.fs.readFile(resolve(ctx, f)),
      });
    } catch (error) {
      ctx.err(`${ctx.name}: ${f}: ${errorText(error)}\n`);
      failed = true;
    }
  }
  return { items, failed };
}
