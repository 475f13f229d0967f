import type { CommandFn } from '../../context.js';
import { getopts, inputs, lines } from '../util.js';

/** paste's options: the table the flags test reads. */
export const PASTE_FLAGS = 'sd' as const;

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', 0: '' };

/** The delimiter list of -d, its escapes read (`\0` is no delimiter). */
function delimiters(spec: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < spec.length; i++)
    out.push(spec[i] === '\\' && i + 1 < spec.length ? (ESCAPES[spec[++i]!] ?? spec[i]!) : spec[i]!);
  return out.length ? out : [''];
}

/** paste: files side by side (tab-separated, -d LIST cycling), or each file on one line (-s). */
export const paste: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(ctx.args, 's', 'd', { serial: 's', delimiters: 'd' });
  const delims = delimiters(values.get('d')?.[0] ?? '\t');
  const names = operands.length ? operands : ['-'];
  const { texts, failed } = await inputs(ctx, [...new Set(names)]);
  const sources = new Map(texts.map((t) => [t.name, { lines: lines(t.text), next: 0 }]));
  const glue = (cells: string[]) =>
    cells.reduce((acc, c, i) => (i === 0 ? c : acc + delims[(i - 1) % delims.length] + c), '');
  if (flags.has('s')) for (const t of texts) ctx.out(`${glue(sources.get(t.name)!.lines)}\n`);
  // Each `-` takes the next line of the one standard input, as `paste - -` pairs lines up.
  else
    for (;;) {
      const readable = names.map((n) => sources.get(n)).filter((s) => s !== undefined);
      if (!readable.some((s) => s.next < s.lines.length)) break;
      ctx.out(
        `${glue(
          names.map((n) => {
            const src = sources.get(n);
            return src ? (src.lines[src.next++] ?? '') : '';
          }),
        )}\n`,
      );
    }
  return failed ? 1 : 0;
};
