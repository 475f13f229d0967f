import { decodeLossy } from '../../bytes.js';
import { UsageError, type CommandFn } from '../../context.js';
import { getopts } from '../util.js';
import { byteInputs } from './bytes-in.js';

/** base64's options: the table the flags test reads. */
export const BASE64_FLAGS = 'diw' as const;

/** base64: encode (lines of 76, -w N, -w 0 for none) or decode (-d, -i skipping what is not the alphabet). */
export const base64: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(ctx.args, 'di', 'w', { decode: 'd', 'ignore-garbage': 'i', wrap: 'w' });
  if (operands.length > 1) throw new UsageError(`extra operand '${operands[1]}'`);
  const { items, failed } = await byteInputs(ctx, operands);
  if (failed) return 1;
  const bytes = items[0]!.bytes;
  if (flags.has('d')) {
    let text = new TextDecoder().decode(bytes).replace(/\n/g, '');
    if (flags.has('i')) text = text.replace(/[^A-Za-z0-9+/=]/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) {
      ctx.err('base64: invalid input\n');
      return 1;
    }
    const bin = atob(text.padEnd(Math.ceil(text.length / 4) * 4, '='));
    // The shell's streams are text: decoded bytes that are not UTF-8 show as U+FFFD, as on a terminal.
    ctx.out(decodeLossy(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
    return 0;
  }
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const encoded = btoa(bin);
  const width = Number(values.get('w')?.[0] ?? 76);
  if (!Number.isInteger(width) || width < 0) throw new UsageError(`invalid wrap size: '${values.get('w')![0]}'`);
  const wrapped = width === 0 ? encoded : (encoded.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join('\n');
  ctx.out(wrapped + (wrapped || width !== 0 ? '\n' : ''));
  return 0;
};
