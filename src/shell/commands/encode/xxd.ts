import { HEX } from '../../../fs/hash/hex.js';
import { UsageError, type CommandFn } from '../../context.js';
import { getopts } from '../util.js';
import { byteInputs } from './bytes-in.js';

/** xxd's options: the table the flags test reads. */
export const XXD_FLAGS = 'pulcgsr' as const;

const printable = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.');

/** xxd: a hex dump as xxd prints it (offset, grouped hex, text), -p plain, -l -s -c -g -u, -r -p back to bytes. */
export const xxd: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(ctx.args, 'pur', 'lcgs', { plain: 'p', ps: 'p', postscript: 'p' });
  const num = (k: string, d: number) => {
    const v = values.get(k)?.[0];
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`invalid number '${v}' for -${k}`);
    return n;
  };
  const { items, failed } = await byteInputs(ctx, operands.slice(0, 1));
  if (failed) return 2;
  if (flags.has('r')) {
    if (!flags.has('p')) throw new UsageError('-r without -p is not supported by this shell', 1);
    const hex = new TextDecoder().decode(items[0]!.bytes).replace(/[^0-9a-fA-F]/g, '');
    const out = Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
    ctx.out(new TextDecoder().decode(out));
    return 0;
  }
  const skip = num('s', 0);
  let bytes = items[0]!.bytes.subarray(skip);
  if (values.has('l')) bytes = bytes.subarray(0, num('l', 0));
  const h = (b: number) => {
    const s = HEX[b]!;
    return flags.has('u') ? s.toUpperCase() : s;
  };
  if (flags.has('p')) {
    const cols = num('c', 30) || 30;
    for (let i = 0; i < bytes.length; i += cols) ctx.out(`${[...bytes.subarray(i, i + cols)].map(h).join('')}\n`);
    return 0;
  }
  const cols = num('c', 16) || 16;
  const group = values.has('g') ? num('g', 2) : 2;
  const width = cols * 2 + (group ? Math.ceil(cols / group) - 1 : 0);
  for (let i = 0; i < bytes.length; i += cols) {
    const row = [...bytes.subarray(i, i + cols)];
    let hexPart = '';
    row.forEach((b, k) => {
      if (group && k > 0 && k % group === 0) hexPart += ' ';
      hexPart += h(b);
    });
    ctx.out(`${(i + skip).toString(16).padStart(8, '0')}: ${hexPart.padEnd(width)}  ${row.map(printable).join('')}\n`);
  }
  return 0;
};
