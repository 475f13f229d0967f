import { diffArrays } from 'diff';
import { errorText, UsageError, type CommandContext, type CommandFn } from '../../context.js';
import { getopts, lines, readText, resolve } from '../util.js';

/** Options diff reads, each honoured below. */
export const DIFF_FLAGS = 'uqNbwBU';

interface Op {
  kind: ' ' | '-' | '+';
  text: string;
}

/** GNU's header time: `2026-01-02 03:04:05.000000000 +0000`, local time. */
function stamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const off = -d.getTimezoneOffset();
  const zone = `${off < 0 ? '-' : '+'}${p(Math.floor(Math.abs(off) / 60))}${p(Math.abs(off) % 60)}`;
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}000000 ${zone}`;
}

/** A hunk's range as GNU writes it: `start,count`, just `start` for one line, `start-1,0` for none. */
const hunkRange = (start: number, count: number) =>
  count === 1 ? `${start}` : count === 0 ? `${start - 1},0` : `${start},${count}`;

/** The unified hunks of an edit script, with `context` unchanged lines around each change. */
function unified(ops: Op[], context: number): string {
  let out = '';
  const changed = ops.map((o, i) => (o.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - context);
    let end = changed[k]!;
    while (k < changed.length && changed[k]! <= end + 2 * context) end = changed[k++]!;
    const stop = Math.min(ops.length, end + context + 1);
    let a = 1;
    let b = 1;
    for (const o of ops.slice(0, start)) {
      if (o.kind !== '+') a++;
      if (o.kind !== '-') b++;
    }
    const body = ops.slice(start, stop);
    const na = body.filter((o) => o.kind !== '+').length;
    const nb = body.filter((o) => o.kind !== '-').length;
    out += `@@ -${hunkRange(a, na)} +${hunkRange(b, nb)} @@\n`;
    for (const o of body) out += `${o.kind}${o.text}\n`;
  }
  return out;
}

/** diff: GNU's normal output, `-u`/`-U N` unified hunks with GNU's headers, `-q`, `-N`, `-b -w -B`. */
export const diff: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(ctx.args, DIFF_FLAGS.replace('U', ''), 'U', {
    unified: 'u',
    brief: 'q',
    'new-file': 'N',
    'ignore-space-change': 'b',
    'ignore-all-space': 'w',
    'ignore-blank-lines': 'B',
  });
  if (operands.length !== 2) throw new UsageError(`missing operand after '${operands[0] ?? 'diff'}'`, 2);
  const read = async (name: string) => {
    try {
      return await readText(ctx, name);
    } catch (e) {
      if (flags.has('N')) return '';
      throw e;
    }
  };
  let a: string;
  let b: string;
  try {
    a = await read(operands[0]!);
    b = await read(operands[1]!);
  } catch (e) {
    ctx.err(`diff: ${errorText(e)}\n`);
    return 2;
  }
  const norm = (l: string) =>
    flags.has('w') ? l.replace(/\s+/g, '') : flags.has('b') ? l.replace(/\s+/g, ' ').trimEnd() : l;
  let la = lines(a);
  let lb = lines(b);
  if (flags.has('B')) {
    la = la.filter((l) => l.trim() !== '');
    lb = lb.filter((l) => l.trim() !== '');
  }
  const parts = diffArrays(la, lb, { comparator: (x, y) => norm(x) === norm(y) });
  if (parts.every((p) => !p.added && !p.removed)) return 0;
  if (flags.has('q')) {
    ctx.out(`Files ${operands[0]} and ${operands[1]} differ\n`);
    return 1;
  }
  if (flags.has('u') || values.has('U')) {
    const context = values.has('U') ? Number(values.get('U')!.at(-1)) : 3;
    const ops: Op[] = [];
    for (const p of parts) for (const text of p.value) ops.push({ kind: p.added ? '+' : p.removed ? '-' : ' ', text });
    ctx.out(
      `--- ${operands[0]}\t${await mtime(ctx, operands[0]!)}\n+++ ${operands[1]}\t${await mtime(ctx, operands[1]!)}\n`,
    );
    ctx.out(unified(ops, context));
    return 1;
  }
  normal(ctx, parts);
  return 1;
};

async function mtime(ctx: CommandContext, name: string): Promise<string> {
  if (name === '-') return stamp(Date.now());
  const st = await ctx.shell.state.fs.stat(resolve(ctx, name)).catch(() => null);
  return stamp(st?.mtimeMs ?? 0);
}

/** GNU's default format: `2c2`, `3d2`, `4a5` with `<` and `>` lines. */
function normal(ctx: CommandContext, parts: ReturnType<typeof diffArrays<string>>): void {
  const range = (start: number, n: number) => (n <= 1 ? `${start + (n === 0 ? 0 : 1)}` : `${start + 1},${start + n}`);
  let ia = 0;
  let ib = 0;
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k]!;
    if (!p.added && !p.removed) {
      ia += p.count!;
      ib += p.count!;
      continue;
    }
    const removed = p.removed ? p.value : [];
    const next = parts[k + 1];
    const added = p.added ? p.value : next?.added ? (k++, next.value) : [];
    if (removed.length && added.length) ctx.out(`${range(ia, removed.length)}c${range(ib, added.length)}\n`);
    else if (removed.length) ctx.out(`${range(ia, removed.length)}d${ib}\n`);
    else ctx.out(`${ia}a${range(ib, added.length)}\n`);
    for (const l of removed) ctx.out(`< ${l}\n`);
    if (removed.length && added.length) ctx.out('---\n');
    for (const l of added) ctx.out(`> ${l}\n`);
    ia += removed.length;
    ib += added.length;
  }
}
