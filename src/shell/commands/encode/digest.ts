import { toHex } from '../../../fs/hash/hex.js';
import type { CommandFn } from '../../context.js';
import { getopts, lines, readText, resolve } from '../util.js';
import { byteInputs } from './bytes-in.js';
import { md5Hex } from './md5.js';

/** The options of sha256sum, sha1sum and md5sum: the table the flags test reads. */
export const DIGEST_FLAGS = 'cbt' as const;

async function digestOf(name: string, bytes: Uint8Array): Promise<string> {
  if (name === 'md5sum') return md5Hex(bytes);
  return toHex(
    new Uint8Array(await crypto.subtle.digest(name === 'sha1sum' ? 'SHA-1' : 'SHA-256', new Uint8Array(bytes))),
  );
}

/** sha256sum, sha1sum, md5sum: `HASH  NAME` per input, or -c to check a list of them, as GNU prints it. */
export const digest: CommandFn = async (ctx) => {
  const { operands, flags } = getopts(ctx.args, 'cbt', '', { check: 'c', binary: 'b', text: 't' });
  const mark = flags.has('b') ? '*' : ' ';
  if (!flags.has('c')) {
    const { items, failed } = await byteInputs(ctx, operands);
    for (const { name, bytes } of items) ctx.out(`${await digestOf(ctx.name, bytes)} ${mark}${name}\n`);
    return failed ? 1 : 0;
  }
  let bad = 0;
  let status = 0;
  for (const list of operands.length ? operands : ['-']) {
    for (const line of lines(await readText(ctx, list))) {
      const m = /^([0-9a-f]+) [ *](.*)$/i.exec(line);
      if (!m) continue;
      const bytes = await ctx.shell.state.fs.readFile(resolve(ctx, m[2]!)).catch(() => null);
      if (!bytes) {
        ctx.err(`${ctx.name}: ${m[2]}: No such file or directory\n`);
        ctx.out(`${m[2]}: FAILED open or read\n`);
        status = 1;
        continue;
      }
      const ok = (await digestOf(ctx.name, bytes)) === m[1]!.toLowerCase();
      ctx.out(`${m[2]}: ${ok ? 'OK' : 'FAILED'}\n`);
      if (!ok) bad++;
    }
  }
  if (bad) ctx.err(`${ctx.name}: WARNING: ${bad} computed checksum${bad > 1 ? 's' : ''} did NOT match\n`);
  return bad || status ? 1 : 0;
};
