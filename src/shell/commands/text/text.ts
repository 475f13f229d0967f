import { UsageError, type CommandContext, type CommandFn } from '../../context.js';
import { getopts, inputs, lines } from '../util.js';

/** `-5` as head and tail take it: the same as `-n 5`. */
const countArgs = (args: string[]) =>
  args.map((a, i) => (/^-\d+$/.test(a) && !['-n', '-c'].includes(args[i - 1] ?? '') ? `-n${a.slice(1)}` : a));

/** The options each command here parses: the table the flags test reads. */
export const TEXT_FLAGS: Record<string, string> = {
  head: 'qvnc',
  tail: 'qvnc',
  wc: 'lwcmL',
  uniq: 'cdui',
  cut: 'sdfc',
  tr: 'dsc',
};

async function headTail(ctx: CommandContext, tail: boolean): Promise<number> {
  const { operands, flags, values } = getopts(countArgs(ctx.args), 'qv', 'nc', {
    lines: 'n',
    bytes: 'c',
    quiet: 'q',
    silent: 'q',
    verbose: 'v',
  });
  const { texts, failed } = await inputs(ctx, operands);
  const spec = values.get('n')?.at(-1) ?? '10';
  const fromStart = tail && spec.startsWith('+');
  const n = Number(spec.replace(/^[+-]/, ''));
  if (!Number.isInteger(n)) throw new UsageError(`invalid number of lines: '${spec}'`);
  const negative = !tail && spec.startsWith('-');
  for (const [i, { name, text }] of texts.entries()) {
    if ((texts.length > 1 || flags.has('v')) && !flags.has('q'))
      ctx.out(`${i ? '\n' : ''}==> ${name === '-' ? 'standard input' : name} <==\n`);
    if (values.has('c')) {
      const c = Number(values.get('c')!.at(-1));
      ctx.out(tail ? text.slice(Math.max(0, text.length - c)) : text.slice(0, c));
      continue;
    }
    const all = text.split(/(?<=\n)/);
    const picked = tail
      ? fromStart
        ? all.slice(Math.max(0, n - 1))
        : n === 0
          ? []
          : all.slice(-n)
      : negative
        ? all.slice(0, Math.max(0, all.length - n))
        : all.slice(0, n);
    ctx.out(picked.join(''));
  }
  return failed ? 1 : 0;
}

/** wc -L: the widest line in columns, a tab reaching the next multiple of 8, as GNU counts it. */
function maxLineWidth(text: string): number {
  let max = 0;
  for (const line of text.split(/[\n\r\f]/)) {
    let col = 0;
    for (const ch of line) col = ch === '\t' ? col + 8 - (col % 8) : col + 1;
    max = Math.max(max, col);
  }
  return max;
}

const TR_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', v: '\v', f: '\f', a: '\x07', b: '\b' };

