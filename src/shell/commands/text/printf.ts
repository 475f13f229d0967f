import { rawByte } from '../../bytes.js';
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  e: '\x1b',
  '"': '"',
  "'": "'",
};

/** Backslash escapes as printf's format (and `%b`, `echo -e`) reads them. */
function unescapeText(text: string, forB: boolean): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const n = text[++i]!;
    if (forB && n === 'c') return { text: out, stop: true };
    if (/[0-7]/.test(n) || (forB && n === '0')) {
      const m = /^[0-7]{1,3}/.exec(text.slice(forB && n === '0' ? i + 1 : i))?.[0] ?? '';
      out += rawByte(parseInt(m || '0', 8) & 0xff);
      i += (forB && n === '0' ? 1 : 0) + m.length - 1;
    } else if (n === 'x' && /[0-9a-fA-F]/.test(text[i + 1] ?? '')) {
      const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1))![0];
      out += rawByte(parseInt(m, 16));
      i += m.length;
    } else out += ESCAPES[n] ?? `\\${n}`;
  }
  return { text: out, stop: false };
}

function num(arg: string | undefined, errors: string[]): number {
  if (arg === undefined || arg === '') return 0;
  if (/^['"]/.test(arg)) return arg.codePointAt(1) ?? 0;
  const v = Number(arg);
  if (Number.isNaN(v)) {
    errors.push(`${arg}: invalid number`);
    return 0;
  }
  return v;
}

/**
 * printf(1): the format is reused until the arguments run out. Supports %s %b %c %d %i %u %o %x
 * %X %e %f %g %% with flags, width and precision (`*` too).
 */
export function formatPrintf(format: string, args: string[]): { text: string; error?: string } {
  const errors: string[] = [];
  let out = '';
  let next = 0;
  do {
    const start = next;
    const re =
      /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([sbcdiuoxXeEfgG%])|\\(?:x[0-9a-fA-F]{1,2}|[0-7]{1,3}|[\s\S])|[^%\\]+|%/g;
    for (const m of format.matchAll(re)) {
      if (!m[4]) {
        if (m[0].startsWith('\\')) {
          const u = unescapeText(m[0], false);
          out += u.text;
        } else out += m[0];
        continue;
      }
      if (m[4] === '%') {
        out += '%';
        continue;
      }
      const flags = m[1] ?? '';
      const width = m[2] === '*' ? num(args[next++], errors) : m[2] ? Number(m[2]) : 0;
      const prec = m[3] === '*' ? num(args[next++], errors) : m[3] !== undefined ? Number(m[3]) : undefined;
      const arg = args[next++];
      let body: string;
      switch (m[4]) {
        case 's':
          body = prec !== undefined ? (arg ?? '').slice(0, prec) : (arg ?? '');
          break;
        case 'b': {
          const u = unescapeText(arg ?? '', true);
          body = u.text;
          if (u.stop) {
            out += pad(body, width, flags);
            return { text: out };
          }
          break;
        }
        case 'c':
          body = (arg ?? '').slice(0, 1);
          break;
        case 'd':
        case 'i':
        case 'u': {
          const v = Math.trunc(num(arg, errors));
          body = String(Math.abs(v));
          if (prec !== undefined) body = body.padStart(prec, '0');
          body = (v < 0 ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + body;
          break;
        }
        case 'o':
          body = Math.trunc(num(arg, errors)).toString(8);
          break;
        case 'x':
          body = Math.trunc(num(arg, errors)).toString(16);
          break;
        case 'X':
          body = Math.trunc(num(arg, errors)).toString(16).toUpperCase();
          break;
        case 'f':
          body = num(arg, errors).toFixed(prec ?? 6);
          break;
        case 'e':
        case 'E': {
          body = num(arg, errors)
            .toExponential(prec ?? 6)
            .replace(/e([+-])(\d)$/, 'e$10$2');
          if (m[4] === 'E') body = body.toUpperCase();
          break;
        }
        default:
          body = String(Number(num(arg, errors).toPrecision(prec || 6)));
      }
      if (flags.includes('+') && /[fe]/i.test(m[4]) && !body.startsWith('-')) body = `+${body}`;
      out += pad(body, width, flags, /[diuoxXeEfgG]/.test(m[4]));
    }
    if (next === start) break;
  } while (next < args.length);
  return errors.length ? { text: out, error: errors[0] } : { text: out };
}

function pad(body: string, width: number, flags: string, numeric = false): string {
  if (body.length >= width) return body;
  if (flags.includes('-')) return body.padEnd(width);
  if (numeric && flags.includes('0')) {
    const sign = /^[-+ ]/.test(body) ? body[0]! : '';
    return sign + body.slice(sign.length).padStart(width - sign.length, '0');
  }
  return body.padStart(width);
}
