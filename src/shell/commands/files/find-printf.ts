import { UsageError } from '../../context.js';
import type { FindEntry } from './find-parse.js';

const TYPE_LETTER: Record<FindEntry['type'], string> = { file: 'f', dir: 'd', symlink: 'l' };

/** `-rw-r--r--` for a mode, as `ls -l` and find's `%M` print it. */
export function symbolicMode(type: FindEntry['type'], mode: number): string {
  const bits = 'rwxrwxrwx'.replace(/./g, (c, k: number) => (mode & (0o400 >> k) ? c : '-'));
  return (type === 'dir' ? 'd' : type === 'symlink' ? 'l' : '-') + bits;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `%T<k>`: one part of the modification time, in UTC as the shell's clock has no zone. */
function timePart(k: string, ms: number): string {
  const d = new Date(ms);
  switch (k) {
    case '@':
      return `${Math.floor(ms / 1000)}.${String(Math.round((ms % 1000) * 1e7)).padStart(10, '0')}`;
    case 'Y':
      return String(d.getUTCFullYear());
    case 'm':
      return pad2(d.getUTCMonth() + 1);
    case 'd':
      return pad2(d.getUTCDate());
    case 'H':
      return pad2(d.getUTCHours());
    case 'M':
      return pad2(d.getUTCMinutes());
    case 'S':
      return pad2(d.getUTCSeconds());
    case 'F':
      return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
    case 'T':
      return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
    default:
      throw new UsageError(
        `unsupported time directive \`%T${k}' (the shell knows %T@ %TY %Tm %Td %TH %TM %TS %TF %TT)`,
      );
  }
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  0: '\0',
};

/** The text `-printf FORMAT` prints for one file: GNU's common directives, widths and escapes. */
export function findPrintf(format: string, e: FindEntry): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c === '\\' && i + 1 < format.length) {
      const n = format[++i]!;
      if (n === 'c') return out;
      const oct = /^[0-7]{1,3}/.exec(format.slice(i));
      if (oct && n !== '0') {
        out += String.fromCharCode(Number.parseInt(oct[0], 8));
        i += oct[0].length - 1;
      } else out += ESCAPES[n] ?? `\\${n}`;
      continue;
    }
    if (c !== '%') {
      out += c;
      continue;
    }
    const m = /^(-?)(\d*)([a-zA-Z%@])/.exec(format.slice(i + 1));
    if (!m) throw new UsageError("error: format directive `%' is incomplete");
    i += m[0].length;
    let value: string;
    const numeric = 'sdmk'.includes(m[3]!);
    switch (m[3]) {
      case '%':
        value = '%';
        break;
      case 'p':
        value = e.shown;
        break;
      case 'f':
        value = e.depth === 0 ? e.shown.replace(/\/+$/, '').split('/').pop() || e.shown : e.name;
        break;
      case 'h': {
        const cut = e.shown.replace(/\/+$/, '').lastIndexOf('/');
        value = cut < 0 ? '.' : cut === 0 ? '/' : e.shown.slice(0, cut);
        break;
      }
      case 'P':
        value = e.depth === 0 ? '' : e.shown.slice(e.start.length).replace(/^\/+/, '');
        break;
      case 'H':
        value = e.start;
        break;
      case 's':
        value = String(e.type === 'dir' ? 4096 : e.size);
        break;
      case 'd':
        value = String(e.depth);
        break;
      case 'y':
        value = TYPE_LETTER[e.type];
        break;
      case 'm':
        value = (e.mode & 0o7777).toString(8);
        break;
      case 'M':
        value = symbolicMode(e.type, e.mode);
        break;
      case 'T':
        value = timePart(format[++i] ?? '', e.mtimeMs);
        break;
      default:
        throw new UsageError(`unsupported format directive \`%${m[3]}' in -printf`);
    }
    const width = Number(m[2] || 0);
    out += m[1] ? value.padEnd(width) : numeric || width ? value.padStart(width) : value;
  }
  return out;
}