export const textCommands: Record<string, CommandFn> = {
  head: (ctx) => headTail(ctx, false),
  tail: (ctx) => headTail(ctx, true),
  wc: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'lwcmL', '', {
      lines: 'l',
      words: 'w',
      bytes: 'c',
      chars: 'm',
      'max-line-length': 'L',
    });
    const { texts, failed } = await inputs(ctx, operands);
    const want = (['l', 'w', 'm', 'c', 'L'] as const).filter((f) => flags.has(f));
    const shown = want.length ? want : (['l', 'w', 'c'] as const);
    const count = (t: string) => ({
      l: (t.match(/\n/g) ?? []).length,
      w: (t.match(/\S+/g) ?? []).length,
      c: new TextEncoder().encode(t).length,
      m: [...t].length,
      L: maxLineWidth(t),
    });
    const rows = texts.map(({ name, text }) => ({ name, n: count(text) }));
    if (rows.length > 1)
      rows.push({
        name: 'total',
        n: rows.reduce(
          (s, r) => ({ l: s.l + r.n.l, w: s.w + r.n.w, c: s.c + r.n.c, m: s.m + r.n.m, L: Math.max(s.L, r.n.L) }),
          { l: 0, w: 0, c: 0, m: 0, L: 0 },
        ),
      });
    // GNU wc's column width: the digits of all files' bytes together, at least 7 when reading stdin.
    const stdin = texts.some((t) => t.name === '-');
    const bytes = texts.reduce((s, t) => s + count(t.text).c, 0);
    const width = shown.length === 1 && texts.length === 1 ? 1 : Math.max(stdin ? 7 : 1, String(bytes).length);
    for (const r of rows)
      ctx.out(
        `${shown.map((f) => String(r.n[f]).padStart(width)).join(' ')}${r.name === '-' && operands.length === 0 ? '' : ` ${r.name}`}\n`,
      );
    return failed ? 1 : 0;
  },
  uniq: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'cdui');
    const { texts, failed } = await inputs(ctx, operands.slice(0, 1));
    const groups: Array<{ line: string; n: number }> = [];
    const same = (a: string, b: string) => (flags.has('i') ? a.toLowerCase() === b.toLowerCase() : a === b);
    for (const l of lines(texts[0]?.text ?? '')) {
      const last = groups[groups.length - 1];
      if (last && same(last.line, l)) last.n++;
      else groups.push({ line: l, n: 1 });
    }
    for (const g of groups) {
      if (flags.has('d') && g.n < 2) continue;
      if (flags.has('u') && g.n > 1) continue;
      ctx.out(flags.has('c') ? `${String(g.n).padStart(7)} ${g.line}\n` : `${g.line}\n`);
    }
    return failed ? 1 : 0;
  },
  cut: async (ctx) => {
    const { operands, flags, values } = getopts(ctx.args, 's', 'dfc', { delimiter: 'd', fields: 'f', characters: 'c' });
    const list = values.get('f')?.[0] ?? values.get('c')?.[0];
    if (!list) throw new UsageError('you must specify a list of bytes, characters, or fields');
    const ranges = list.split(',').map((r) => {
      const [a, b] = r.includes('-') ? r.split('-') : [r, r];
      return [a ? Number(a) : 1, b ? Number(b) : Infinity] as const;
    });
    const keep = (i: number) => ranges.some(([a, b]) => i >= a && i <= b);
    const delim = values.get('d')?.[0] ?? '\t';
    const { texts, failed } = await inputs(ctx, operands);
    for (const l of texts.flatMap((t) => lines(t.text))) {
      if (values.has('c')) {
        ctx.out(`${[...l].filter((_, i) => keep(i + 1)).join('')}\n`);
        continue;
      }
      if (!l.includes(delim)) {
        if (!flags.has('s')) ctx.out(`${l}\n`);
        continue;
      }
      ctx.out(
        `${l
          .split(delim)
          .filter((_, i) => keep(i + 1))
          .join(delim)}\n`,
      );
    }
    return failed ? 1 : 0;
  },
  tr: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'dsc');
    const expand = (set: string) => {
      const named: Record<string, string> = {
        '[:lower:]': 'a-z',
        '[:upper:]': 'A-Z',
        '[:digit:]': '0-9',
        '[:space:]': ' \t\n\r\v\f',
        '[:alpha:]': 'a-zA-Z',
        '[:alnum:]': 'a-zA-Z0-9',
        '[:punct:]': '!-/:-@[-`{-~',
      };
      const s = set
        .replace(/\[:[a-z]+:\]/g, (m) => named[m] ?? m)
        .replace(/\\([0-7]{1,3}|.)/g, (_, c: string) =>
          /^[0-7]/.test(c) ? String.fromCharCode(Number.parseInt(c, 8)) : (TR_ESCAPES[c] ?? c),
        );
      const out: string[] = [];
      for (let i = 0; i < s.length; i++) {
        if (s[i + 1] === '-' && i + 2 < s.length) {
          for (let c = s.charCodeAt(i); c <= s.charCodeAt(i + 2); c++) out.push(String.fromCharCode(c));
          i += 2;
        } else out.push(s[i]!);
      }
      return out;
    };
    const from = expand(operands[0] ?? '');
    const to = expand(operands[1] ?? '');
    const inFrom = (c: string) => (flags.has('c') ? !from.includes(c) : from.includes(c));
    let out = '';
    for (const c of ctx.stdin) {
      if (flags.has('d') && inFrom(c)) continue;
      let r = c;
      if (!flags.has('d') && to.length && inFrom(c))
        r = flags.has('c') ? to[to.length - 1]! : to[Math.min(from.indexOf(c), to.length - 1)]!;
      const squeezeSet = flags.has('d') || to.length === 0 ? from : to;
      if (flags.has('s') && out.endsWith(r) && squeezeSet.includes(r)) continue;
      out += r;
    }
    ctx.out(out);
    return 0;
  },
  rev: async (ctx) => {
    const { texts, failed } = await inputs(ctx, getopts(ctx.args, '').operands);
    for (const l of texts.flatMap((t) => lines(t.text))) ctx.out(`${[...l].reverse().join('')}\n`);
    return failed ? 1 : 0;
  },
};
