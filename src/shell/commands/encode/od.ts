import { UsageError, type CommandFn } from '../../context.js';
import { getopts } from '../util.js';
import { byteInputs } from './bytes-in.js';

/** od's options: the table the flags test reads. */
export const OD_FLAGS = 'AtNjvcxbd' as const;

const NAMED: Record<number, string> = {
  0: '\\0',
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
};

/** One unit of a `-t` type, printed at its GNU width. */
function unitFormatter(type: string): { size: number; show: (v: number, byte: number) => string } {
  if (type === 'c')
    return {
      size: 1,
      show: (_v, b) =>
        (NAMED[b] ?? (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : b.toString(8).padStart(3, '0'))).padStart(4),
    };
  const m = /^([xoud])([1248]?)$/.exec(type);
  if (!m) throw new UsageError(`invalid type string '${type}' (this shell knows c, x, o, u, d with sizes 1, 2, 4)`);
  const size = Number(m[2] || (m[1] === 'd' || m[1] === 'u' ? 4 : 2));
  const max = 2 ** (size * 8);
  const digits = {
    x: size * 2,
    o: Math.ceil((size * 8) / 3),
    u: String(max - 1).length,
    d: String(max / 2).length + 1,
  }[m[1] as 'x'];
  const show = (v: number) => {
    if (m[1] === 'x') return ` ${v.toString(16).padStart(digits, '0')}`;
    if (m[1] === 'o') return ` ${v.toString(8).padStart(digits, '0')}`;
    if (m[1] === 'u') return ` ${String(v).padStart(digits)}`;
    return ` ${String(v >= max / 2 ? v - max : v).padStart(digits)}`;
  };
  return { size, show };
}

/** od: an octal (or -t/-c/-x/-b/-d) dump with -A offsets, -N -j and GNU's `*` for repeated lines (-v keeps them). */
export const od: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(ctx.args, 'vcxbd', 'AtNj');
  const types = [...(values.get('t') ?? [])];
  if (flags.has('c')) types.push('c');
  if (flags.has('x')) types.push('x2');
  if (flags.has('b')) types.push('o1');
  if (flags.has('d')) types.push('u2');
  if (types.length > 1) throw new UsageError('more than one output type is not supported by this shell');
  const fmt = unitFormatter(types[0] ?? 'o2');
  const radix = values.get('A')?.[0] ?? 'o';
  if (!'odxn'.includes(radix) || radix.length !== 1) throw new UsageError(`invalid output address radix '${radix}'`);
  const offset = (n: number) =>
    radix === 'n'
      ? ''
      : radix === 'd'
        ? String(n).padStart(7, '0')
        : n.toString(radix === 'x' ? 16 : 8).padStart(7, '0');
  const { items, failed } = await byteInputs(ctx, operands);
  const all = items.flatMap((i) => [...i.bytes]);
  const skip = Number(values.get('j')?.[0] ?? 0);
  const bytes = all.slice(skip, values.has('N') ? skip + Number(values.get('N')![0]) : undefined);
  let previous = '';
  let starred = false;
  for (let i = 0; i < bytes.length; i += 16) {
    const row = bytes.slice(i, i + 16);
    let text = '';
    for (let k = 0; k < row.length; k += fmt.size) {
      let v = 0;
      for (let b = fmt.size - 1; b >= 0; b--) v = v * 256 + (row[k + b] ?? 0);
      text += fmt.show(v, row[k]!);
    }
    if (!flags.has('v') && text === previous && row.length === 16) {
      if (!starred) ctx.out('*\n');
      starred = true;
      continue;
    }
    starred = false;
    previous = text;
    ctx.out(`${offset(i + skip)}${text}\n`);
  }
  if (radix !== 'n') ctx.out(`${offset(bytes.length + skip)}\n`);
  return failed ? 1 : 0;
};
