import { UsageError, type CommandFn } from '../../context.js';
import { getopts, resolve } from '../util.js';

/** date's options: the table the flags test reads. */
export const DATE_FLAGS = 'udrIR' as const;

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const p2 = (n: number) => String(n).padStart(2, '0');

/** One `%x` of date's format, in UTC (the shell's clock has no time zone). */
function directive(c: string, d: Date, ms: number): string {
  const h = d.getUTCHours();
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  switch (c) {
    case 'Y':
      return String(d.getUTCFullYear());
    case 'y':
      return p2(d.getUTCFullYear() % 100);
    case 'C':
      return p2(Math.floor(d.getUTCFullYear() / 100));
    case 'm':
      return p2(d.getUTCMonth() + 1);
    case 'd':
      return p2(d.getUTCDate());
    case 'e':
      return String(d.getUTCDate()).padStart(2);
    case 'H':
      return p2(h);
    case 'k':
      return String(h).padStart(2);
    case 'I':
      return p2(h % 12 || 12);
    case 'l':
      return String(h % 12 || 12).padStart(2);
    case 'M':
      return p2(d.getUTCMinutes());
    case 'S':
      return p2(d.getUTCSeconds());
    case 'N':
      return `${String(((ms % 1000) + 1000) % 1000).padStart(3, '0')}000000`;
    case 'p':
      return h < 12 ? 'AM' : 'PM';
    case 'P':
      return h < 12 ? 'am' : 'pm';
    case 'a':
      return DAYS[d.getUTCDay()]!.slice(0, 3);
    case 'A':
      return DAYS[d.getUTCDay()]!;
    case 'b':
    case 'h':
      return MONTHS[d.getUTCMonth()]!.slice(0, 3);
    case 'B':
      return MONTHS[d.getUTCMonth()]!;
    case 'j':
      return String(Math.floor((ms - start) / 86_400_000) + 1).padStart(3, '0');
    case 'u':
      return String(d.getUTCDay() || 7);
    case 'w':
      return String(d.getUTCDay());
    case 's':
      return String(Math.floor(ms / 1000));
    case 'Z':
      return 'UTC';
    case 'z':
      return '+0000';
    case 'F':
      return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
    case 'T':
      return `${p2(h)}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
    case 'R':
      return `${p2(h)}:${p2(d.getUTCMinutes())}`;
    case 'D':
      return `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${p2(d.getUTCFullYear() % 100)}`;
    case 'c':
      return format('%a %b %e %H:%M:%S %Y', ms);
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case '%':
      return '%';
    default:
      throw new UsageError(`the format directive '%${c}' is not supported by this shell`);
  }
}

/** A time as date's FORMAT prints it. */
export function format(fmt: string, ms: number): string {
  const d = new Date(ms);
  return fmt.replace(/%(:?)([a-zA-Z%])/g, (_m, colon: string, c: string) =>
    colon && c === 'z' ? '+00:00' : directive(c, d, ms),
  );
}

/** `-d STRING`: `@EPOCH`, `now`, ISO dates and date-times (read as UTC), or an error naming it. */
function parseDate(s: string, now: number): number {
  const t = s.trim();
  if (t === '' || t === 'now')
    return t === ''
      ? Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate())
      : now;
  const epoch = /^@(-?\d+(?:\.\d+)?)$/.exec(t);
  if (epoch) return Number(epoch[1]) * 1000;
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/.exec(t);
  if (!m) throw new UsageError(`invalid date '${s}'`);
  let ms = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
    Number((m[7] ?? '0').slice(0, 3).padEnd(3, '0')),
  );
  const zone = /^([+-])(\d{2}):?(\d{2})$/.exec(m[8] ?? '');
  if (zone) ms -= (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000;
  if (Number.isNaN(ms) || (new Date(ms).getUTCDate() !== Number(m[3]) && !zone))
    throw new UsageError(`invalid date '${s}'`);
  return ms;
}

/** date: now (or -d STRING, -r FILE's mtime) as +FORMAT, -I, -R or date's default; times are UTC. */
export const date: CommandFn = async (ctx) => {
  const plain = ctx.args.filter((a) => !a.startsWith('+'));
  const formats = ctx.args.filter((a) => a.startsWith('+'));
  const { flags, values, operands } = getopts(
    plain.map((a) => (/^-I/.test(a) ? '-I' : a)),
    'uRI',
    'dr',
    { utc: 'u', universal: 'u', date: 'd', reference: 'r', 'rfc-email': 'R', 'iso-8601': 'I' },
  );
  if (operands.length) throw new UsageError(`invalid date '${operands[0]}'`);
  if (formats.length > 1) throw new UsageError(`extra operand '${formats[1]}'`);
  const iso =
    plain.find((a) => a.startsWith('-I') || a.startsWith('--iso-8601'))?.replace(/^-I|^--iso-8601=?/, '') || 'date';
  let ms = Date.now();
  if (values.has('d')) ms = parseDate(values.get('d')![0]!, ms);
  if (values.has('r')) {
    const st = await ctx.shell.state.fs.stat(resolve(ctx, values.get('r')![0]!));
    if (!st) throw new UsageError(`${values.get('r')![0]}: No such file or directory`);
    ms = st.mtimeMs;
  }
  const fmt =
    formats[0]?.slice(1) ??
    (flags.has('R')
      ? '%a, %d %b %Y %H:%M:%S +0000'
      : flags.has('I')
        ? ({ date: '%F', hours: '%FT%H+00:00', minutes: '%FT%R+00:00', seconds: '%FT%T+00:00' }[iso] ?? '%F')
        : '%a %b %e %H:%M:%S %Z %Y');
  ctx.out(`${format(fmt, ms)}\n`);
  return 0;
};
